// Sorting fixed-width key prefixes of variable-length records (text lines) on
// the GPU: the keys are W = 4 64-bit words each, compared as one 256-bit
// unsigned number with word 0 most significant, and the result is the stable
// order, order[i] = the index of the i-th smallest key. Records whose keys tie
// are left in input order for the caller to settle with a full comparison.
//
// Per sort: the caller's pack() writes the keys piece by piece into two pinned
// staging buffers that alternate, each copied in while the next is packed;
// then an index sequence, a CUB radix sort of (key, index) over the low
// key_bits bits only (the caller knows the higher ones equal in every key),
// and the indices copied out. Device buffers are allocated per sort and freed
// after it.
//
// Plain C++ header (no CUB, no kernels), so host-only C++20 code can use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace corank::gpu {

struct PrefixSortTimes {
  double h2d_ms = 0, sort_ms = 0, d2h_ms = 0;  // summed over sorts, from CUDA events
  double h2d_bytes = 0, d2h_bytes = 0;
};

class PrefixSorter {
 public:
  static constexpr unsigned kWords = 4;
  // pack(first, count, words) writes keys [first, first + count) to words,
  // kWords each; it may spread the work over threads.
  using Pack = std::function<void(std::uint64_t first, std::uint64_t count, std::uint64_t* words)>;

  // device_budget: bytes of device memory one sort may take (0: 85% of the
  // free memory now). Starts the CUDA context and allocates the pinned
  // staging. Throws CudaError.
  explicit PrefixSorter(std::uint64_t device_budget);
  ~PrefixSorter();
  PrefixSorter(const PrefixSorter&) = delete;
  PrefixSorter& operator=(const PrefixSorter&) = delete;

  // The most keys one sort() takes (indices are 32-bit, and the budget bounds it).
  std::uint64_t max_records() const noexcept;
  // Sorts keys [0, n), n <= max_records(), writing their stable order to
  // order[0, n). key_bits in [0, 256]: the low bits that may differ.
  void sort(std::uint64_t n, const Pack& pack, unsigned key_bits, std::uint32_t* order);

  PrefixSortTimes times() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace corank::gpu
