#pragma once
// Counter-based randomness: record i's random numbers depend only on (seed, i),
// never on the records before it. That is what makes `--start` pieces generated
// separately (or in parallel) concatenate to exactly the bytes of one run.
#include <cstdint>

namespace corank::tools {

// SplitMix64's finalizer: a bijective 64-bit mix with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Hash of (key, index): distinct keys give unrelated sequences over the index.
constexpr std::uint64_t mix64(std::uint64_t key, std::uint64_t index) noexcept {
  return mix64(key ^ mix64(index ^ 0x6A09E667F3BCC909ULL));
}

// A SplitMix64 stream started at a hashed (key, index) point. Streams of
// neighbouring records start at unrelated points of the 2^64 cycle.
class RecordRng {
public:
  constexpr RecordRng(std::uint64_t key, std::uint64_t index) noexcept : state_(mix64(key, index)) {}

  constexpr std::uint64_t next() noexcept {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
  std::uint64_t state_;
};

}  // namespace corank::tools
