// The one host-device transfer pipeline: a ring of page-locked slots that
// every GPU entry point moves its bytes through.
//
// The slots are allocated once (cudaMallocHost) and live as long as the ring;
// no caller memory is ever page-locked. A transfer is cut into pieces of at
// most one slot, each a whole number of `unit` bytes (a record):
//
//   upload:   for each piece, the caller's fill() writes it into a free slot
//             on the host (with as many threads as it likes), then the slot
//             is copied to the device asynchronously; fill() of the next
//             piece runs while that copy is in flight.
//   download: the first pieces are copied out into all slots at once; the
//             caller's drain() consumes each in order as its copy completes,
//             and the slot it freed takes the next piece, so copies stay in
//             flight while the host drains.
//
// Everything runs on the ring's one stream, so work the caller enqueues there
// (kernels between an upload and a download) is ordered with the copies.
// Copy times come from CUDA events around each piece; `busy` is the union of
// every interval the ring or the caller marked (busy_time.hpp). The
// destructor waits for whatever is still in flight (drain on destroy) and
// never throws.
//
// Plain C++ header (no kernels), so host-only C++20 code can use it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace corank::gpu {

struct TransferTimes {
  double h2d_ms = 0, d2h_ms = 0;      // summed over pieces, from CUDA events
  double h2d_bytes = 0, d2h_bytes = 0;
  double busy_ms = 0;                 // union of the copies' and the marked intervals
  double alloc_ms = 0;                // page-locked allocation of the slots, wall clock
};

class TransferRing {
 public:
  // fill(dst, offset, max): writes up to max bytes of the transfer, from byte
  // `offset` of it, to dst; returns the bytes written, a multiple of the unit.
  // Fewer than max ends the transfer.
  using Fill = std::function<std::size_t(std::byte* dst, std::uint64_t offset, std::size_t max)>;
  // drain(src, offset, bytes): bytes [offset, offset + bytes) of the transfer.
  using Drain = std::function<void(const std::byte* src, std::uint64_t offset, std::size_t bytes)>;

  // `slots` slots (at least 2) of slot_bytes each. Throws CudaError.
  TransferRing(std::size_t slot_bytes, unsigned slots);
  ~TransferRing();
  TransferRing(const TransferRing&) = delete;
  TransferRing& operator=(const TransferRing&) = delete;

  std::size_t slot_bytes() const noexcept;
  unsigned slots() const noexcept;
  std::uint64_t pinned_bytes() const noexcept;
  cudaStream_t stream() const noexcept;

  // Copies up to max_bytes to d_dst, piece by piece as fill() provides them;
  // returns the bytes uploaded. The copies are enqueued on stream() and may
  // still be in flight on return.
  std::uint64_t upload(std::byte* d_dst, std::uint64_t max_bytes, std::size_t unit, const Fill& fill);
  // Copies `bytes` from d_src (after the work enqueued on stream() so far)
  // and hands every piece to drain(), in order; returns once all are drained.
  std::uint64_t download(const std::byte* d_src, std::uint64_t bytes, std::size_t unit, const Drain& drain);

  // Marks the work enqueued between begin_mark() and end_mark() as busy time,
  // and returns its milliseconds once synchronize() has run (see times()).
  // The interval is on stream() unless `on` names another stream (a caller's
  // side stream, whose work the ring's stream waits for before synchronize()).
  void begin_mark(cudaStream_t on = nullptr);
  // Records the end of the marked interval; `into` accumulates its length.
  void end_mark(double* into_ms, cudaStream_t on = nullptr);
  // Waits for everything enqueued on stream(); throws CudaError.
  void synchronize();

  // Stage times so far (pieces whose copies completed, marks synchronized).
  TransferTimes times() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace corank::gpu
