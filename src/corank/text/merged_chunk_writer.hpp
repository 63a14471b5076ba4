#pragma once
// The whole output written straight from a chunk left as sorted slices (the
// piles and sorted slices of sort_into_slices, pile_sort.hpp): each thread
// takes a share of the output, cut by the k-way co-rank where the prefix
// changes, merges the slices' records of its share, puts each run of equal
// prefixes in the order of the full comparison (sort_tied) as it goes, and
// writes its records at its share's own offset in the output file. There are
// several shares a thread (up to kMostShares), each taken by the next thread
// free, so that a share heavy with ties holds up no other.
//
// The order is the one a whole sort gives (merge_sorted_slices, then
// settle_ties, then write_sorted), and so are the bytes. What it saves: the
// merge's scratch array of entries, as large as the chunk's (on a machine
// that hands freed memory back to its host, the first touch of it costs more
// than the merge itself), and two of the three passes over the entries.
#include <cstdint>
#include <span>

#include "corank/io/output_file.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/record_sort.hpp"
#include "corank/text/sorted_chunk_writer.hpp"

namespace corank::text {

// Shares of the output per thread (write_merged), and in all: each share
// opens a sink (a ring, its blocks registered), and on 16 threads 128 of
// them cost more system time than the balance gained (BENCHMARKS.md).
inline constexpr unsigned kSharesPerThread = 8;
inline constexpr unsigned kMostShares = 32;
inline constexpr unsigned kShareQueueDepth = 4;  // a share's sink's blocks at most (write_merged)

// Writes the chunk, sorted slices chunk.records[slices[i], slices[i + 1]), to
// `range` from its start on, in the order of `less` (the format's EntryLess);
// returns the bytes written. Not for -u or --debug (one record at a time).
std::uint64_t write_merged(const ChunkWriting& how, const Chunk& chunk, std::span<const std::uint64_t> slices,
                           const EntryLess& less, const io::FileRange& range,
                           const io::IoOptions& io);

// The chunk as the whole output (write_sorted's case) from its sorted slices:
// the header, if any, through `w`, then the records through write_merged into
// the output's range (counted in `in_range`). Needs output.can_reserve_range().
void write_sorted_slices(const ChunkWriting& how, const Chunk& chunk, std::span<const std::uint64_t> slices,
                         RecordWriter& w, io::OutputFile& output, const io::IoOptions& io, RangeWrites& in_range);

// Where share `rank` of the slices' merged records begins in each slice: their
// k-way co-rank under PrefixLess, moved back to the first record with the
// prefix of the record found there, so that no run of equal prefixes is cut.
std::vector<std::uint64_t> share_start(std::span<const std::span<const RecordEntry>> slices, std::uint64_t rank);

}  // namespace corank::text
