#pragma once
// Fixed-size records sorted on a RecordDevice (the GPU): the records
// themselves go to the device, which extracts the keys, sorts them and
// gathers the records; the host only reads, writes and decides where slabs
// are cut. The same code runs against any RecordDevice (tests drive it with
// one that sorts in host memory).
//
// Plan, from the device's capacity C (records one sort holds):
//  - an input of at most C records is one run: read straight into staging
//    slots by all threads, sorted once, written from staging slots. No merge.
//  - a larger input is cut into runs of C records, each sorted on the device
//    and kept in host memory while the -S budget allows, else in an anonymous
//    temporary file, compressed under --compress-temp (sorted_run.hpp, the
//    CPU path's run store too). Every stride-th record of a run is kept as a
//    sample (key, position). The runs are merged slab by slab: sampled
//    keys in merged order cut the output into slabs of at most C records; a
//    slab's k segments (one per run, cut at the first record not below the
//    slab's boundary key) go to the device back to back and are merged there
//    (co-rank partitions, pairwise merge rounds), and the merged slab is
//    written. With more runs than one slab can merge, groups of runs are
//    merged into longer runs first.
//  - input that comes sorted (a table dumped in key order, a file sorted
//    before) streams: while every record read is at or above the one before
//    (checked as staging fills, by all threads), it goes straight to the
//    output, one run, nothing spilled or merged: the first chunk through the
//    device, the rest in pieces as large as the staging, past it (-u drops
//    equal keys on the host). The first record out of order ends that: its
//    piece starts the next chunk, and a window takes the stream on.
//  - input that comes nearly sorted (a first chunk whose sampled records lie
//    mostly within the window of their places) streams through a window
//    (device_window.hpp): each chunk is sorted on the device together with
//    the window, the largest records of the chunk before, uploaded again
//    ahead of it; the output takes all but the window's worth, and records
//    below what it holds go to side runs, merged with the output's run at
//    the end. A chunk that comes mostly late ends the stream, and runs form
//    as above. Without host memory for a window, what was streamed becomes
//    a run of its own instead. Random input pays for a sample of its first
//    chunk.
// The control flow is drive_sort's (sort_driver.hpp), of which this is a model.
// Positions break ties (a record's run base + its index), so the output is
// the stable order of the input, and -u keeps the first of equal keys.
#include <cstdint>

#include "corank/checksum.hpp"
#include "corank/gpu_backend.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/worker_pool.hpp"
#include "corank/normalize.hpp"
#include "corank/progress.hpp"
#include "corank/record_source.hpp"
#include "corank/sort_options.hpp"

namespace corank {

struct DeviceSortJob {
  const SortOptions& options;
  const RecordFormat& format;  // -r already applied
  const KeyNormalizer& norm;
  RecordDevice& device;
  RecordSource& input;
  io::OutputFile& output;
  io::WorkerPool& pool;
  Progress& progress;
  SortStats& stats;
  std::uint64_t host_budget;       // bytes of host memory for runs (-S less the staging)
  RecordChecksum* input_checksum;  // non-null: sum every record read (--verify)
  // Non-null: the input's records are on the device already (prepared_device.hpp), one chunk.
  PreparedDevice* prepared = nullptr;
};

// Sorts job.input into job.output on job.device and fills job.stats (runs,
// slabs, spills, phase times; GPU stage times from the device). Throws
// GpuError when the device fails, io::IoError and InputError as the CPU path.
void sort_on_device(DeviceSortJob& job);

}  // namespace corank
