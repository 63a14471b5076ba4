#pragma once
// Records whose prefixes tie, put in the order of the full comparison: the
// step after a sort by prefix alone (on the CPU or the GPU), which leaves the
// full comparison (a collation's strcoll, a key found again) to the records
// that need it.
//
// Where the format's order is the byte order of one string per record
// (LineComparator::orders_by_bytes), a run is sorted by the string's next
// bytes after the prefix, found once per record, level by level until the
// run's strings end: no key is found again per comparison. Before either,
// a run whose texts repeat is grouped by them, and only each distinct
// text's first record is sorted (distinct_texts.hpp).
#include <cstdint>

#include "corank/io/huge_vector.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/record_sort.hpp"

namespace corank::text {

// Sorts [first, last), records whose prefixes (the format's, of their texts) are equal, by `less` (the full
// comparison, then the position), on `threads` threads where the run is
// long: the result std::sort(first, last, less) gives. By distinct texts
// where the run's first records show them mostly repeated.
void sort_tied(RecordEntry* first, RecordEntry* last, const EntryLess& less, unsigned threads = 1);

// Sorts each run of equal prefixes in v[lo, hi), a sequence sorted by prefix,
// by `less` (sort_tied), the runs shared among `threads` threads.
void settle_ties(io::HugeVector<RecordEntry>& v, std::uint64_t lo, std::uint64_t hi, const EntryLess& less,
                 unsigned threads);

}  // namespace corank::text
