#include "corank/gpu/cuda_error.cuh"

namespace corank::gpu {

CudaError::CudaError(cudaError_t code, const std::string& call)
    : std::runtime_error(call + " failed: " + cudaGetErrorString(code)), code_(code) {}

void check_cuda(cudaError_t code, const char* call) {
  if (code == cudaSuccess) return;
  // A non-sticky failure (e.g. out of memory) also lands in the last-error
  // slot; clear it so the next check_launch does not report it again.
  (void)cudaGetLastError();
  throw CudaError(code, call);
}

void check_launch(const char* kernel) {
  const cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess) throw CudaError(code, std::string(kernel) + " launch");
}

}  // namespace corank::gpu
