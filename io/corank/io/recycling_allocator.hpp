#pragma once
// A BufferAllocator that keeps the blocks given back to it and hands them out
// again, for a stage that opens sink after sink (write_merged: a sink a share
// of the output). Each fresh block of the default allocator is populated
// memory, and on a machine that gives freed memory back to its host the
// first touch costs more than the writes it serves: recycled, a stage's
// blocks are touched once. Thread-safe; blocks are freed when it is
// destroyed, which must be after every sink using it is.
#include <cstddef>
#include <mutex>
#include <vector>

#include "corank/io/buffer_allocator.hpp"

namespace corank::io {

class RecyclingAllocator final : public BufferAllocator {
public:
  explicit RecyclingAllocator(BufferAllocator& from = default_allocator()) : from_(from) {}
  RecyclingAllocator(const RecyclingAllocator&) = delete;
  RecyclingAllocator& operator=(const RecyclingAllocator&) = delete;
  ~RecyclingAllocator() override;

  void* allocate(std::size_t bytes, std::size_t alignment) override;
  void deallocate(void* p, std::size_t bytes) noexcept override;

  // Blocks taken from the underlying allocator so far.
  std::size_t fresh_blocks() const;

private:
  struct Block {
    void* p;
    std::size_t bytes, alignment;
  };
  BufferAllocator& from_;
  mutable std::mutex mutex_;
  std::vector<Block> free_;   // given back, ready to hand out again
  std::vector<Block> owned_;  // every block taken from from_
};

}  // namespace corank::io
