#include "key_material.hpp"

#include "counter_rng.hpp"

namespace corank::tools {

KeyMaterialSource::KeyMaterialSource(const GenSpec& spec)
    : dist_(spec.dist),
      record_key_(mix64(spec.seed, 0x5245434F5244ULL)),
      lo_key_(mix64(spec.seed, 0x4C4FULL)),
      value_key_(mix64(spec.seed, 0x56414C5545ULL)),
      side_key_(mix64(spec.seed, 0x53494445ULL)),
      zipf_(kZipfRanks, kZipfExponent) {}

KeyMaterial KeyMaterialSource::for_value(std::uint64_t value_id) const noexcept {
  return {mix64(value_key_, 2 * value_id), mix64(value_key_, 2 * value_id + 1)};
}

KeyMaterial KeyMaterialSource::draw_other(std::uint64_t record_number, unsigned prefix_bits) const noexcept {
  RecordRng rng(record_key_, record_number);
  switch (dist_) {
    case GenDist::AllEqual:
      return for_value(0);
    case GenDist::FewUnique:
      return for_value(rng.next() >> 60);  // 16 slots
    case GenDist::Zipf:
      return for_value(zipf_.sample(rng));
    case GenDist::Skewed: {
      const std::uint64_t rank_bits = for_value(zipf_.sample(rng)).hi;
      const std::uint64_t mask = prefix_bits >= 64 ? ~0ULL : ~(~0ULL >> prefix_bits);
      return {(rank_bits & mask) | (rng.next() & ~mask), rng.next()};
    }
    case GenDist::Uniform:  // handled inline in draw()
    case GenDist::Sorted:   // ordered layouts never ask
    case GenDist::Reverse:
    case GenDist::NearlySorted:
      break;
  }
  const std::uint64_t hi = rng.next();
  return {hi, rng.next()};
}

std::uint64_t KeyMaterialSource::side_bits(std::uint64_t record_number) const noexcept {
  return mix64(side_key_, record_number);
}

}  // namespace corank::tools
