#pragma once
// Writing a sorted chunk of text records (text_sorter.cpp): as the whole
// output, as a spilled run in a file range with samples of its records, or as
// a compressed run. Each record is a cache miss, so where the order allows
// (not under -u, not --debug) all threads gather records at once.
#include <cstdint>
#include <optional>
#include <vector>

#include "corank/io/options.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

// What went to the output through a range (OutputFile::reserve_range), past
// the RecordWriter, which counts the rest.
struct RangeWrites {
  std::uint64_t records = 0, bytes = 0;
  double seconds = 0;
};

// How chunks are written: the format's terminator and -u, and the threads
// that gather records.
struct ChunkWriting {
  const TextFormat& format;
  unsigned threads = 1;

  const TextFormat* unique_format() const noexcept { return format.unique() ? &format : nullptr; }
};

// The chunk as the whole output (the input was one chunk). With more than two
// threads, and without -u and `one_by_one` (--debug), all threads gather
// records: into their own byte ranges of an uncompressed output file, written
// at once (counted in `in_range`), or else into their own parts of batches
// that fill the writer's buffer. Otherwise each record goes through `w`, which
// compares it with the last one under -u and shows its keys under --debug.
void write_sorted(const ChunkWriting& how, const Chunk& chunk, RecordWriter& w, io::OutputFile& output,
                  bool one_by_one, RangeWrites& in_range);

// Writes the chunk to `range` from its start on through a shared mapping of
// the file, each thread copying a contiguous share of the records. Returns
// the bytes written, or nullopt, having written nothing, where the file
// system cannot allocate ahead or map the file. Not for -u.
std::optional<std::uint64_t> write_mapped(const ChunkWriting& how, const Chunk& chunk, const io::FileRange& range);

// Writes the chunk to `range` from its start on, every thread a contiguous
// share of the records at its own offset (one under -u); returns its bytes.
// With `samples`, keeps a sample every `stride` bytes (run_merge.hpp); with
// `records`, counts the records written (fewer under -u).
std::uint64_t write_at(const ChunkWriting& how, const Chunk& chunk, const io::FileRange& range,
                       std::vector<RunSample>* samples = nullptr, std::uint64_t stride = 0,
                       std::uint64_t* records = nullptr);

// Writes the chunk to fd compressed (--compress-temp, --compress-program);
// returns the bytes stored, and what they hold in `content` (what a run read
// back must give). Pieces of about piece_bytes are compressed on all threads
// at once.
std::uint64_t write_compressed(const ChunkWriting& how, const Chunk& chunk, int fd, const io::IoOptions& io,
                               std::uint64_t piece_bytes, RunContent& content);

}  // namespace corank::text
