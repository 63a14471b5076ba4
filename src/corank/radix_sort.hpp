#pragma once
// Parallel MSD radix sort of normalized keys on the CPU threads: plain 64-bit
// words (the words-only sort) and KeyEntry<W> (key words, then position).
//
// Normalized keys are unsigned words compared most significant bit first, so
// they sort by their digits: one histogram pass and one stable scatter per
// digit (8 bits; 11 at the top of large inputs), from the most significant
// on, recursing into each bucket; a digit on which every key of a bucket
// agrees is skipped without a scatter, and a bucket of at most kSmallBucket
// keys is finished by insertion sort. Each scatter
// moves the data between the array and a scratch array of the same size, so
// the sort is out of place and stable: keys in input order stay in input
// order, which is the (key, position) order KeyEntry promises when entries
// were made in position order. The top levels scatter with every thread
// (each thread a contiguous block, its own histogram); below them, buckets are
// handed out to the threads largest first.
//
// Written here rather than taken from a library: Boost.Sort's spreadsort is
// serial and unstable, and its parallel sorts compare; what the sort needs is
// a stable, parallel, out-of-place radix sort over our own entry type.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "corank/io/fresh_pages.hpp"
#include "corank/key_entry.hpp"
#include "corank/parallel.hpp"

namespace corank {

namespace radix_detail {

// Digits are `width` bits of the key from bit `bit` on, bit 0 the most
// significant bit of the first key word; a digit never spans two words.
template <class T>
struct KeyBits;

template <>
struct KeyBits<std::uint64_t> {
  static constexpr unsigned kBits = 64;
  static unsigned digit(const std::uint64_t& v, unsigned bit, unsigned width) noexcept {
    return static_cast<unsigned>((v << bit) >> (64 - width));
  }
  static bool less(const std::uint64_t& a, const std::uint64_t& b) noexcept { return a < b; }
};

template <unsigned W>
struct KeyBits<KeyEntry<W>> {
  static constexpr unsigned kBits = 64 * W;
  static unsigned digit(const KeyEntry<W>& e, unsigned bit, unsigned width) noexcept {
    return static_cast<unsigned>((e.key[bit / 64] << (bit % 64)) >> (64 - width));
  }
  static bool less(const KeyEntry<W>& a, const KeyEntry<W>& b) noexcept { return key_less(a, b); }
};

// The digit width from `bit` on: `want` bits, fewer at the end of a word.
inline unsigned width_at(unsigned bit, unsigned want) noexcept { return std::min(want, 64 - bit % 64); }

// Buckets no larger than this are finished by insertion sort (stable, and
// faster than another histogram of 256 counters for a handful of keys).
inline constexpr std::uint64_t kSmallBucket = 48;
// Below this many elements a level runs on one thread.
inline constexpr std::uint64_t kParallelLevel = std::uint64_t{1} << 17;
// Serial levels take 8-bit digits. Parallel levels of at least kWideLevel
// elements on at least kWideThreads threads take 11-bit ones: 2048 buckets,
// so that the buckets the threads then sort alone fit their caches one level
// sooner. Measured (BENCHMARKS.md): 10^9 words on 16 threads 3.1-3.5 s
// against 4.5-5.5 s with 8-bit digits; 10^8 on 2 threads 1.1-1.3 s against
// 0.8-1.0 s, the 2048-way scatter costing more than it saves there.
inline constexpr unsigned kDigitBits = 8;
inline constexpr unsigned kWideDigitBits = 11;
inline constexpr std::uint64_t kWideLevel = std::uint64_t{1} << 24;
inline constexpr unsigned kWideThreads = 8;

using Counts = std::array<std::uint64_t, 256>;

// Sorts data[0, n) serially; the result ends in data when !into_other, else in
// other. `other` is scratch of n elements.
template <class T>
void sort_serial(T* data, T* other, std::uint64_t n, unsigned bit, bool into_other) {
  using K = KeyBits<T>;
  for (;;) {
    if (n <= kSmallBucket || bit >= K::kBits) {
      // Keys are equal from `bit` on once it passes the last one: the order
      // is already the stable one.
      if (bit < K::kBits)
        for (std::uint64_t i = 1; i < n; ++i) {
          T v = data[i];
          std::uint64_t j = i;
          for (; j > 0 && K::less(v, data[j - 1]); --j) data[j] = data[j - 1];
          data[j] = v;
        }
      if (into_other) std::memcpy(static_cast<void*>(other), data, n * sizeof(T));
      return;
    }
    const unsigned width = width_at(bit, kDigitBits);
    const unsigned digits = 1u << width;
    Counts count{};
    for (std::uint64_t i = 0; i < n; ++i) ++count[K::digit(data[i], bit, width)];
    if (std::find(count.begin(), count.begin() + digits, n) != count.begin() + digits) {
      bit += width;  // every key agrees on this digit
      continue;
    }
    Counts start{};
    for (unsigned d = 1; d < digits; ++d) start[d] = start[d - 1] + count[d - 1];
    Counts at = start;
    for (std::uint64_t i = 0; i < n; ++i) other[at[K::digit(data[i], bit, width)]++] = data[i];
    for (unsigned d = 0; d < digits; ++d)
      if (count[d]) sort_serial(other + start[d], data + start[d], count[d], bit + width, !into_other);
    return;
  }
}

// One level on `threads` threads: histogram and stable scatter of data into
// other by the digit at `bit`; returns the bucket sizes (all n in one bucket:
// nothing moved).
template <class T>
std::vector<std::uint64_t> scatter_parallel(const T* data, T* other, std::uint64_t n, unsigned bit, unsigned width,
                                            unsigned threads) {
  using K = KeyBits<T>;
  const unsigned digits = 1u << width;
  std::vector<std::uint64_t> count(std::size_t{threads} * digits, 0);
  parallel_for(threads, [&](unsigned t) {
    std::uint64_t* c = count.data() + std::size_t{t} * digits;
    const std::uint64_t b = n * t / threads, e = n * (t + 1) / threads;
    // `other` is written whole below: its pages in one call a thread where
    // that pays (io/fresh_pages.hpp).
    io::populate_for_writing(other + b, (e - b) * sizeof(T));
    for (std::uint64_t i = b; i < e; ++i) ++c[K::digit(data[i], bit, width)];
  });
  std::vector<std::uint64_t> total(digits, 0);
  for (unsigned t = 0; t < threads; ++t)
    for (unsigned d = 0; d < digits; ++d) total[d] += count[std::size_t{t} * digits + d];
  if (std::find(total.begin(), total.end(), n) != total.end()) return total;
  // Thread t's keys of digit d go after every digit below d and after the
  // digit-d keys of threads before t: stable. `count` becomes the offsets.
  std::uint64_t sum = 0;
  for (unsigned d = 0; d < digits; ++d)
    for (unsigned t = 0; t < threads; ++t) {
      std::uint64_t& c = count[std::size_t{t} * digits + d];
      const std::uint64_t k = c;
      c = sum;
      sum += k;
    }
  parallel_for(threads, [&](unsigned t) {
    std::uint64_t* a = count.data() + std::size_t{t} * digits;
    for (std::uint64_t i = n * t / threads, e = n * (t + 1) / threads; i < e; ++i)
      other[a[K::digit(data[i], bit, width)]++] = data[i];
  });
  return total;
}

template <class T>
void sort_parallel(T* data, T* other, std::uint64_t n, unsigned bit, bool into_other, unsigned threads,
                   std::uint64_t wide_level) {
  using K = KeyBits<T>;
  while (bit < K::kBits && n >= kParallelLevel && threads > 1) {
    const unsigned width = width_at(bit, n >= wide_level && threads >= kWideThreads ? kWideDigitBits : kDigitBits);
    const std::vector<std::uint64_t> count = scatter_parallel(data, other, n, bit, width, threads);
    if (std::find(count.begin(), count.end(), n) != count.end()) {
      bit += width;
      continue;
    }
    // The data is in `other` now. Buckets larger than a thread's share recurse
    // with every thread; the rest go to the threads, largest first.
    struct Bucket {
      std::uint64_t begin, size;
    };
    std::vector<Bucket> big, small;
    std::uint64_t begin = 0;
    for (const std::uint64_t c : count) {
      if (c) (c > n / threads && c >= kParallelLevel ? big : small).push_back({begin, c});
      begin += c;
    }
    for (const Bucket& b : big)
      sort_parallel(other + b.begin, data + b.begin, b.size, bit + width, !into_other, threads, wide_level);
    std::sort(small.begin(), small.end(), [](const Bucket& x, const Bucket& y) { return x.size > y.size; });
    std::atomic<std::size_t> next{0};
    parallel_for(threads, [&](unsigned) {
      for (std::size_t i; (i = next.fetch_add(1)) < small.size();)
        sort_serial(other + small[i].begin, data + small[i].begin, small[i].size, bit + width, !into_other);
    });
    return;
  }
  sort_serial(data, other, n, bit, into_other);
}

}  // namespace radix_detail

// Sorts data[0, n) by key, stably, on `threads` threads; `scratch` holds n
// elements and is overwritten. For KeyEntry<W> made in position order the
// result is in (key, position) order. `wide_level` (tests lower it) is the
// least level size sorted by 11-bit digits (on kWideThreads threads or more).
template <class T>
void radix_sort(T* data, T* scratch, std::uint64_t n, unsigned threads,
                std::uint64_t wide_level = radix_detail::kWideLevel) {
  threads = std::max(1u, threads);
  radix_detail::sort_parallel(data, scratch, n, 0, false, threads, wide_level);
}

}  // namespace corank
