#pragma once
// The planner: from the input size, the record and key widths and the host
// memory budget, it decides whether the sort runs in memory or spills runs to
// storage, and sizes runs, merge slabs and the sparse run index.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "corank/io/options.hpp"

namespace corank {

struct SortPlan {
  enum class Mode { InMemory, External };
  Mode mode = Mode::External;
  std::uint64_t run_records = 0;   // records per sorted run
  std::uint64_t slab_records = 0;  // target records per merge slab
  std::uint64_t sample_stride = 0; // External: a spilled run keeps every this-many-th key in RAM
  std::uint64_t index_bytes = 0;   // External: what the sparse index of all runs held may take
  // External: runs are merged record by record and keep no index, which would
  // outgrow index_bytes (an input of unknown size may switch later).
  bool streamed_merge = false;
  // InMemory: the entries of the whole input are sorted at once (radix sort,
  // scratch for all of them), so the "runs" are only read-ahead pieces and
  // nothing is merged. Otherwise each run is sorted and the runs merged.
  bool single_sort = false;
  unsigned threads = 1;

  std::string describe() const;
};

// entry_bytes: bytes of one sort entry (normalized key words + position).
// Runs and slabs stay within the budget whatever the input's size: the
// descriptors a sort may hold bound its runs held at once, which are merged
// early when they reach it (sort_driver.hpp), never its memory. The sparse
// index of every run (a sample every sample_stride records) takes at most
// kIndexShare of the budget: where it would take more, the plan says
// streamed_merge (a sort of an input of unknown size finds out as it goes).
SortPlan make_plan(std::optional<std::uint64_t> total_records, std::uint32_t record_size, std::uint32_t entry_bytes,
                   std::uint64_t memory_budget, unsigned threads);
// The share of the budget that the runs' samples (sparse index, text samples) may take.
inline constexpr std::uint64_t kIndexShare = 16;  // one sixteenth

// Which runs to merge early, when a sort reaches the runs it may hold while it
// is still forming them (sort_driver.hpp), from the merge level of each run
// held (0 for a run of one chunk, one above the highest merged into it
// after): the newest `fan_in` at most of the rightmost side-by-side runs of
// the lowest level that has two or more, else the newest two. Merging equal
// levels keeps the runs held like the digits of a counter in base fan_in, so
// a record is rewritten once per level, however few runs may be held.
// Neighbours only: the merge stays stable. Returns {first, count}.
std::pair<std::size_t, std::size_t> early_merge_group(std::span<const unsigned> levels, std::size_t fan_in);

// Each spilled run is an open anonymous file until it is merged: the runs a
// sort may hold are the descriptors the process may open (RLIMIT_NOFILE's soft
// limit) less a margin for its inputs, output, engines and libraries (the
// device pipeline's; the CPU sorts count the descriptors left at their first
// spill, runs_within_descriptors).
std::uint64_t max_open_runs();
// Descriptors the process may still open: RLIMIT_NOFILE's soft limit less
// those open now.
std::uint64_t free_descriptors();
// Descriptors never taken by runs: what the libraries the process calls open
// for a moment (glibc reading /proc, a locale's files, the sanitizers'
// runtime probing memory through a pipe) and corank's own reads of /proc.
inline constexpr std::uint64_t kLibraryDescriptors = 2;
// The spilled runs a sort may hold from now on: the free descriptors less
// `reserve`, those that the sort's other files open later (a merge's output,
// engines, the output's directory), and less kLibraryDescriptors; at least 2
// (a merge takes two runs).
std::uint64_t runs_within_descriptors(std::uint64_t reserve);
// Where descriptors are few (under kFewDescriptors free: a low ulimit -n),
// I/O without the engines' descriptors of their own (a ring, a direct
// descriptor for each file): plain reads and writes through the page cache,
// so that the runs a sort may hold are as many as the limit allows.
inline constexpr std::uint64_t kFewDescriptors = 64;
io::IoOptions io_within_descriptors(io::IoOptions io);
// Throws LimitError where fewer than `needed` descriptors are free: a sort
// that spills holds two runs and opens a third to merge them.
void require_descriptors(std::uint64_t needed);
// What a sort may hold, from the descriptors left at its first spill (with
// its inputs, output and devices open): `reserve` for the files it opens
// later besides its runs, engines included; where that leaves fewer than
// kFewRuns, runs go without engines (plain_io) and only plain_reserve is
// kept. Runs read back through --compress-program (through_program) hold a
// pipe each while merged, so the fan-in shares the room with the runs held.
// Throws LimitError where not even two runs and their merge fit.
struct RunsHeld {
  std::size_t max_runs = 2;
  std::size_t fan_in_cap = SIZE_MAX;
  bool plain_io = false;
};
inline constexpr std::uint64_t kFewRuns = 16;
RunsHeld runs_held(std::uint64_t reserve, std::uint64_t plain_reserve, bool through_program);
// Raises the soft limit on open descriptors to the hard limit, as sort() does
// before every sort (many systems set a soft limit of 1024).
void raise_open_file_limit() noexcept;

// Half of the memory this process may use (physical memory, within its
// control group's limit: machine_share.hpp): the default for -S.
std::uint64_t default_memory_budget();
// A -S within the machine: at most its physical memory and swap together.
// The kernel refuses any one allocation larger than both (its default
// overcommit heuristic), so that a sort planned for more (a third of -S 100G
// as a pipe's chunk on a 24 GiB machine) would fail where GNU sort, which
// halves a buffer the system refuses, sorts. And at most the control group's
// memory limit, beyond which the kernel kills the process.
std::uint64_t within_machine_memory(std::uint64_t budget);

// -S counts everything the sort holds, not only its planned arrays: the I/O
// engine's buffers (queue_depth blocks for each of `streams` files open at
// once) and what the process already holds (code, libraries, heap). Under
// budgets of a few hundred MiB the blocks shrink, so that the engine takes at
// most an eighth of the budget; `arrays` is what is left for the plan.
struct MemoryPlan {
  io::IoOptions io;          // with block_size fitted to the budget
  std::uint64_t io_bytes = 0;
  std::uint64_t resident = 0;
  std::uint64_t arrays = 0;  // budget - io_bytes - resident, at least a quarter of the budget
};
MemoryPlan plan_memory(const io::IoOptions& io, std::uint64_t budget, unsigned streams);

// The text sort's plan (text/text_sorter.cpp), fixed before it reads a byte.
// The runs' samples take at most a sixteenth of the arrays (sample_bytes);
// two chunks alternate, one read while the other is sorted, each a third of
// the rest in record bytes and entries; the sort's scratch takes at most
// another third. Spilled runs are merged fan_in at a time (in passes when
// there are more), each input reading merge_buffer bytes at once.
struct TextSortPlan {
  std::uint64_t budget = 0;  // -S, or the default
  unsigned threads = 1;      // threads_within the budget
  io::IoOptions io;          // the request's, blocks fitted to the budget (plan_memory)
  std::uint64_t arrays = 0;  // what chunks, scratch and merges may hold
  std::uint64_t chunk_bytes = 0;
  // The output writer's buffer where all threads gather records into it at once
  // (one thread copying into it keeps a cache-sized one: record_writer.hpp).
  std::size_t gather_buffer = 0;
  std::size_t fan_in = 2;          // most runs merged at once
  std::size_t merge_buffer = 0;    // read buffer of each merge input
  std::uint64_t sample_stride = 0; // bytes of a spilled run between two samples kept for the parallel merge
  std::uint64_t sample_bytes = 0;  // what the samples of all runs held may take (text/sample_budget.hpp)
  std::uint64_t piece_bytes = 0;   // a compressed run is written in pieces of about this many bytes
};

// memory: plan_memory(io, budget, 3) (the read-ahead, a run's or the output's
// write-behind, and a merge's output are open at once); batch_size: GNU's
// --batch-size, 0 for none; compressed_runs: each merge input then holds a
// decompressor's window too.
TextSortPlan plan_text_sort(std::uint64_t budget, unsigned threads, const MemoryPlan& memory, unsigned batch_size,
                            bool compressed_runs);

// The device pipeline's plan (device_pipeline.cpp), from the device's
// capacity C (the records one device sort holds, at least 4): runs of C records, of
// which every `stride`-th is kept as a sample, so that k runs cut into slabs
// of at most C records (slab_split.hpp): about 4k samples a slab, at most
// 4096 records apart, and a slab of (samples + k) * stride records at most.
// A merge takes fan_in runs at once, half of a slab's samples.
struct DeviceMergePlan {
  std::uint64_t stride = 1;
  std::uint64_t fan_in = 2;
};
// total_records: the input's, nullopt where unknown (16 runs assumed).
DeviceMergePlan plan_device_merge(std::uint64_t capacity, std::optional<std::uint64_t> total_records);

// Each sorting thread holds memory of its own besides the planned arrays (its
// stack, its malloc arena, the buffers of a range it merges): about this much.
inline constexpr std::uint64_t kThreadBytes = std::uint64_t{1} << 20;
// The threads a budget affords: at most a quarter of it goes to the threads'
// own memory, so tiny budgets sort on fewer threads.
unsigned threads_within(std::uint64_t budget, unsigned threads);

// The process's resident memory now (/proc/self/statm), 0 where unknown.
std::uint64_t resident_bytes();

}  // namespace corank
