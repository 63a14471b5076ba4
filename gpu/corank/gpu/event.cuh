// Move-only owner of a CUDA event, used for ordering and for timing.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "corank/gpu/cuda_error.cuh"

namespace corank::gpu {

class Event {
 public:
  Event() { check_cuda(cudaEventCreate(&e_), "cudaEventCreate"); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    if (this != &o) {
      release();
      e_ = std::exchange(o.e_, nullptr);
    }
    return *this;
  }
  ~Event() { release(); }

  cudaEvent_t get() const noexcept { return e_; }
  void record(cudaStream_t stream) { check_cuda(cudaEventRecord(e_, stream), "cudaEventRecord"); }
  void synchronize() const { check_cuda(cudaEventSynchronize(e_), "cudaEventSynchronize"); }
  // Milliseconds from start to this event; both must have completed.
  float elapsed_ms_since(const Event& start) const {
    float ms = 0.0f;
    check_cuda(cudaEventElapsedTime(&ms, start.e_, e_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  void release() noexcept {
    if (e_ != nullptr) (void)cudaEventDestroy(e_);
    e_ = nullptr;
  }
  cudaEvent_t e_ = nullptr;
};

}  // namespace corank::gpu
