#pragma once
// Adaptive run formation for text records: replacement selection with sorted
// chunks (DESIGN.md §11). A sorted window of the largest records read so far
// stays in memory; each sorted chunk is merged with it, the smallest records
// go to the run being written (the output itself) and the largest, at most
// the window's capacity, stay. A chunk's records less than the last one the
// run took cannot join it: they are the chunk's first records (it is sorted),
// and go to a side run. Input whose records lie less than about the window
// from their place therefore forms one run however long it is, written once.
#include <cstdint>
#include <string>
#include <vector>

#include "corank/sort_options.hpp"

#include "corank/io/huge_vector.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

// While chunks stream into the output, each takes a quarter of the share that
// three chunks take otherwise, and each of the window's two copies a twelfth,
// so that the window counts against the budget: two chunks, two windows and
// the merge's entries hold about what three chunks do.
constexpr std::uint64_t kStreamChunkShare = 4;
constexpr std::uint64_t kWindowShare = 12;

class RunWindow {
public:
  // `capacity`: what the window's records may take, each counted with its
  // bytes, terminator and ChunkReader::kRecordOverhead.
  RunWindow(const TextFormat& format, std::uint64_t capacity) : format_(format), capacity_(capacity) {}

  // How many of the sorted chunk's first records are less than the last record
  // the run took: they cannot join it.
  std::size_t late_records(const Chunk& chunk) const;

  // Merges chunk.records[from, end) with the window (the window's records
  // first among equals: they were read earlier, which keeps -s stable), writes
  // the smallest to `run` and keeps the largest that fit the capacity; with
  // `last`, writes them all. `merged` is scratch (a sort's, reused).
  void advance(const Chunk& chunk, std::size_t from, bool last, RecordWriter& run,
               io::HugeVector<RecordEntry>& merged);
  // The input ended: the window's records join the run.
  void flush(RecordWriter& run, io::HugeVector<RecordEntry>& merged) { advance(Chunk(), 0, true, run, merged); }

  // The window's records in order, as a chunk whose records lie in the window
  // (to spill them as a run when adaptive run formation gives up).
  Chunk as_chunk() const;
  std::size_t records() const noexcept { return windows_[current_].records.size(); }

private:
  bool less_than_last(std::string_view record, const Prefix& prefix) const;

  const TextFormat& format_;
  std::uint64_t capacity_;
  // Two windows, each a chunk of its own bytes: the records kept are copied
  // from the current one (and the chunk) into the other, which then becomes
  // current.
  Chunk windows_[2];
  int current_ = 0;
  std::string last_;  // the last record the run took
  Prefix last_prefix_;
  bool took_any_ = false;
};

// Samples of the run written to the output (RecordWriter::keep_samples), so
// that it merges with side runs on all threads as a spilled run does; within
// a share of the budget: past it every other goes, and the stride doubles.
class StreamSamples {
public:
  void keep(RecordWriter& run, std::uint64_t stride) {
    stride_ = stride;
    run.keep_samples(stride_, 0, samples_);
  }
  void thin(RecordWriter& run, std::uint64_t most_bytes);
  std::vector<RunSample> take() { return std::move(samples_); }

private:
  std::vector<RunSample> samples_;
  std::uint64_t stride_ = 0, bytes_ = 0;
  std::size_t counted_ = 0;  // samples_[0, counted_) are in bytes_
};

// Whether a sorted chunk looks nearly sorted in input order: at most a quarter
// of its records lie farther from where they were read than a window of
// `window` bytes (counted as RunWindow counts them) holds records (the
// records of a chunk are read one after another, so a record's offset is its
// input position).
bool looks_nearly_sorted(const Chunk& sorted, std::uint64_t window);

// A chunk of records [first, last) of `chunk`, lying where they lie there.
Chunk chunk_part(const Chunk& chunk, std::size_t first, std::size_t last);

}  // namespace corank::text
