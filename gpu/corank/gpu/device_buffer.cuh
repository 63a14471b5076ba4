// Move-only owner of a cudaMalloc allocation of `size` elements of T.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/device_span.cuh"

namespace corank::gpu {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::int64_t size) : size_(size) {
    if (size > 0) {
      void* p = nullptr;
      check_cuda(cudaMalloc(&p, static_cast<std::size_t>(size) * sizeof(T)), "cudaMalloc");
      data_ = static_cast<T*>(p);
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  // A destructor cannot report: a failing cudaFree here means the context is
  // already broken, and the next checked call will say so.
  ~DeviceBuffer() { release(); }

  T* data() const noexcept { return data_; }
  std::int64_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return static_cast<std::size_t>(size_) * sizeof(T); }
  DeviceSpan<T> span() const noexcept { return {data_, size_}; }

 private:
  void release() noexcept {
    if (data_ != nullptr) (void)cudaFree(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::int64_t size_ = 0;
};

}  // namespace corank::gpu
