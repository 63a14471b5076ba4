// The error boundary of gpu/: every CUDA call and every launch is checked and
// failures leave as CudaError naming the call, e.g.
// "cudaMalloc failed: out of memory".
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace corank::gpu {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& call);
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

// Throws CudaError(code, call) unless code is cudaSuccess.
void check_cuda(cudaError_t code, const char* call);

// Call right after a <<<>>> launch: reports configuration errors (and any
// sticky error of earlier asynchronous work) under the kernel's name.
void check_launch(const char* kernel);

}  // namespace corank::gpu
