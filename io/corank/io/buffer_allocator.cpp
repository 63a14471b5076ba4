#include "corank/io/buffer_allocator.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace corank::io {

namespace {
class AlignedAllocator final : public BufferAllocator {
public:
  void* allocate(std::size_t bytes, std::size_t alignment) override {
    // aligned_alloc wants a size that is a multiple of the alignment.
    std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    void* p = std::aligned_alloc(alignment, rounded ? rounded : alignment);
    if (!p) throw std::bad_alloc();
    // Touched now, from user space: the kernel never has to allocate these
    // pages inside a read (see prefault_for_write in file_desc.hpp).
    std::memset(p, 0, rounded ? rounded : alignment);
    return p;
  }
  void deallocate(void* p, std::size_t) noexcept override { std::free(p); }
};
}  // namespace

BufferAllocator& default_allocator() noexcept {
  static AlignedAllocator a;
  return a;
}

}  // namespace corank::io
