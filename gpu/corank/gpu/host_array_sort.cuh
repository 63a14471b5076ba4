// Sorting an array of u64 keys in host RAM that may be far larger than the
// GPU's memory, through the one transfer pipeline (transfer_ring.cuh) and the
// record sorter (record_sorter.cuh) that corank's file sort uses: the keys
// are words-only records of 8 bytes. The caller's arrays stay pageable: each
// piece is copied into a page-locked staging slot (by `copy`, which the
// caller may spread over threads) while the previous one crosses PCIe, and
// out again the same way. Nothing is ever page-locked in place.
//
// Plan, from the device budget B: C = the keys one device sort holds in B.
// - one pass when n <= C: the keys go to the device once, are sorted there
//   and come back into out (which may equal data). A large array goes up as
//   a few runs, each radix-sorted on the device while the next crosses PCIe,
//   and the runs are merged there: only the last run's sort and the merge
//   wait between the two directions;
// - otherwise two passes: runs of C keys are sorted on the device and copied
//   back in place into data; then the output is cut into slabs of C keys by a
//   k-way co-rank over the runs on the host (u64_co_rank.hpp), each slab's k
//   segments go to the device back to back, are merged there (pairwise
//   co-rank merge rounds) and come back into out at the slab's offset. out
//   must not overlap data.
//
// Plain C++ header (no CUB, no kernels), so host-only C++20 code can use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace corank::gpu {

// How a sort stages and splits its work; the defaults suit arrays of GBs
// (measured on the H100 machine: BENCHMARKS.md, host-array sort).
struct HostSortTuning {
  // Page-locked staging: `slots` slots of slot_bytes each, allocated per sort.
  // Small slots cost less to allocate (page-locking runs at a few GB/s) and
  // stay in the host's caches between the copy into them and the DMA out; a
  // slot should still give each of the caller's copy threads a piece.
  std::size_t slot_bytes = std::size_t{16} << 20;
  unsigned slots = 4;
  // A one-pass sort of at least presort_runs * min_run_keys keys is uploaded
  // as presort_runs runs, each sorted while the next uploads.
  unsigned presort_runs = 16;
  std::uint64_t min_run_keys = std::uint64_t{1} << 22;
};

struct HostSortPlan {
  std::uint64_t n = 0;
  std::uint64_t device_budget = 0;  // bytes, as given (0: most of the free memory)
  bool one_pass = true;
  std::uint64_t chunk_keys = 0;  // keys per run (n for a one-pass sort)
  std::uint64_t slab_keys = 0;   // keys per merge slab (one pass: 0)
  std::uint64_t runs = 0, slabs = 0, round_trips = 0;
  // One pass: the runs sorted on the device as they land, then merged (1: one sort).
  std::uint64_t presort_runs = 0;
  std::uint64_t device_bytes = 0;  // device memory the sort allocates
};

struct HostSortTimes {
  double staging_s = 0;        // allocating the page-locked staging slots, wall clock
  double run_formation_s = 0;  // one pass: the whole sort
  double merge_s = 0;          // co-rank partition included
  double total_s = 0;          // everything, staging included
  std::uint64_t runs = 0, slabs = 0, round_trips = 0;
  double h2d_bytes = 0, d2h_bytes = 0;
  // CUDA-event stage times summed over pieces and sorts.
  double h2d_ms = 0, gpu_ms = 0, d2h_ms = 0;
};

// Copies between the caller's memory and staging; default std::memcpy.
using HostCopy = std::function<void(void* dst, const void* src, std::size_t bytes)>;

// The plan sort_host_u64 follows for n keys (device_budget 0: 90% of the
// device's free memory now). Throws CudaError when the budget holds too few keys.
HostSortPlan plan_host_sort_u64(std::uint64_t n, std::uint64_t device_budget = 0, const HostSortTuning& tuning = {});

// Sorts data[0, n) ascending into out[0, n). data is overwritten with sorted
// runs when the plan takes two passes; out may equal data only in one pass,
// and must not otherwise overlap it. Uses the current device; returns once
// out is complete. Throws CudaError (out and data then hold unspecified
// contents, and no copy is in flight).
HostSortTimes sort_host_u64(std::uint64_t* data, std::uint64_t* out, std::uint64_t n,
                            std::uint64_t device_budget = 0, const HostCopy& copy = {},
                            const HostSortTuning& tuning = {});

}  // namespace corank::gpu
