// The merge phase on the GPU: merges a slab's k sorted segments of entries
// (key words, then pos: the layout of src's KeyEntry<W>, W = 1 or 2) into one
// sorted array.
//
// Per slab: the segments are staged back to back in pinned memory and copied
// in, split into key and value (pos) arrays, merged pairwise in ceil(log2 k)
// rounds with corank::gpu::merge, ping-ponging two device buffers, assembled
// back into entries and copied out into the same pinned buffer. Adjacent
// segments are merged with the earlier one as A, and merge() takes equal keys
// from A first, so with segments in position order the result is in (key, pos)
// order, exactly what a CPU k-way merge gives.
//
// Two slots, each with pinned staging, a stream, device buffers and events,
// alternate between slabs: the caller stages slab s+1 while the GPU merges
// slab s, and gathers slab s-1 from pinned memory meanwhile.
//
// Plain C++ header (no kernels), so host-only C++20 code can use it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace corank::gpu {

struct SlabMergeTimes {
  double h2d_ms = 0, merge_ms = 0, d2h_ms = 0;  // summed over slabs, from CUDA events
  double busy_ms = 0;  // union of the slabs' [copy in, copy out] intervals (busy_time.hpp)
  double h2d_bytes = 0, d2h_bytes = 0;
};

class SlabMerger {
 public:
  // Copies from pageable into pinned host memory; the caller may spread it
  // over threads. Default: std::memcpy.
  using HostCopy = std::function<void(void* dst, const void* src, std::size_t bytes)>;

  // Sizes both slots for slabs of at most max_slab_records entries, fewer when
  // the buffers would not fit in device_budget bytes (0: 85% of the free device
  // memory). key_words must be 1 or 2. Throws CudaError.
  SlabMerger(unsigned key_words, std::uint64_t max_slab_records, std::uint64_t device_budget, HostCopy copy = {});
  ~SlabMerger();
  SlabMerger(const SlabMerger&) = delete;
  SlabMerger& operator=(const SlabMerger&) = delete;

  std::uint64_t slab_records() const noexcept;
  unsigned key_words() const noexcept;
  // Device bytes held by both slots.
  std::uint64_t device_bytes() const noexcept;

  // Starts merging k sorted segments (segments[i]: lengths[i] entries of
  // key_words() + 1 words; in total at most slab_records()). The segments are
  // read before this returns. At most two slabs may be submitted and not yet
  // taken.
  void submit(const std::uint64_t* const* segments, const std::uint64_t* lengths, std::size_t k);
  // Waits for the oldest slab submitted and not yet taken and returns its
  // merged entries (count of them), in pinned memory that stays valid, and
  // writable, until the next submit().
  std::uint64_t* take(std::uint64_t& count);

  SlabMergeTimes times() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace corank::gpu
