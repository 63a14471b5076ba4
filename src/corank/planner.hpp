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

#include "corank/io/options.hpp"

namespace corank {

struct SortPlan {
  enum class Mode { InMemory, External };
  Mode mode = Mode::External;
  std::uint64_t run_records = 0;   // records per sorted run
  std::uint64_t slab_records = 0;  // target records per merge slab
  std::uint64_t sample_stride = 0; // External: a spilled run keeps every this-many-th key in RAM
  // InMemory: the entries of the whole input are sorted at once (radix sort,
  // scratch for all of them), so the "runs" are only read-ahead pieces and
  // nothing is merged. Otherwise each run is sorted and the runs merged.
  bool single_sort = false;
  unsigned threads = 1;
  // External: the most spilled runs held at once. An input of known size is
  // cut into fewer; one of unknown size (a pipe, a compressed file) has the
  // runs so far merged into fewer whenever they reach it.
  std::uint64_t max_runs = UINT64_MAX;

  std::string describe() const;
};

// entry_bytes: bytes of one sort entry (normalized key words + position).
// max_runs: the most spilled runs the sort may hold at once (max_open_runs()):
// an input of known size that the budget would cut into more runs gets longer
// runs instead, past the budget, rather than failing for want of descriptors.
SortPlan make_plan(std::optional<std::uint64_t> total_records, std::uint32_t record_size, std::uint32_t entry_bytes,
                   std::uint64_t memory_budget, unsigned threads, std::uint64_t max_runs = UINT64_MAX);

// Where to merge runs early, when a sort reaches the runs it may hold while it
// is still forming them: the start of the `width` consecutive runs of the
// fewest bytes. Merging neighbours keeps the merge stable; merging the
// smallest copies each record few times, as a merge tree of equal runs does
// (merging the newest instead would copy the oldest again at every merge).
std::size_t cheapest_runs(std::span<const std::uint64_t> sizes, std::size_t width);

// Each spilled run is an open anonymous file until it is merged: the runs a
// sort may hold are the descriptors the process may open (RLIMIT_NOFILE's soft
// limit) less a margin for its inputs, output, engines and libraries.
std::uint64_t max_open_runs();
// Raises the soft limit on open descriptors to the hard limit, as sort() does
// before every sort (many systems set a soft limit of 1024).
void raise_open_file_limit() noexcept;

// Half of physical memory: the default for -S.
std::uint64_t default_memory_budget();

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
// Two chunks alternate, one read while the other is sorted, each a third of
// the arrays in record bytes and entries; the sort's scratch takes at most
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
  std::uint64_t piece_bytes = 0;   // a compressed run is written in pieces of about this many bytes
  std::uint64_t max_runs = UINT64_MAX;  // spilled runs held at once (max_open_runs())

  // The bytes of one chunk for an input of total_bytes (nullopt: unknown, a
  // pipe): chunk_bytes, or more where that would spill more than max_runs runs.
  std::uint64_t chunk_bytes_for(std::optional<std::uint64_t> total_bytes) const {
    if (!total_bytes || max_runs == 0) return chunk_bytes;
    return std::max(chunk_bytes, *total_bytes / max_runs + 1);
  }
};

// memory: plan_memory(io, budget, 3) (the read-ahead, a run's or the output's
// write-behind, and a merge's output are open at once); batch_size: GNU's
// --batch-size, 0 for none; compressed_runs: each merge input then holds a
// decompressor's window too.
TextSortPlan plan_text_sort(std::uint64_t budget, unsigned threads, const MemoryPlan& memory, unsigned batch_size,
                            bool compressed_runs, std::uint64_t max_runs = UINT64_MAX);

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
