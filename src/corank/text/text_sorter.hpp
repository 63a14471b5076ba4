#pragma once
// The text pipeline (lines and CSV rows): chunks of records are read, given
// their prefixes and sorted on all threads; an input that fits the memory
// budget is written straight out, a larger one is spilled as sorted runs to
// anonymous temporary files and merged (run_merge.hpp: in several passes when
// there are more runs than the merge fan-in, in key ranges on all threads
// where it can): a model of drive_sort (sort_driver.hpp). -m merges sorted
// inputs; -c checks one.
// Chunks are sorted by prefix on the GPU when one is usable (gpu_record_sort.hpp),
// else on the CPU.
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "corank/io/options.hpp"
#include "corank/sort_options.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

struct TextSortOptions : CommonSortOptions {
  unsigned batch_size = 0;  // GNU's --batch-size: most runs merged at once (>= 2); 0: from the budget
  bool merge_only = false;  // -m: the inputs are sorted already
  bool debug = false;       // --debug: the output shows where each record's keys lie (lines only)
  bool write_header = true;  // CSV/TSV --header: the output begins with the header row
  // --rejects: where records the format refuses go (row_check.hpp), committed
  // with the output; "": such a record is an error.
  std::string rejects;
  // gpu and gpu_memory: chunks sorted by prefix on the GPU (see gpu_gate.hpp).
  // Not empty: input i's records are split and get their prefixes by
  // input_formats[i], its own time rules (ChunkReader::set_input_formats).
  // The sort's format compares the instants only through the prefixes (a
  // first key that is the one time key, no -u), which exist only in memory:
  // an input of more than one chunk throws NotOneChunk before anything is
  // written.
  std::vector<const TextFormat*> input_formats;
};

struct NotOneChunk : std::exception {
  const char* what() const noexcept override { return "the input is more than one chunk"; }
};

// Sorts (or with merge_only, merges) the inputs into options.output, which is
// committed atomically. Throws UsageError, InputError or io::IoError; then the
// target is untouched and no temporary file remains. With options.rejects,
// the rejects file is committed just before the output, and where it holds
// any record one warning to options.io.diagnostics counts them.
SortStats sort_text(const TextSortOptions& options, TextFormat& format);

struct TextCheckResult {
  bool sorted = true;
  std::uint64_t record_number = 0;  // 1-based, of the first record out of order
  std::uint64_t line = 0;           // the 1-based line where it starts (RecordReader::line)
  std::string record;               // its bytes
};

// -c / -C: is `path` in order (strictly, under -u)?
TextCheckResult check_text(const std::string& path, TextFormat& format, const io::IoOptions& io);

}  // namespace corank::text
