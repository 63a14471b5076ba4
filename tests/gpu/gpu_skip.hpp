// Shared by every GPU test (plain C++ as well as CUDA): the reason no GPU is
// usable here, empty when one is, and a gtest skip that prints it.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

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

}  // namespace corank::gpu::testing

#define CORANK_SKIP_WITHOUT_GPU()                                                       \
  do {                                                                                  \
    const std::string corank_reason = ::corank::gpu::testing::gpu_unavailable_reason(); \
    if (!corank_reason.empty()) GTEST_SKIP() << "GPU test skipped: " << corank_reason;  \
  } while (0)
