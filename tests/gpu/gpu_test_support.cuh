// Shared by the GPU test executables: skip with a reason where no GPU is
// usable, and typed-test helpers.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "corank/gpu/merge_variant.cuh"
#include "corank/gpu/word_key.cuh"

namespace corank::gpu::testing {

inline std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("no usable CUDA device (cudaGetDeviceCount: ") + cudaGetErrorString(e) + ")";
  }
  if (count == 0) return "no CUDA device";
  return {};
}

#define CORANK_SKIP_WITHOUT_GPU()                                                              \
  do {                                                                                         \
    const std::string corank_reason = ::corank::gpu::testing::gpu_unavailable_reason();        \
    if (!corank_reason.empty()) GTEST_SKIP() << "GPU test skipped: " << corank_reason;         \
  } while (0)

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
