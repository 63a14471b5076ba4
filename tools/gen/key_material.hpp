#pragma once
// Random key material per record for the distributions that are not ordered
// (uniform, skewed, all-equal, few-unique, zipf). Every layout turns the same
// 128 bits into its own key, so "few-unique" means 16 distinct keys whether the
// records are gensort or f64.
#include <cstdint>

#include "counter_rng.hpp"
#include "gen_spec.hpp"
#include "zipf.hpp"

namespace corank::tools {

inline constexpr std::uint64_t kZipfRanks = std::uint64_t{1} << 20;
inline constexpr double kZipfExponent = 1.1;
inline constexpr std::uint64_t kFewUniqueValues = 16;

struct KeyMaterial {
  std::uint64_t hi;  // the key's leading bits: layouts take their most significant bytes from here
  std::uint64_t lo;
};

class KeyMaterialSource {
public:
  explicit KeyMaterialSource(const GenSpec& spec);

  // Material for the record numbered `record_number`. For the skewed
  // distribution the top `prefix_bits` of hi come from a Zipf-drawn rank, so
  // popular ranks give many keys a long common prefix; the rest is random.
  // Uniform, the common case for large files, is inline and costs two mixes:
  // hi and lo are SplitMix64 outputs indexed by the record number.
  KeyMaterial draw(std::uint64_t record_number, unsigned prefix_bits) const noexcept {
    if (dist_ == GenDist::Uniform)
      return {mix64(record_key_ + record_number * kGolden), mix64(lo_key_ + record_number * kGolden)};
    return draw_other(record_number, prefix_bits);
  }

  // Independent random bits for fields outside the key (gensort filler).
  std::uint64_t side_bits(std::uint64_t record_number) const noexcept;

private:
  static constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

  KeyMaterial draw_other(std::uint64_t record_number, unsigned prefix_bits) const noexcept;
  KeyMaterial for_value(std::uint64_t value_id) const noexcept;

  GenDist dist_;
  std::uint64_t record_key_;  // per-record random streams
  std::uint64_t lo_key_;
  std::uint64_t value_key_;   // maps a rank or slot number to its fixed material
  std::uint64_t side_key_;
  ZipfSampler zipf_;
};

}  // namespace corank::tools
