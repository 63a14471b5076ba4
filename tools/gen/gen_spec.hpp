#pragma once
// What corank-gen writes: layout, key distribution, seed and record range.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "counter_rng.hpp"

namespace corank::tools {

// Bad command-line input; the tool prints it on one line and exits 2.
class GenUsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class GenFormat : std::uint8_t { Gensort, GensortAscii, U32, U64, I32, I64, F32, F64 };
enum class GenDist : std::uint8_t { Uniform, Skewed, Sorted, Reverse, AllEqual, FewUnique, Zipf, NearlySorted };

struct GenSpec {
  GenFormat format = GenFormat::Gensort;
  GenDist dist = GenDist::Uniform;
  std::uint64_t seed = 0;
  std::uint64_t start = 0;  // record number of the first record written
  std::uint64_t count = 0;  // records to write
  bool allow_nan = false;   // floats: mix in NaN, +-0, +-inf (random distributions only)
  std::uint64_t displacement = 1000;  // nearly-sorted: records at most this far from their sorted place
};

// nearly-sorted: record n takes the sorted key of n + U[0, displacement]
// (hashed from the seed and n, so pieces still concatenate), so that every
// record lies at most `displacement` records from its place in sorted order.
inline std::uint64_t nearly_sorted_rank(const GenSpec& spec, std::uint64_t n) noexcept {
  return n + mix64(spec.seed ^ 0x3C6EF372FE94F82BULL, n) % (spec.displacement + 1);
}

std::uint32_t record_size(GenFormat f) noexcept;

GenFormat parse_gen_format(std::string_view name);
GenDist parse_gen_dist(std::string_view name);
std::string_view to_string(GenFormat f) noexcept;
std::string_view to_string(GenDist d) noexcept;

// "N" or N with a k/K, M, G or T suffix meaning 10^3, 10^6, 10^9, 10^12.
std::uint64_t parse_record_count(std::string_view text);
// "N" bytes or N with a k/K, M, G or T suffix meaning 2^10, 2^20, 2^30, 2^40.
std::uint64_t parse_byte_size(std::string_view text);

}  // namespace corank::tools
