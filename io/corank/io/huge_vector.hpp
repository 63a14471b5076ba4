#pragma once
// HugeVector<T>: the one array type for the sorters' large buffers, of
// trivially copyable T, in anonymous memory with transparent huge pages
// requested where they pay (huge_pages.hpp). First-touch page faults dominate
// a sort that fills gigabytes of fresh memory, often more than reading the
// input from the page cache. Elements are never initialized: a fixed-size
// buffer is HugeVector<T>(n), a growing one reserve()s and push_back()s, and
// growth uses mremap, which moves page tables instead of copying bytes.
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "corank/io/huge_pages.hpp"

namespace corank::io {

template <class T>
class HugeVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
  HugeVector() = default;
  // n elements, uninitialized; data() is never null, even for n == 0. The
  // mapping is exactly n elements long, not rounded up to a huge page: a huge
  // page straddling the end would make up to 2 MiB more resident than the
  // sort planned for.
  explicit HugeVector(std::size_t n) {
    map(std::max<std::size_t>(n, 1) * sizeof(T));
    size_ = n;
  }
  HugeVector(HugeVector&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), cap_(std::exchange(o.cap_, 0)) {}
  HugeVector& operator=(HugeVector&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      cap_ = std::exchange(o.cap_, 0);
    }
    return *this;
  }
  ~HugeVector() { release(); }

  void reserve(std::size_t n) {
    if (n <= cap_) return;
    map(round_up(n * sizeof(T)));
  }
  void resize(std::size_t n) {
    reserve(n);
    size_ = n;
  }
  void push_back(const T& v) {
    if (size_ == cap_) reserve(std::max<std::size_t>(cap_ * 2, 4096 / sizeof(T) + 1));
    data_[size_++] = v;
  }
  void clear() noexcept { size_ = 0; }
  // Gives the memory back; the vector is empty and holds none.
  void reset() noexcept { release(); }
  explicit operator bool() const noexcept { return data_ != nullptr; }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return cap_; }
  bool empty() const noexcept { return size_ == 0; }
  void swap(HugeVector& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(cap_, o.cap_);
  }

private:
  // Maps `bytes` (a multiple of sizeof(T)), moving what is mapped already.
  void map(std::size_t bytes) {
    void* p = data_ ? ::mremap(data_, cap_ * sizeof(T), bytes, MREMAP_MAYMOVE)
                    : ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    advise_huge_pages(p, bytes);
    data_ = static_cast<T*>(p);
    cap_ = bytes / sizeof(T);
  }
  static std::size_t round_up(std::size_t bytes) {
    const std::size_t page = bytes >= (std::size_t{2} << 20) ? (std::size_t{2} << 20) : 4096;
    return (bytes + page - 1) / page * page;
  }
  void release() noexcept {
    if (data_) ::munmap(data_, cap_ * sizeof(T));
    data_ = nullptr;
    size_ = cap_ = 0;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0, cap_ = 0;
};

}  // namespace corank::io
