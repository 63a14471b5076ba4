// Move-only owner of a non-blocking CUDA stream.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "corank/gpu/cuda_error.cuh"

namespace corank::gpu {

class Stream {
 public:
  // Non-blocking: work on it never serializes against the legacy default stream.
  Stream() { check_cuda(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    if (this != &o) {
      release();
      s_ = std::exchange(o.s_, nullptr);
    }
    return *this;
  }
  ~Stream() { release(); }

  cudaStream_t get() const noexcept { return s_; }
  void synchronize() const { check_cuda(cudaStreamSynchronize(s_), "cudaStreamSynchronize"); }

 private:
  void release() noexcept {
    if (s_ != nullptr) (void)cudaStreamDestroy(s_);
    s_ = nullptr;
  }
  cudaStream_t s_ = nullptr;
};

}  // namespace corank::gpu
