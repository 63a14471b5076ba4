// k-way co-rank for plain sorted u64 runs, duplicates allowed: for a rank r,
// the split s (sum(s) == r) such that the first s[i] keys of every run i are r
// smallest keys of the union. Used by the host-array sort to cut its output
// into slabs, each merged on the GPU from k run segments.
//
// Equal u64 keys are interchangeable, so any split works for one rank; but
// slabs need splits that never go backwards as the rank grows. This one is the
// unique split under the total order (key, run, position): with v the r-th
// smallest key, every run gives all its keys < v, and the r - #(< v) copies of
// v still missing are taken from the runs in order. Finding v bisects the key
// range: at most 64 rounds of k binary searches, whatever the duplicates.
//
// Plain C++17 (no CUDA, no std::span: nvcc compiles gpu/ as C++17), so
// host-only code and tests can use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace corank::gpu {

// One sorted run: size keys at data.
struct U64Run {
  const std::uint64_t* data = nullptr;
  std::uint64_t size = 0;
  const std::uint64_t* begin() const noexcept { return data; }
  const std::uint64_t* end() const noexcept { return data + size; }
};

// Keys < v over all runs (less_equal: keys <= v).
inline std::uint64_t count_keys_below(const U64Run* runs, std::size_t k, std::uint64_t v, bool less_equal) {
  std::uint64_t c = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const U64Run& r = runs[i];
    c += static_cast<std::uint64_t>((less_equal ? std::upper_bound(r.begin(), r.end(), v)
                                                : std::lower_bound(r.begin(), r.end(), v)) -
                                    r.begin());
  }
  return c;
}

inline std::vector<std::uint64_t> u64_co_rank(const U64Run* runs, std::size_t k, std::uint64_t rank) {
  std::vector<std::uint64_t> split(k, 0);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < k; ++i) total += runs[i].size;
  if (rank == 0) return split;
  if (rank >= total) {
    for (std::size_t i = 0; i < k; ++i) split[i] = runs[i].size;
    return split;
  }
  // v = the smallest key with #(<= v) >= rank; it lies in [min first, max last].
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (runs[i].size == 0) continue;
    lo = std::min(lo, runs[i].data[0]);
    hi = std::max(hi, runs[i].data[runs[i].size - 1]);
  }
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (count_keys_below(runs, k, mid, true) >= rank)
      hi = mid;
    else
      lo = mid + 1;
  }
  const std::uint64_t v = lo;
  std::uint64_t taken = 0;
  for (std::size_t i = 0; i < k; ++i) {
    split[i] = static_cast<std::uint64_t>(std::lower_bound(runs[i].begin(), runs[i].end(), v) - runs[i].begin());
    taken += split[i];
  }
  for (std::size_t i = 0; i < k && taken < rank; ++i) {
    const auto equal_end =
        static_cast<std::uint64_t>(std::upper_bound(runs[i].begin(), runs[i].end(), v) - runs[i].begin());
    const std::uint64_t more = std::min(equal_end - split[i], rank - taken);
    split[i] += more;
    taken += more;
  }
  return split;
}

// Slab bounds for merging the runs into one output in slabs of at most
// slab_keys keys: bounds[s][i] is where slab s starts in run i, for
// s = 0 .. slabs (the last is every run's end). slab_keys must be > 0.
inline std::vector<std::vector<std::uint64_t>> u64_slab_bounds(const U64Run* runs, std::size_t k,
                                                               std::uint64_t slab_keys) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < k; ++i) total += runs[i].size;
  const std::uint64_t slabs = total == 0 ? 0 : (total + slab_keys - 1) / slab_keys;
  std::vector<std::vector<std::uint64_t>> bounds;
  bounds.reserve(slabs + 1);
  for (std::uint64_t s = 0; s <= slabs; ++s) bounds.push_back(u64_co_rank(runs, k, s == slabs ? total : s * slab_keys));
  return bounds;
}

}  // namespace corank::gpu
