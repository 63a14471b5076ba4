// Move-only owner of page-locked host memory (cudaMallocHost), the staging
// area for asynchronous copies.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

#include "corank/gpu/cuda_error.cuh"

namespace corank::gpu {

template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::int64_t size) : size_(size) {
    if (size > 0) {
      void* p = nullptr;
      check_cuda(cudaMallocHost(&p, static_cast<std::size_t>(size) * sizeof(T)), "cudaMallocHost");
      data_ = static_cast<T*>(p);
    }
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  ~PinnedBuffer() { release(); }

  T* data() const noexcept { return data_; }
  std::int64_t size() const noexcept { return size_; }
  T& operator[](std::int64_t i) const noexcept { return data_[i]; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size_; }

 private:
  void release() noexcept {
    if (data_ != nullptr) (void)cudaFreeHost(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::int64_t size_ = 0;
};

}  // namespace corank::gpu
