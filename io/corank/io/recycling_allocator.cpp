#include "corank/io/recycling_allocator.hpp"

#include <algorithm>

namespace corank::io {

RecyclingAllocator::~RecyclingAllocator() {
  for (const Block& b : owned_) from_.deallocate(b.p, b.bytes);
}

void* RecyclingAllocator::allocate(std::size_t bytes, std::size_t alignment) {
  std::lock_guard lock(mutex_);
  const auto fits = [&](const Block& b) { return b.bytes == bytes && b.alignment % alignment == 0; };
  if (const auto it = std::find_if(free_.begin(), free_.end(), fits); it != free_.end()) {
    void* p = it->p;
    free_.erase(it);
    return p;
  }
  owned_.reserve(owned_.size() + 1);  // before the block: a throw here leaks nothing
  free_.reserve(owned_.size() + 1);   // so that deallocate never allocates
  void* p = from_.allocate(bytes, alignment);
  owned_.push_back({p, bytes, alignment});
  return p;
}

void RecyclingAllocator::deallocate(void* p, std::size_t bytes) noexcept {
  std::lock_guard lock(mutex_);
  const auto it = std::find_if(owned_.begin(), owned_.end(), [&](const Block& b) { return b.p == p; });
  if (it == owned_.end() || it->bytes != bytes) return;  // not one of ours: nothing to recycle
  free_.push_back(*it);
}

std::size_t RecyclingAllocator::fresh_blocks() const {
  std::lock_guard lock(mutex_);
  return owned_.size();
}

}  // namespace corank::io
