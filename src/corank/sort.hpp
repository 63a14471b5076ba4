#pragma once
// The library's entry point for every format: a sort stated the way a user
// states it (a format name, key texts, GNU sort's ordering options), parsed
// and checked here, then run by the binary-record pipeline (sort_options.hpp)
// or the text pipeline (text/text_sorter.hpp). The command-line tool is a thin
// layer over these functions.
//
//   corank::SortRequest r;
//   r.inputs = {"access.log"};
//   r.output = "sorted.log";
//   r.keys = {"4,5T"};          // lines: GNU KEYDEFs
//   corank::sort(r);
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "corank/io/options.hpp"
#include "corank/sort_options.hpp"

namespace corank {

struct SortRequest {
  std::vector<std::string> inputs;  // empty, or "-": standard input
  // Binary formats: records already in this process's memory, sorted in
  // place of `inputs` (which must then be empty): the pieces in order, as if
  // concatenated. They must outlive the sort and are only read; like a mapped
  // input file, they are not counted in memory_budget.
  std::vector<std::span<const std::byte>> input_buffers;
  // With input_buffers: only the records it keeps are sorted, as if the
  // buffers held no others (record_selection.hpp). Must outlive the sort.
  const RecordSelection* input_selection = nullptr;
  // With input_selection: its records' key entries made already, which a
  // sort on the CPU in memory takes instead of making its own
  // (prepared_keys.hpp). Must outlive the sort.
  PreparedKeys* prepared_keys = nullptr;
  // Fixed-size records uploaded already to the device the sort would open
  // (prepared_device.hpp): a sort on the GPU whose input is exactly those
  // records sorts them where they lie. Must outlive the sort.
  PreparedDevice* prepared_device = nullptr;
  std::string output = "-";         // "-": standard output; may name an input
  // lines, csv, tsv, pgtext, jsonl (text); gensort, fixed:R, u32 u64 i32 i64 f32 f64 (binary).
  std::string format = "lines";
  // Keys, highest priority first: GNU KEYDEFs for lines (or the obsolete form
  // "+POS1" / "+POS1 -POS2", as one string; or "T", the time found anywhere
  // in the line, in the format detected per input file: --time),
  // COLUMN[:TYPE][:desc][:nulls_first|:nulls_last] for CSV/TSV and pgtext,
  // PATH[:TYPE][:desc][:nulls_...] for JSON lines (a dotted field path),
  // OFFSET:LENGTH[:TYPE][:desc] for fixed-size records.
  std::vector<std::string> keys;
  // Text formats: GNU sort's global ordering letters (b d f g h i M n R V, and
  // corank's T for time), for keys that have none of their own; "" compares bytes.
  std::string ordering;
  bool reverse = false;  // -r: every format
  bool stable = false;   // -s: no last-resort comparison of whole lines
  bool unique = false;   // -u: the first of each run of equal keys
  // Lines: -t's argument (one byte, or "\0"), -z.
  std::optional<std::string> field_separator;
  bool zero_terminated = false;
  // -R: a file whose first bytes fix the random order; none: a fresh one each run.
  std::optional<std::string> random_source;
  // CSV/TSV: the delimiter (default ',' or tab) and whether row 1 is a header.
  std::string delimiter;
  bool header = false;
  // CSV/TSV: the decimal point of n, decimal and float keys: '.', or ',' for
  // exports written under a locale such as de_DE (DuckDB's decimal_separator).
  char decimal_separator = '.';
  // With header: whether the output begins with the header row. Off for a
  // piece of an output that another writer heads (corank-mpi's ranks after
  // the first): the header still names the key columns.
  bool write_header = true;
  // CSV/TSV, pgtext and JSON lines: where NULLs sort under keys without a place
  // of their own (text/typed_key.hpp); the null string of CSV (instead of the
  // unquoted empty field) and of pgtext (instead of \N).
  bool nulls_first = false;
  std::optional<std::string> null_string;
  // Time keys (T, :time; text/time_rules.hpp). Timestamps without a year
  // (syslog's) take one from a reference date: time_year (and
  // time_year_month, 1-12; 0: December, so every month is in time_year), or
  // with time_year 0 each input's own modification time (the current date for
  // standard input); a month after the reference's falls in the year before it.
  int time_year = 0;
  unsigned time_year_month = 0;
  // Lines: a line in which a positionless time key finds no timestamp belongs
  // to the record before it (text/multiline_format.hpp).
  bool multiline = false;
  // The IANA zone of timestamps without a UTC offset; "": UTC.
  std::string time_zone;
  // Zones of particular inputs (--time-zone PATTERN=ZONE): an input whose
  // path, or whose file name where the pattern has no '/', matches a
  // pattern (fnmatch's shell wildcards) reads its timestamps without an
  // offset in the first such pattern's zone, instead of time_zone.
  std::vector<std::pair<std::string, std::string>> input_zones;
  // A strftime-style pattern (text/time_pattern.hpp) that time keys read
  // instead of the known formats; "": those.
  std::string time_format;
  // What --time looks for (names of text/time_formats.hpp's table) and the
  // JSON logs' time members, settled beforehand from the inputs, not found
  // in them: corank-mpi's ranks sort pieces whose first lines are not the
  // inputs'. Unset: found in the inputs (text/time_inputs.hpp).
  std::optional<std::vector<std::string>> time_search_formats;
  std::vector<std::string> time_json_members;
  // Lines: the locale whose rules order them as GNU sort's would under it
  // (text/line_locale.hpp): LC_COLLATE's strcoll for text, LC_CTYPE's classes
  // for -d -i -f, LC_NUMERIC's decimal point and thousands separator for -n
  // -h -g, LC_TIME's month names for -M. "C" or "POSIX": bytes, the fast path;
  // "": each category from the environment (LC_ALL, LC_<CATEGORY>, LANG) as
  // setlocale(LC_ALL, "") reads it, which the corank program passes; another
  // name: that locale for every category. CSV/TSV and JSON lines ignore it.
  std::string locale = "C";
  // Text formats: an ICU collation for text keys (text/icu_collation.hpp:
  // "und", "en", "de-u-co-phonebk", "sv", PostgreSQL's "und-x-icu"), in place
  // of bytes or LC_COLLATE's order; texts it holds equal are ordered by their
  // bytes. CSV/TSV and JSON keys may name their own (KEY:collate=NAME). Empty: none.
  std::string collation;

