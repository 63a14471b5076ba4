// Sorting an array of u64 keys in host RAM that may be far larger than the
// GPU's memory. Only the keys cross PCIe (no (key, index) pairs, no gather),
// straight from and to the caller's arrays: both are page-locked in place with
// cudaHostRegister for the duration of the call (and unregistered on every
// path), so there is no staging copy. If registration fails the call throws
// CudaError("cudaHostRegister failed: ..."); there is no pageable fallback.
//
// Plan, from the device budget B:
// - one pass, when the keys, a second buffer and temporary storage fit in B.
//   One round trip; out may equal data. With at least 2 * 2^24 keys, in runs
//   (2 to 16 of at least 2^24 keys): run i+1 is copied in on one stream while
//   run i is radix-sorted on the other, then the runs are merged on the device
//   pairwise (corank::gpu::merge) and copied out once, so the sort hides
//   behind the copy in. Fewer keys: H2D, cub::DeviceRadixSort::SortKeys
//   (DoubleBuffer), D2H into out.
// - otherwise two passes, each key crossing PCIe twice each way:
//   run formation: chunks of L keys are copied in, radix-sorted, and copied
//   back IN PLACE into data, each one a sorted run (L: what the budget
//   allows, but no more than n/16 while that is over 2^24 keys, since a pass
//   pays about 1/k for its unoverlapped first copy in and last copy out);
//   merge: the output is cut into slabs of L keys by a k-way co-rank over the
//   k runs on the host (u64_co_rank.hpp); a slab's k segments are copied in
//   back to back, merged pairwise in ceil(log2 k) rounds with
//   corank::gpu::merge (keys only, ping-ponging two device buffers) and copied
//   out into out at the slab's offset. out must not overlap data.
//
// Both passes run three slots round robin, each a stream with two device
// buffers of L keys and a temporary area: slot work is stream-ordered, so
// chunk (slab) i+1's H2D overlaps chunk i's sort and chunk i-1's D2H, the two
// copy directions run at once, and a slot's buffers are reused only after its
// last D2H (same stream; the host also waits on that slot's last event
// before reusing it, to read its timings). Two slots would not do: chunk
// i+1 would wait for chunk i-1's D2H to free its buffers.
//
// Plain C++ header (no CUB, no kernels), so host-only C++20 code can use it.
#pragma once

#include <cstdint>

namespace corank::gpu {

struct HostSortPlan {
  std::uint64_t n = 0;
  std::uint64_t device_budget = 0;  // bytes, after resolving 0
  bool one_pass = true;
  std::uint64_t chunk_keys = 0;  // keys per run (n for a one-pass sort in one run)
  std::uint64_t slab_keys = 0;   // keys per merge slab (one pass: 0)
  std::uint64_t runs = 0, slabs = 0, round_trips = 0;
  std::uint64_t device_bytes = 0;  // device memory the sort allocates
};

struct HostSortTimes {
  double register_s = 0;         // cudaHostRegister + cudaHostUnregister, wall clock
  double run_formation_s = 0;    // one pass: the whole H2D, sort, merge, D2H
  double merge_s = 0;            // co-rank partition included
  double total_s = 0;            // everything, registration included
  std::uint64_t runs = 0, slabs = 0, round_trips = 0;
  double h2d_bytes = 0, d2h_bytes = 0;
  // CUDA-event stage times summed over chunks and slabs; a stage's time
  // includes any wait for the copy engine, so the sums can exceed wall time.
  double h2d_ms = 0, gpu_ms = 0, d2h_ms = 0;
};

// The plan sort_host_u64 follows for n keys (device_budget 0: 85% of the
// device's free memory now). Throws CudaError when the budget holds no chunk.
HostSortPlan plan_host_sort_u64(std::uint64_t n, std::uint64_t device_budget = 0);

// Sorts data[0, n) ascending into out[0, n). data is overwritten with sorted
// runs when the plan takes two passes; out may equal data only in one pass,
// and must not otherwise overlap it. Uses the current device; returns once
// out is complete. Throws CudaError (out and data then hold unspecified
// contents, and no DMA is in flight).
HostSortTimes sort_host_u64(std::uint64_t* data, std::uint64_t* out, std::uint64_t n,
                            std::uint64_t device_budget = 0);

}  // namespace corank::gpu
