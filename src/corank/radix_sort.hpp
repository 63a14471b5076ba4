#pragma once
// Parallel MSD radix sort of normalized keys on the CPU threads: plain 64-bit
// words (the words-only sort) and KeyEntry<W> (key words, then position).
//
// Normalized keys are unsigned words compared most significant byte first,
// so they sort by their bytes: one histogram pass and one stable scatter per
// byte, from the most significant on, recursing into each bucket; a byte on
// which every key of a bucket agrees is skipped without a scatter, and a
// bucket of at most kSmallBucket keys is finished by insertion sort. Each scatter
// moves the data between the array and a scratch array of the same size, so
// the sort is out of place and stable: keys in input order stay in input
// order, which is the (key, position) order KeyEntry promises when entries
// were made in position order. The top levels scatter with every thread
// (each thread a contiguous block, its own histogram); below them, buckets are
// handed out to the threads largest first.
//
// Written here rather than taken from a library: Boost.Sort's spreadsort is
// serial and unstable, and its parallel sorts compare; what the sort needs is
// a stable, parallel, out-of-place byte radix over our own entry type.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "corank/key_entry.hpp"
#include "corank/parallel.hpp"

namespace corank {

namespace radix_detail {

// Byte `b` of a key, 0 the most significant byte of its first word.
inline unsigned byte_of(std::uint64_t w, unsigned b) noexcept { return static_cast<unsigned>(w >> (56 - 8 * b)) & 0xff; }

template <class T>
struct KeyBytes;

template <>
struct KeyBytes<std::uint64_t> {
  static constexpr unsigned kBytes = 8;
  static unsigned at(const std::uint64_t& v, unsigned b) noexcept { return byte_of(v, b); }
  static bool less(const std::uint64_t& a, const std::uint64_t& b) noexcept { return a < b; }
};

template <unsigned W>
struct KeyBytes<KeyEntry<W>> {
  static constexpr unsigned kBytes = 8 * W;
  static unsigned at(const KeyEntry<W>& e, unsigned b) noexcept { return byte_of(e.key[b / 8], b % 8); }
  static bool less(const KeyEntry<W>& a, const KeyEntry<W>& b) noexcept { return key_less(a, b); }
};

// Buckets no larger than this are finished by insertion sort (stable, and
// faster than another histogram of 256 counters for a handful of keys).
inline constexpr std::uint64_t kSmallBucket = 48;
// Below this many elements a level runs on one thread.
inline constexpr std::uint64_t kParallelLevel = std::uint64_t{1} << 17;

using Counts = std::array<std::uint64_t, 256>;

// Sorts data[0, n) serially; the result ends in data when !into_other, else in
// other. `other` is scratch of n elements.
template <class T>
void sort_serial(T* data, T* other, std::uint64_t n, unsigned byte, bool into_other) {
  using K = KeyBytes<T>;
  for (;;) {
    if (n <= kSmallBucket || byte >= K::kBytes) {
      // Keys are equal from `byte` on once it passes the last one: the order
      // is already the stable one.
      if (byte < K::kBytes)
        for (std::uint64_t i = 1; i < n; ++i) {
          T v = data[i];
          std::uint64_t j = i;
          for (; j > 0 && K::less(v, data[j - 1]); --j) data[j] = data[j - 1];
          data[j] = v;
        }
      if (into_other) std::memcpy(static_cast<void*>(other), data, n * sizeof(T));
      return;
    }
    Counts count{};
    for (std::uint64_t i = 0; i < n; ++i) ++count[K::at(data[i], byte)];
    if (std::find(count.begin(), count.end(), n) != count.end()) {
      ++byte;  // every key agrees on this byte
      continue;
    }
    Counts start{};
    for (unsigned d = 1; d < 256; ++d) start[d] = start[d - 1] + count[d - 1];
    Counts at = start;
    for (std::uint64_t i = 0; i < n; ++i) other[at[K::at(data[i], byte)]++] = data[i];
    for (unsigned d = 0; d < 256; ++d)
      if (count[d]) sort_serial(other + start[d], data + start[d], count[d], byte + 1, !into_other);
    return;
  }
}

// One level on `threads` threads: histogram and stable scatter of data into
// other by `byte`; returns the bucket sizes (all n in one bucket: nothing moved).
template <class T>
Counts scatter_parallel(const T* data, T* other, std::uint64_t n, unsigned byte, unsigned threads) {
  using K = KeyBytes<T>;
  std::vector<Counts> count(threads);
  parallel_for(threads, [&](unsigned t) {
    Counts c{};
    for (std::uint64_t i = n * t / threads, e = n * (t + 1) / threads; i < e; ++i) ++c[K::at(data[i], byte)];
    count[t] = c;
  });
  Counts total{};
  for (const auto& c : count)
    for (unsigned d = 0; d < 256; ++d) total[d] += c[d];
  if (std::find(total.begin(), total.end(), n) != total.end()) return total;
  // Thread t's keys of digit d go after every digit below d and after the
  // digit-d keys of threads before t: stable.
  std::vector<Counts> at(threads);
  std::uint64_t sum = 0;
  for (unsigned d = 0; d < 256; ++d)
    for (unsigned t = 0; t < threads; ++t) {
      at[t][d] = sum;
      sum += count[t][d];
    }
  parallel_for(threads, [&](unsigned t) {
    Counts& a = at[t];
    for (std::uint64_t i = n * t / threads, e = n * (t + 1) / threads; i < e; ++i) other[a[K::at(data[i], byte)]++] = data[i];
  });
  return total;
}

template <class T>
void sort_parallel(T* data, T* other, std::uint64_t n, unsigned byte, bool into_other, unsigned threads) {
  using K = KeyBytes<T>;
  while (byte < K::kBytes && n >= kParallelLevel && threads > 1) {
    const Counts count = scatter_parallel(data, other, n, byte, threads);
    if (std::find(count.begin(), count.end(), n) != count.end()) {
      ++byte;
      continue;
    }
    // The data is in `other` now. Buckets larger than a thread's share recurse
    // with every thread; the rest go to the threads, largest first.
    struct Bucket {
      std::uint64_t begin, size;
    };
    std::vector<Bucket> big, small;
    std::uint64_t begin = 0;
    for (unsigned d = 0; d < 256; ++d) {
      if (count[d]) (count[d] > n / threads && count[d] >= kParallelLevel ? big : small).push_back({begin, count[d]});
      begin += count[d];
    }
    for (const Bucket& b : big)
      sort_parallel(other + b.begin, data + b.begin, b.size, byte + 1, !into_other, threads);
    std::sort(small.begin(), small.end(), [](const Bucket& x, const Bucket& y) { return x.size > y.size; });
    std::atomic<std::size_t> next{0};
    parallel_for(threads, [&](unsigned) {
      for (std::size_t i; (i = next.fetch_add(1)) < small.size();)
        sort_serial(other + small[i].begin, data + small[i].begin, small[i].size, byte + 1, !into_other);
    });
    return;
  }
  sort_serial(data, other, n, byte, into_other);
}

}  // namespace radix_detail

// Sorts data[0, n) by key bytes, stably, on `threads` threads; `scratch` holds
// n elements and is overwritten. For KeyEntry<W> made in position order the
// result is in (key, position) order.
template <class T>
void radix_sort(T* data, T* scratch, std::uint64_t n, unsigned threads) {
  threads = std::max(1u, threads);
  radix_detail::sort_parallel(data, scratch, n, 0, false, threads);
}

}  // namespace corank
