#pragma once
// Plain lines (every terminator ends a record) split into a chunk's entries
// by several threads, each entry written once, where it belongs. The entries
// are the largest array a text sort fills besides the bytes themselves (40
// bytes a line: 530 MB for a 1 GB log of 83-byte lines), and on a machine
// whose fresh memory is costly to touch, filling per-thread lists and copying
// them into the chunk cost as much as splitting. So each thread first counts
// the terminators of its byte range (sixteen bytes a step: a tenth of the
// split's own cost), the counts give every thread its first index, and each
// then writes its entries, prefixes included, straight into the chunk.
#include <cstdint>

#include "corank/text/chunk.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

// How many bytes in [p, lim) equal c.
std::uint64_t count_byte(const char* p, const char* lim, char c) noexcept;

struct LineSplit {
  const char* base;         // the chunk's bytes
  std::uint64_t begin, end;  // the piece: records start at `begin` and after each terminator
  char terminator;
  const TextFormat* format;  // gives each record its prefix
  bool mapped;               // the bytes are a file's mapping: its pages are mapped in first
  std::uint64_t budget;      // the chunk's: record i (index in `records`, i > 0) at
  std::uint64_t overhead;    // offset o fits while o + i * overhead < budget
};

// Appends to `records` an entry for each whole record of the piece (one
// whose terminator lies before `end`), in order, until the first that does
// not fit the budget, using `parts` threads; the lengths of records of
// RecordEntry::kLong bytes or more go to `longs`, in order of offsets.
// Returns whether every whole record fit.
bool split_lines(const LineSplit& piece, unsigned parts, io::HugeVector<RecordEntry>& records, LongRecords& longs);

}  // namespace corank::text
