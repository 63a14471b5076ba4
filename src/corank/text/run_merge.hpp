#pragma once
// Merging sorted streams of text records: a loser tree over any readers (-m
// inputs, spilled runs), and the merge of plain spilled runs into a file on
// all threads at once.
//
// The parallel merge cuts the output into one key range per thread. Each run
// keeps samples, a copy of a record about every `stride` bytes with its offset
// (RecordWriter::keep_samples). The samples of all runs in merged order give
// splitter records that cut the runs' bytes into equal shares; range r of run
// i starts at its first record not less than splitter r, found by a binary
// search over the run's samples and a scan of at most one stride. Records equal
// to a splitter all fall on the same side of it, so the ranges concatenated
// are the merge of the runs, ties between runs still broken by run order. The
// bytes of each range are known before merging, so every thread merges its
// range with its own loser tree and writes it at its own offset of the file.
// The output goes through a write-behind sink per thread, whole aligned blocks
// O_DIRECT, as the one-thread merge writes it: buffered writes of many threads
// to one file contend for it, and once dirty pages pass the kernel's share
// they are throttled to the disk's pace (on the 2-core VM, 4 GB took 12.2 s
// buffered and 2.0 s direct). A merged run that is read again goes through the
// page cache, as every spilled run does.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "corank/io/codec.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/options.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/progress.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

struct SpilledRun {
  io::FileDesc fd;
  std::uint64_t bytes = 0;         // stored in the file
  std::vector<RunSample> samples;  // in run order; plain runs only
  RunContent content;              // as written: what reading the run back must yield
};

// Merges the records of `readers` (earlier readers win ties, which keeps the
// merge stable) into `out`, with a loser tree over the readers' current
// records; advances `progress` (if any) by the bytes merged.
void merge_streams(std::vector<std::unique_ptr<RecordReader>>& readers, const TextFormat& format, RecordWriter& out,
                   Progress* progress = nullptr);

// Reads the records of a run (decompressed per `temp`) through a buffer of
// `buffer` bytes; a run that does not yield its `content` at its end is an
// IoError ("run ended early"), as is any range of a plain run that ends
// before its bytes (merge_in_ranges).
std::unique_ptr<RecordReader> run_reader(const SpilledRun& run, const TextFormat& format, std::size_t buffer,
                                         const io::IoOptions& temp);

// The run written to `output` (adaptive run formation) read back, its first
// `skip` bytes (a header line) passed over: the output is finished writing.
std::unique_ptr<RecordReader> output_run_reader(io::OutputFile& output, std::uint64_t skip, const RunContent& content,
                                                const TextFormat& format, std::size_t buffer,
                                                const io::IoOptions& io);

struct ParallelMerge {
  io::IoOptions io;     // for writing direct (each thread uses a few MiB of blocks)
  bool direct = false;  // through write-behind sinks; else positional writes to the page cache
  unsigned threads = 1;
  std::uint64_t memory = 64 << 20;  // for the read buffers, all threads together
  // When not null: samples of the merged output, every `stride` bytes, with
  // offsets from the range's start (for a merged run that is merged again later).
  std::vector<RunSample>* samples = nullptr;
  std::uint64_t stride = 0;
  Progress* progress = nullptr;  // advanced by the bytes merged
};

struct MergedBytes {
  std::uint64_t bytes = 0, records = 0;
};

// Whether merge_in_ranges can merge these runs: plain ones, each with samples
// (a run of records all longer than RecordWriter::kMaxSampleBytes has none).
bool can_merge_in_ranges(std::span<const SpilledRun> runs);

// Merges `runs` (plain, not under -u) into `out` from its start on, on
// options.threads threads.
MergedBytes merge_in_ranges(std::span<const SpilledRun> runs, const TextFormat& format, const io::FileRange& out,
                            const ParallelMerge& options);

}  // namespace corank::text
