// Run formation on the GPU: sorts chunks of fixed-size records into entries of
// (normalized key words, position), the layout of src's KeyEntry<W>.
//
// Two slots, each with pinned staging, a stream, device buffers and events,
// alternate between chunks: while the GPU sorts chunk i on one stream, chunk
// i+1 is staged and copied in on the other, and chunk i-1's entries are copied
// out of its staging. Per chunk on the GPU: H2D of the records, key
// extraction, CUB radix sort of (key, index) over the key's bits only, entry
// assembly (pos = pos_base + index), D2H. The sort is stable and indices start
// in order, so equal keys keep their input order, as (key, pos) demands.
//
// Plain C++ header (no CUB, no kernels), so host-only C++20 code can use it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "corank/gpu/key_layout.hpp"

namespace corank::gpu {

struct StageTimes {
  double h2d_ms = 0, sort_ms = 0, d2h_ms = 0;  // summed over chunks, from CUDA events
  // Union of the chunks' [copy in, copy out] intervals: the wall time with GPU
  // work in flight (see busy_time.hpp). Less than the sum above by what the
  // two slots overlapped.
  double busy_ms = 0;
  double h2d_bytes = 0, d2h_bytes = 0;
};

class RunSorter {
 public:
  // Copies between pageable and pinned host memory; the caller may spread it
  // over threads. Default: std::memcpy.
  using HostCopy = std::function<void(void* dst, const void* src, std::size_t bytes)>;

  // Sizes both slots for chunks of at most max_chunk_records, fewer when the
  // buffers would not fit in device_budget bytes (0: 85% of the free device
  // memory). layout.key_words() must be 1 or 2. Throws CudaError.
  RunSorter(const KeyLayout& layout, std::uint64_t max_chunk_records, std::uint64_t device_budget,
            HostCopy copy = {});
  ~RunSorter();
  RunSorter(const RunSorter&) = delete;
  RunSorter& operator=(const RunSorter&) = delete;

  std::uint64_t chunk_records() const noexcept;
  unsigned key_words() const noexcept;
  // Device bytes held by both slots.
  std::uint64_t device_bytes() const noexcept;

  // Sorts the n <= chunk_records() records at `records` (pageable; read before
  // this returns) into n entries of key_words() + 1 words at `out`, written by
  // the time a later submit reuses this slot or finish() returns.
  void submit(const std::byte* records, std::uint64_t n, std::uint64_t pos_base, std::uint64_t* out);
  // Waits for every submitted chunk and delivers its entries.
  void finish();

  StageTimes times() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace corank::gpu
