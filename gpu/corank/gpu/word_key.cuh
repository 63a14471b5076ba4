// Multi-word normalized keys: fixed-width byte strings stored as big-endian
// 64-bit words, so lexicographic order on the words is the key order.
#pragma once

#include <cstdint>

#include "corank/gpu/host_device.hpp"

namespace corank::gpu {

// Even word counts are 16-byte aligned so a key moves with 128-bit loads.
template <int Words>
struct alignas(Words % 2 == 0 ? 16 : 8) WordKey {
  static_assert(Words >= 1, "a key has at least one word");
  std::uint64_t w[Words];

  friend CORANK_HD_INLINE bool operator<(const WordKey& x, const WordKey& y) {
    for (int i = 0; i < Words; ++i) {
      if (x.w[i] != y.w[i]) return x.w[i] < y.w[i];
    }
    return false;
  }
  friend CORANK_HD_INLINE bool operator==(const WordKey& x, const WordKey& y) {
    for (int i = 0; i < Words; ++i) {
      if (x.w[i] != y.w[i]) return false;
    }
    return true;
  }
  friend CORANK_HD_INLINE bool operator!=(const WordKey& x, const WordKey& y) { return !(x == y); }
};

using Key128 = WordKey<2>;

}  // namespace corank::gpu
