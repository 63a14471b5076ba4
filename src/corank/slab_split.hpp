#pragma once
// Merging sorted runs slab by slab between sampled keys, for runs that are
// not all in memory (spilled by the CPU sort, or held for the device). Each
// run keeps the entry of every stride-th record (samples[t] is record
// t * stride's), in (key, position) order. Boundaries chosen among all
// samples cut every run; where a boundary falls in a run, the samples leave
// a stretch of fewer than stride records to read and search.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace corank {

// Every m-th sample in merged order, m = slab_records / stride - k (at least
// 1) for k runs. Between two boundaries each run holds at most (its samples
// in between + 1) * stride records, so a slab never exceeds (m + k) * stride
// records: at most slab_records where slab_records / stride exceeds k.
// `samples_of(run)` gives a run's samples.
template <class E, class Run, class SamplesOf>
std::vector<E> slab_boundaries(std::span<const Run> runs, SamplesOf samples_of, std::uint64_t slab_records,
                               std::uint64_t stride) {
  std::vector<E> all;
  for (const Run& r : runs) {
    const std::vector<E>& s = samples_of(r);
    all.insert(all.end(), s.begin(), s.end());
  }
  std::sort(all.begin(), all.end());
  const std::uint64_t per_slab = slab_records / stride, k = runs.size();
  const std::uint64_t m = per_slab > k ? per_slab - k : 1;
  std::vector<E> boundaries;
  for (std::uint64_t i = m; i < all.size(); i += m) boundaries.push_back(all[i]);
  return boundaries;
}

// Where a run of `count` records splits at v: its records [first, last) are
// to be read and searched for the first not below v. Where first >= last the
// split is `first`, without a read. `lo` is the split at the previous
// (lower) boundary.
struct Stretch {
  std::uint64_t first, last;
};

template <class E>
Stretch split_stretch(const std::vector<E>& samples, const E& v, std::uint64_t stride, std::uint64_t count,
                      std::uint64_t lo) {
  const auto t = static_cast<std::uint64_t>(std::lower_bound(samples.begin(), samples.end(), v) - samples.begin());
  if (t == 0) return {lo, lo};  // the run's first record is not below v
  // Record (t - 1) * stride is below v, record t * stride (if any) is not.
  return {std::max((t - 1) * stride + 1, lo), std::min(t * stride, count)};
}

// Walks the slabs of k runs in order: each next() cuts the next slab, run
// i's records [lo()[i], hi()[i]), split(i, v, lo) giving where run i splits
// at boundary v (at least lo); the last slab runs to every run's end.
//
//   SlabCut<E> cut(boundaries, counts);
//   while (!cut.done()) { std::uint64_t n = cut.next(split); ... cut.lo(), cut.hi() ... }
// (next(split, each) splits the runs at once where `each` runs them so.)
template <class E>
class SlabCut {
public:
  SlabCut(std::vector<E> boundaries, std::vector<std::uint64_t> counts)
      : boundaries_(std::move(boundaries)), counts_(std::move(counts)), lo_(counts_.size(), 0), hi_(lo_) {}

  std::size_t slabs() const noexcept { return boundaries_.size() + 1; }
  bool done() const noexcept { return next_ == slabs(); }

  // Cuts the next slab; returns its records. each(k, f) runs f(0) .. f(k-1)
  // one after another or at once: different runs split independently.
  template <class Split, class Each>
  std::uint64_t next(Split&& split, Each&& each) {
    lo_ = hi_;
    if (next_ < boundaries_.size()) {
      const E& v = boundaries_[next_];
      each(counts_.size(), [&](std::size_t i) { hi_[i] = split(i, v, lo_[i]); });
    } else {
      hi_ = counts_;
    }
    ++next_;
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) n += hi_[i] - lo_[i];
    return n;
  }
  template <class Split>
  std::uint64_t next(Split&& split) {
    return next(split, [](std::size_t k, auto&& f) {
      for (std::size_t i = 0; i < k; ++i) f(i);
    });
  }
  const std::vector<std::uint64_t>& lo() const noexcept { return lo_; }
  const std::vector<std::uint64_t>& hi() const noexcept { return hi_; }

private:
  std::vector<E> boundaries_;
  std::vector<std::uint64_t> counts_, lo_, hi_;
  std::size_t next_ = 0;
};

}  // namespace corank
