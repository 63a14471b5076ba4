#include "corank/io/buffer_allocator.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace corank::io {

namespace {

// Blocks of this size and more are mappings of their own, returned to the
// system when freed. From malloc they were not: glibc raises its mmap
// threshold to the size of each mapped block freed, after which blocks came
// from a thread's arena, and aligned blocks freed there left holes that the
// next sink's blocks did not fill. A sort that opens a sink per spilled run
// grew by megabytes at -S 1M (15 MB peak RSS against 7.6 MB).
constexpr std::size_t kMappedFrom = std::size_t{64} << 10;

#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;  // Linux's value; older kernels refuse it (EINVAL), and memset serves
#endif

std::size_t page_size() noexcept { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

// bytes (>= kMappedFrom) at `alignment`, mapped: [p, p + bytes rounded up to
// pages) is the whole mapping, so that munmap(p, bytes) frees it.
void* map_aligned(std::size_t bytes, std::size_t alignment) {
  const std::size_t page = page_size();
  const std::size_t length = (bytes + page - 1) / page * page;
  const std::size_t extra = alignment > page ? alignment : 0;
  void* m = ::mmap(nullptr, length + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  auto* base = static_cast<std::byte*>(m);
  if (extra == 0) return base;
  const auto at = reinterpret_cast<std::uintptr_t>(base);
  std::byte* p = base + ((alignment - at % alignment) % alignment);
  if (p > base) ::munmap(base, static_cast<std::size_t>(p - base));
  if (p + length < base + length + extra)
    ::munmap(p + length, static_cast<std::size_t>(base + length + extra - (p + length)));
  return p;
}

class AlignedAllocator final : public BufferAllocator {
public:
  void* allocate(std::size_t bytes, std::size_t alignment) override {
    // aligned_alloc wants a size that is a multiple of the alignment.
    std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    if (rounded == 0) rounded = alignment;
    void* p = bytes >= kMappedFrom ? map_aligned(bytes, alignment) : std::aligned_alloc(alignment, rounded);
    if (!p) throw std::bad_alloc();
    // Touched now: the kernel never has to allocate these pages inside a read
    // (see prefault_for_write in file_desc.hpp). A mapping is populated by the
    // kernel in one call (Linux 5.14 on), not page fault by page fault as a
    // memset would: a sort of many inputs allocates a read-ahead per file.
    if (bytes < kMappedFrom || ::madvise(p, bytes, kPopulateWrite) != 0)
      std::memset(p, 0, bytes >= kMappedFrom ? bytes : rounded);
    return p;
  }
  void deallocate(void* p, std::size_t bytes) noexcept override {
    if (bytes >= kMappedFrom)
      ::munmap(p, bytes);
    else
      std::free(p);
  }
};

}  // namespace

BufferAllocator& default_allocator() noexcept {
  static AlignedAllocator a;
  return a;
}

}  // namespace corank::io