  bool merge_only = false;  // -m: the inputs are sorted already (text formats)
  // Text formats: a file for the records the format refuses (a row with more
  // or fewer fields than the header, a JSON line that is no object), written
  // unchanged and committed with the output (text/row_check.hpp); "": such a
  // record is an error.
  std::string rejects;
  bool debug = false;       // --debug: underline each output line's keys (lines)
  bool verify = false;      // re-read the output before committing it (binary formats)
  std::uint64_t memory_budget = 0;  // host bytes; 0: half of what the process may use (machine_share.hpp)
  std::vector<std::string> temp_dirs;
  unsigned threads = 0;     // 0: the cores the process may use (affinity, CPU quota)
  unsigned batch_size = 0;  // GNU's --batch-size: most runs merged at once; 0: planned from the budget
  GpuMode gpu = GpuMode::Auto;
  std::uint64_t gpu_memory = 0;
  bool progress = false;  // a progress line on standard error
  bool verbose = false;   // notes on the plan and stage times, to io.diagnostics
  // io.diagnostics receives the notes (with verbose) and the warnings, such as
  // a GPU failure the sort recovered from; nullptr says nothing.
  io::IoOptions io;
};

bool is_text_format(std::string_view format);

// Checks the request as a whole, the way GNU sort does before reading
// anything (incompatible options, options of another format, bad keys).
// Throws UsageError. sort() and check() call it too.
void validate(const SortRequest& request);

// Sorts request.inputs into request.output. Throws UsageError, InputError,
// LimitError (too few descriptors, memory exhausted: the message names the
// limit) or io::IoError; on any throw the output target is untouched and no
// temporary file remains.
SortStats sort(const SortRequest& request);

struct CheckReport {
  bool sorted = true;
  // GNU's message for the first disorder, without the program name:
  // "FILE:LINE: disorder: TEXT" for text, "FILE: disorder at record N" for binary.
  std::string diagnostic;
  char terminator = '\n';  // what ends the diagnostic: the record's own terminator (NUL under -z)
  std::uint64_t disorder_record = 0;  // 1-based number of the first record out of order (0: sorted)
  double seconds = 0;                 // the check's wall time
};

// -c / -C: whether the one input (request.inputs[0], or standard input) is in
// order; strictly so under -u.
CheckReport check(const SortRequest& request);

// --debug's warnings about dubious key definitions, as GNU sort words them.
std::vector<std::string> debug_warnings(const SortRequest& request);

// The --stats document: the request's inputs and options, the version, and
// what the sort did (records, runs, per-stage times, GPU share).
std::string stats_to_json(const SortStats& stats, const SortRequest& request);

// The --stats document of a check (-c, -C): the same inputs and options, then
// whether the input is sorted, where the first disorder is, and the time taken.
std::string check_stats_to_json(const CheckReport& report, const SortRequest& request);

}  // namespace corank
