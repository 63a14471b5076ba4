#pragma once
// The command line: an options struct bound to CLI11, kept apart from the code
// that acts on it (cli/main.cpp).
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace corank::cli {

struct CliOptions {
  std::vector<std::string> files;
  std::string output = "-";
  bool output_named = false;  // -o was given (set after parsing)
  // Options given with an empty argument are errors, as in GNU sort (set after parsing).
  bool buffer_size_given = false, field_separator_given = false, parallel_given = false;
  std::string format = "lines";
  std::vector<std::string> keys;  // -k/--key: a GNU KEYDEF for lines, a column for CSV, OFFSET:LENGTH otherwise
  // GNU sort's global ordering options (text formats).
  bool ignore_leading_blanks = false, dictionary_order = false, ignore_case = false;
  bool general_numeric = false, human_numeric = false, ignore_nonprinting = false;
  bool month_sort = false, numeric_sort = false, version_sort = false;
  std::string sort_word;  // --sort=WORD
  std::string field_separator;  // -t
  bool zero_terminated = false, merge = false;
  std::string files0_from;
  // CSV/TSV
  std::string delimiter;
  bool header = false;
  std::string buffer_size;
  std::vector<std::string> temp_dirs;
  unsigned parallel = 0;
  bool reverse = false, stable = false, unique = false;
  bool check = false, check_quiet = false;
  std::string check_mode;
  bool verify = false;
  std::string gpu = "auto";
  std::string gpu_memory;
  std::optional<bool> progress;
  std::string stats_file;
  std::string io_engine = "auto";
  bool no_fsync = false;
  std::string compress_temp;     // codec name; empty: spilled runs are not compressed
  std::string compress_program;  // GNU's --compress-program: zstd, gzip and their parallel forms
  bool verbose = false;
  bool debug = false;
};

// Declares every option on `app`, bound to `o`.
void bind_options(CLI::App& app, CliOptions& o);

}  // namespace corank::cli
