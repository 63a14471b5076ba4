#pragma once
// k-way co-rank (multi-sequence selection): for k sorted sequences and a rank r,
// the split vector s with sum(s) == r such that the first s[i] elements of each
// sequence i are exactly the r smallest elements of their union. With elements
// unique under `less` (KeyEntry's key-then-position order) the split is unique,
// so threads that each take [co_rank(r0), co_rank(r1)) produce disjoint,
// contiguous output ranges. This is the k-way form of Merge Path.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace corank {

// Each round picks the middle element of the widest remaining window as a pivot,
// counts the elements below it in every sequence, and moves either every lower or
// every upper bound to those counts; the widest window at least halves, so the
// loop ends after O(k log n) rounds of k binary searches.
template <class T, class Less = std::less<>>
std::vector<std::uint64_t> kway_co_rank(std::span<const std::span<const T>> seqs, std::uint64_t rank,
                                        Less less = {}) {
  const std::size_t k = seqs.size();
  std::vector<std::uint64_t> lo(k, 0), hi(k), below(k);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < k; ++i) total += hi[i] = seqs[i].size();
  if (rank >= total) return hi;
  if (rank == 0) return lo;
  for (;;) {
    std::size_t widest = 0;
    std::uint64_t width = 0;
    for (std::size_t i = 0; i < k; ++i)
      if (hi[i] - lo[i] > width) width = hi[i] - lo[i], widest = i;
    if (width == 0) return lo;
    const std::uint64_t mid = lo[widest] + width / 2;
    const T& pivot = seqs[widest][mid];
    // Counts are searched only inside the windows [lo, hi] that hold the split.
    // The clamped counts still decide correctly: if the pivot is among the first
    // `rank` elements every clamped count is <= the split and the pivot's own is
    // below it, so the sum is < rank; otherwise every clamped count is >= the
    // split, so the sum is >= rank, with equality only at the split itself.
    std::uint64_t count = 0;
    for (std::size_t i = 0; i < k; ++i) {
      auto first = seqs[i].begin() + static_cast<std::ptrdiff_t>(lo[i]);
      auto last = seqs[i].begin() + static_cast<std::ptrdiff_t>(hi[i]);
      below[i] = static_cast<std::uint64_t>(std::lower_bound(first, last, pivot, less) - seqs[i].begin());
      count += below[i];
    }
    if (count == rank) return below;
    if (count < rank) {
      lo = below;
      lo[widest] = mid + 1;  // the pivot itself is among the first `rank`
    } else {
      hi = below;
    }
  }
}

}  // namespace corank
