#pragma once
// BigArray<T>: an uninitialized array for the sorter's large buffers, mapped
// anonymously with transparent huge pages requested. First-touch page faults
// dominate a sort that fills gigabytes of fresh memory: with 4 KiB pages they
// cost more than reading the input from the page cache (measured: 3.3 s per GiB
// with 4 KiB pages, 0.08 s with huge pages, on the 2-core development VM).
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace corank {

template <class T>
class BigArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
  BigArray() = default;
  explicit BigArray(std::size_t n) : bytes_(std::max<std::size_t>(n, 1) * sizeof(T)) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (bytes_ >= (std::size_t{2} << 20)) ::madvise(p, bytes_, MADV_HUGEPAGE);  // advice only; may be ignored
    data_ = static_cast<T*>(p);
  }
  BigArray(BigArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  BigArray& operator=(BigArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  BigArray(const BigArray&) = delete;
  BigArray& operator=(const BigArray&) = delete;
  ~BigArray() { release(); }

  T* get() const noexcept { return data_; }
  T& operator[](std::size_t i) const noexcept { return data_[i]; }
  explicit operator bool() const noexcept { return data_ != nullptr; }
  void reset() noexcept { release(); }

private:
  void release() noexcept {
    if (data_) ::munmap(data_, bytes_);
    data_ = nullptr;
    bytes_ = 0;
  }
  T* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace corank
