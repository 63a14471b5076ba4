#pragma once
// Run formation on the CPU: normalize every record's key into an entry, radix
// sort the entries on all threads, and gather the records in the entries' order.
#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "corank/io/fresh_pages.hpp"
#include "corank/key_entry.hpp"
#include "corank/normalize.hpp"
#include "corank/parallel.hpp"
#include "corank/radix_sort.hpp"

namespace corank {

// Writes entry j = (key of record j, pos_base + j) for records [first, last).
template <unsigned W>
void normalize_records(const KeyNormalizer& norm, const std::byte* records, std::uint32_t record_size,
                       std::uint64_t first, std::uint64_t last, std::uint64_t pos_base, KeyEntry<W>* out) {
  for (std::uint64_t j = first; j < last; ++j) {
    norm.normalize(records + j * record_size, out[j].key);
    out[j].pos = pos_base + j;
  }
}

// Sorts the keys of n records into `out` (n entries); `scratch` holds n entries
// too. Normalizing is split over the threads; the entries, made in position
// order, are radix sorted (radix_sort.hpp), which keeps them in (key, position) order.
// How many threads n records are worth: one per 4096 records at most.
inline unsigned threads_for(std::uint64_t n, unsigned threads) {
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 4096 + 1)));
}

// normalize_records of records [0, n) split over the threads.
template <unsigned W>
void normalize_records_parallel(const KeyNormalizer& norm, const std::byte* records, std::uint32_t record_size,
                                std::uint64_t n, std::uint64_t pos_base, KeyEntry<W>* out, unsigned threads) {
  const unsigned t = threads_for(n, threads);
  parallel_for(t, [&](unsigned i) {
    const std::uint64_t b = n * i / t, e = n * (i + 1) / t;
    io::populate_for_writing(out + b, (e - b) * sizeof(KeyEntry<W>));  // pages in one call (io/fresh_pages.hpp)
    normalize_records(norm, records, record_size, b, e, pos_base, out);
  });
}

template <unsigned W>
void sort_run(const KeyNormalizer& norm, const std::byte* records, std::uint32_t record_size, std::uint64_t n,
              std::uint64_t pos_base, KeyEntry<W>* out, KeyEntry<W>* scratch, unsigned threads) {
  normalize_records_parallel(norm, records, record_size, n, pos_base, out, threads);
  radix_sort(out, scratch, n, threads_for(n, threads));
}

// out[j] = the record at entries[j].pos - pos_base.
template <unsigned W>
void gather_records(const std::byte* records, std::uint32_t record_size, std::span<const KeyEntry<W>> entries,
                    std::uint64_t pos_base, std::byte* out, unsigned threads) {
  const std::uint64_t n = entries.size();
  threads = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 16384 + 1)));
  parallel_for(threads, [&](unsigned t) {
    std::uint64_t b = n * t / threads, e = n * (t + 1) / threads;
    io::populate_for_writing(out + b * record_size, (e - b) * record_size);
    for (std::uint64_t j = b; j < e; ++j)
      std::memcpy(out + j * record_size, records + (entries[j].pos - pos_base) * record_size, record_size);
  });
}

// Keeps the first entry of each run of equal keys, continuing from `last` (the
// last entry kept before this batch, if any). Returns the new size.
template <unsigned W>
std::uint64_t drop_duplicate_keys(KeyEntry<W>* entries, std::uint64_t n, KeyEntry<W>& last, bool& have_last) {
  std::uint64_t kept = 0;
  for (std::uint64_t j = 0; j < n; ++j) {
    if (have_last && key_equal(entries[j], last)) continue;
    last = entries[j];
    have_last = true;
    entries[kept++] = entries[j];
  }
  return kept;
}

}  // namespace corank
