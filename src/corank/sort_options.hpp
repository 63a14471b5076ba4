#pragma once
// The library's entry point: what to sort, how, and what it cost.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/io/options.hpp"

namespace corank {

class RecordSelection;  // record_selection.hpp
class PreparedKeys;     // prepared_keys.hpp
class PreparedDevice;   // prepared_device.hpp

enum class GpuMode { Auto, On, Off };

// What a sort takes whatever its records are (SortOptions for binary
// records, text::TextSortOptions for lines, CSV and JSON lines): where the
// records come from and go, memory, threads, the GPU, reporting and I/O.
struct CommonSortOptions {
  std::vector<std::string> inputs;  // empty or "-": standard input
  std::string output = "-";         // "-": standard output; may name an input
  std::uint64_t memory_budget = 0;  // host bytes; 0: half of physical memory
  std::vector<std::string> temp_dirs;
  unsigned threads = 0;  // 0: every hardware thread
  GpuMode gpu = GpuMode::Auto;
  std::uint64_t gpu_memory = 0;  // 0: most of the free device memory
  bool progress = false;
  bool verbose = false;
  io::IoOptions io;
};

struct SortOptions : CommonSortOptions {
  // Records in this process's memory, sorted in place of `inputs` (then
  // empty): the pieces in order, as if concatenated (SortRequest::input_buffers).
  std::vector<std::span<const std::byte>> input_buffers;
  const RecordSelection* input_selection = nullptr;  // SortRequest::input_selection
  PreparedKeys* prepared_keys = nullptr;             // SortRequest::prepared_keys
  PreparedDevice* prepared_device = nullptr;         // SortRequest::prepared_device
  RecordFormat format;
  bool reverse = false;  // reverse the result of every key comparison
  bool unique = false;   // keep only the first record of each run of equal keys
  bool verify = false;   // re-read the output before committing it
};

struct PhaseTimes {
  double read = 0, run_formation = 0, merge = 0, write = 0, verify = 0, total = 0;
};

// Summed CUDA-event times of the GPU stages; h2d and d2h cover run formation
// and the merge phase.
struct GpuTimes {
  double setup = 0;  // wall time to open the backends (CUDA context, buffers)
  double h2d = 0, sort = 0, d2h = 0;
  double merge = 0;  // merge-phase kernels
  double pin = 0;    // allocating the page-locked staging slots, wall time
  // Wall time with any stage in flight (union over chunks and slabs). The
  // stages' sum minus busy is the time they overlapped one another.
  double busy = 0;
  double h2d_bytes = 0, d2h_bytes = 0;

  double stage_sum() const { return h2d + sort + merge + d2h; }
  double overlapped() const { return stage_sum() > busy ? stage_sum() - busy : 0.0; }
};

// What a sort found in one key's values (text formats): how many did not read
// as the key's type (a time, a decimal, a float, a date) and how many were
// NULL or missing, and where those sorted.
struct KeyValueCounts {
  unsigned key = 0;    // 1-based, in the order the keys were given
  std::string name;    // the column or path as given; "" for a key of lines
  std::string kind;    // what an unread value lacked: "time", "decimal", "float", "date"; "": every value reads
  std::uint64_t unread = 0, nulls = 0;
  bool unread_first = true;  // unread values sort before the others (else after)
  bool nulls_first = false;
};

struct SortStats {
  std::string mode;  // "in-memory" or "external"
  std::string backend = "cpu";
  std::uint64_t records_in = 0, records_out = 0, bytes_in = 0, bytes_out = 0;
  std::uint64_t runs = 0, spilled_runs = 0, spill_bytes = 0, merge_slabs = 0;
  std::uint64_t merge_passes = 0;  // merges of spilled runs into longer ones before the last merge
  // Adaptive run formation: records that came too late for the run streamed
  // into the output, spilled in side runs; and whether the output was written
  // as the input was read, nothing spilled.
  std::uint64_t side_records = 0;
  bool one_pass = false;
  std::uint64_t rejected_records = 0;  // text: records that went to --rejects
  // --multiline: the text before the inputs' first timestamps, records of
  // their own written first, in input order (multiline_format.hpp).
  std::uint64_t head_records = 0, head_bytes = 0;
  std::uint64_t memory_budget = 0;
  unsigned threads = 0;
  PhaseTimes seconds;
  GpuTimes gpu_seconds;  // backend "gpu" only
  // Text formats: one entry for each key whose values can fail to read or be
  // NULL, counted over the records read (not under -m).
  std::vector<KeyValueCounts> key_values;
};

// Sorts options.inputs into options.output. Throws UsageError, InputError or
// io::IoError; on any throw the output target is untouched and no temporary
// file remains.
SortStats sort_files(const SortOptions& options);

}  // namespace corank
