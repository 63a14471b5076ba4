// Shared by the CUDA test executables: typed-test helpers (and, through
// gpu_skip.hpp, the skip where no GPU is usable).
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "corank/gpu/merge_variant.cuh"
#include "corank/gpu/word_key.cuh"
#include "gpu_skip.hpp"

namespace corank::gpu::testing {

// Monotone maps from a 64-bit test value to each key type, so one generator
// serves all; Key128 puts the low two bits in the second word, so ties in the
// first word are common and the second word decides.
template <class Key>
Key make_key(std::uint64_t x);
template <>
inline std::uint32_t make_key<std::uint32_t>(std::uint64_t x) {
  return static_cast<std::uint32_t>(x);
}
template <>
inline std::uint64_t make_key<std::uint64_t>(std::uint64_t x) {
  return x;
}
template <>
inline Key128 make_key<Key128>(std::uint64_t x) {
  return Key128{{x >> 2, ((x & 3) << 62) | 7}};
}

template <class Key>
const char* key_name();
template <>
inline const char* key_name<std::uint32_t>() { return "u32"; }
template <>
inline const char* key_name<std::uint64_t>() { return "u64"; }
template <>
inline const char* key_name<Key128>() { return "key128"; }

}  // namespace corank::gpu::testing
