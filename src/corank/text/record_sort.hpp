#pragma once
// Sorting a chunk's records on all threads: each thread sorts a slice, then
// the output is cut into one range per thread by the k-way co-rank and each
// thread merges its range. A chunk's order is (prefix, full comparison, input
// position), a strict total order, so the result is the stable sort whatever
// the thread count: chunk_sort.cpp sorts by (prefix, position) here, then
// puts the runs of tied prefixes in the full order (tied_records.hpp).
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "corank/kway_co_rank.hpp"
#include "corank/kway_merge.hpp"
#include "corank/parallel.hpp"
#include "corank/text/chunk_reader.hpp"

namespace corank::text {

struct EntryLess {
  const TextFormat* format;
  const Chunk* chunk;  // the records'
  bool operator()(const RecordEntry& a, const RecordEntry& b) const {
    if (!(a.prefix == b.prefix)) return a.prefix < b.prefix;
    const int c = format->compare_tied(chunk->record(a), chunk->record(b));
    if (c) return c < 0;
    return a.offset < b.offset;
  }
};

// The order of prefixes alone, then input position: the first step of a
// chunk's sort, whose runs of tied prefixes settle_ties then puts in
// EntryLess's order (tied_records.hpp).
struct PrefixLess {
  bool operator()(const RecordEntry& a, const RecordEntry& b) const noexcept {
    if (!(a.prefix == b.prefix)) return a.prefix < b.prefix;
    return a.offset < b.offset;
  }
};

// Merges the sorted slices v[bounds[i], bounds[i + 1]) into one sorted
// sequence on `threads` threads: the output is cut into one range per thread
// by the k-way co-rank and each thread merges its range into scratch (resized),
// which is then swapped with v.
template <class Vec, class Less>
void merge_sorted_slices(Vec& v, Vec& scratch, const std::vector<std::uint64_t>& bounds, const Less& less,
                         unsigned threads) {
  using T = std::remove_cvref_t<decltype(v[0])>;
  const std::uint64_t n = v.size();
  const std::size_t k = bounds.size() - 1;
  std::vector<std::span<const T>> slices(k);
  for (std::size_t i = 0; i < k; ++i) slices[i] = std::span<const T>(v.data() + bounds[i], bounds[i + 1] - bounds[i]);
  const unsigned parts = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 8192)));
  scratch.resize(n);
  const std::span<const std::span<const T>> seqs(slices);
  std::vector<std::vector<std::uint64_t>> cuts(parts + 1);
  parallel_for(parts + 1, [&](unsigned t) { cuts[t] = kway_co_rank(seqs, n * t / parts, less); });
  parallel_for(parts, [&](unsigned t) {
    std::vector<std::span<const T>> part(k);
    for (std::size_t i = 0; i < k; ++i) part[i] = slices[i].subspan(cuts[t][i], cuts[t + 1][i] - cuts[t][i]);
    merge_kway_with(std::span<const std::span<const T>>(part), scratch.data() + n * t / parts, less);
  });
  v.swap(scratch);
}

// Sorts v by `less` on `threads` threads: each thread sorts a slice, then the
// slices are merged; scratch is resized and used as the merge target.
template <class Vec, class Less>
void parallel_sort(Vec& v, Vec& scratch, const Less& less, unsigned threads) {
  const std::uint64_t n = v.size();
  const unsigned parts = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 8192)));
  if (parts == 1) {
    std::sort(v.begin(), v.end(), less);
    return;
  }
  std::vector<std::uint64_t> bounds(parts + 1);
  for (unsigned p = 0; p <= parts; ++p) bounds[p] = n * p / parts;
  parallel_for(parts, [&](unsigned p) {
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(bounds[p]), v.begin() + static_cast<std::ptrdiff_t>(bounds[p + 1]),
              less);
  });
  merge_sorted_slices(v, scratch, bounds, less, threads);
}

}  // namespace corank::text
