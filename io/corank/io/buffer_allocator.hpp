#pragma once
// Where I/O buffers come from. io/ only needs memory aligned for O_DIRECT; the
// caller may supply another allocator (gpu/ passes pinned host memory so the
// same buffers feed cudaMemcpyAsync) without io/ knowing about CUDA.
#include <cstddef>
#include <utility>

namespace corank::io {

// O_DIRECT needs buffer addresses, offsets and lengths aligned to the logical
// block size; 4096 covers every device we meet (512 and 4K sectors).
inline constexpr std::size_t kDirectAlignment = 4096;

class BufferAllocator {
public:
  virtual ~BufferAllocator() = default;
  // Returns bytes of memory aligned to `alignment`; throws std::bad_alloc (or
  // the allocator's own exception) on failure, never returns nullptr.
  virtual void* allocate(std::size_t bytes, std::size_t alignment) = 0;
  virtual void deallocate(void* p, std::size_t bytes) noexcept = 0;
};

// aligned_alloc-backed; a process-wide instance.
BufferAllocator& default_allocator() noexcept;

// A move-only buffer owned through an allocator; the destructor never throws.
class Buffer {
public:
  Buffer() = default;
  Buffer(BufferAllocator& a, std::size_t bytes, std::size_t alignment = kDirectAlignment)
      : alloc_(&a), data_(static_cast<std::byte*>(a.allocate(bytes, alignment))), size_(bytes) {}
  Buffer(Buffer&& o) noexcept
      : alloc_(std::exchange(o.alloc_, nullptr)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      release();
      alloc_ = std::exchange(o.alloc_, nullptr);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }

  std::byte* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

private:
  void release() noexcept {
    if (data_) alloc_->deallocate(data_, size_);
    data_ = nullptr;
  }
  BufferAllocator* alloc_ = nullptr;
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace corank::io
