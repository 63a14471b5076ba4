#pragma once
// Run formation on the CPU: normalize every record's key into an entry, sort the
// entries on all threads (each sorts a piece, then a k-way merge joins the
// pieces), and gather the records in the entries' order.
#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "corank/key_entry.hpp"
#include "corank/kway_merge.hpp"
#include "corank/normalize.hpp"
#include "corank/parallel.hpp"

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

// Sorts the keys of n records into `out` (n entries); `scratch` holds n entries too.
template <unsigned W>
void sort_run(const KeyNormalizer& norm, const std::byte* records, std::uint32_t record_size, std::uint64_t n,
              std::uint64_t pos_base, KeyEntry<W>* out, KeyEntry<W>* scratch, unsigned threads) {
  threads = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 4096 + 1)));
  if (threads == 1) {
    normalize_records(norm, records, record_size, 0, n, pos_base, out);
    std::sort(out, out + n);
    return;
  }
  std::vector<std::span<const KeyEntry<W>>> pieces(threads);
  parallel_for(threads, [&](unsigned t) {
    std::uint64_t b = n * t / threads, e = n * (t + 1) / threads;
    normalize_records(norm, records, record_size, b, e, pos_base, scratch);
    std::sort(scratch + b, scratch + e);
    pieces[t] = std::span<const KeyEntry<W>>(scratch + b, e - b);
  });
  merge_kway_parallel(std::span<const std::span<const KeyEntry<W>>>(pieces), out, threads);
}

// out[j] = the record at entries[j].pos - pos_base.
template <unsigned W>
void gather_records(const std::byte* records, std::uint32_t record_size, std::span<const KeyEntry<W>> entries,
                    std::uint64_t pos_base, std::byte* out, unsigned threads) {
  const std::uint64_t n = entries.size();
  threads = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 16384 + 1)));
  parallel_for(threads, [&](unsigned t) {
    std::uint64_t b = n * t / threads, e = n * (t + 1) / threads;
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
