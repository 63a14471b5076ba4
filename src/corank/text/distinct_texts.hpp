#pragma once
// A run of tied records sorted through its distinct texts: the records are
// grouped by their bytes in one pass over a hash table, only each text's
// first record is sorted, and the others follow it. Records with the same
// bytes compare equal under every format's comparison, and the ties of real
// data are mostly such copies (a stack trace's lines, a log's repeated
// messages, a column's repeated words): a million tied lines of a thousand
// texts cost one hash each and a sort of a thousand, where a sort of them
// all would compare (or, level by level, fetch the next bytes of) every
// line many times over.
#include <cstddef>
#include <functional>

#include "corank/text/chunk.hpp"
#include "corank/text/record_sort.hpp"

namespace corank::text {

// Sorts [first, first + n), records whose prefixes tie, by `less` (the
// full comparison, then the position): each distinct text's first record is
// put in order by `sort_texts` (which must give std::sort(less)'s order),
// and the records of the texts that the full comparison calls equal follow
// in input order. False, with the run untouched, where its records, as
// they are hashed, show its texts mostly distinct (a hash each would then
// only add a pass).
bool sort_by_distinct_texts(RecordEntry* first, std::ptrdiff_t n, const EntryLess& less,
                            const std::function<void(RecordEntry*, std::ptrdiff_t)>& sort_texts);

}  // namespace corank::text
