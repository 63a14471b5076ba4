// corank: the command-line tool. Parses options, runs the sort or the check, and
// turns every failure into one line on stderr and a GNU exit status.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include "corank/check.hpp"
#include "corank/cli/cli_options.hpp"
#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/io/codec.hpp"
#include "corank/io/error.hpp"
#include "corank/io/source.hpp"
#include "corank/sort_options.hpp"
#include "corank/text/csv_format.hpp"
#include "corank/text/debug_view.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/text_sorter.hpp"
#include "corank/version.hpp"

namespace corank::cli {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitDisorder = 1;
constexpr int kExitError = 2;

// --verbose and --stats, after a sort.
void report(const CliOptions& c, const SortStats& stats);

// SIZE arguments with GNU sort's checks and messages: digits, then at most one
// suffix letter (b K M G T, %); "invalid -S argument 'X'" or "invalid suffix
// in -S argument 'X'".
std::uint64_t parse_size_option(const char* option, const std::string& text, bool bare_is_kib) {
  const std::string quoted = std::string(option) + " argument '" + text + "'";
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) throw UsageError("invalid " + quoted);
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (text.size() - i > 1 || (i < text.size() && std::strchr("bkKmMgGtT%", text[i]) == nullptr))
    throw UsageError("invalid suffix in " + quoted);
  try {
    return parse_size(text, bare_is_kib);
  } catch (const UsageError&) {
    throw UsageError(quoted + " too large");
  }
}

// -S SIZE: 0 asks for the least memory the sorter can work in (0 in
// SortOptions means the default).
std::uint64_t buffer_size(const CliOptions& c) {
  return c.buffer_size_given ? std::max<std::uint64_t>(1, parse_size_option("-S", c.buffer_size, true)) : 0;
}

// Checks GNU sort makes before reading anything, and the --stats file's
// directory, so that a sort never ends in an error it could have found first.
void check_options(const CliOptions& c, bool check, bool check_quiet) {
  if (c.buffer_size_given) (void)buffer_size(c);
  if (!c.gpu_memory.empty()) (void)parse_size_option("--gpu-memory", c.gpu_memory, false);
  if (c.field_separator_given && c.field_separator.empty()) throw UsageError("empty tab");
  if (c.parallel_given && c.parallel == 0) throw UsageError("number in parallel must be nonzero");
  if (check && check_quiet) throw UsageError("options '-cC' are incompatible");
  if (!c.stats_file.empty()) {
    const auto slash = c.stats_file.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : c.stats_file.substr(0, slash == 0 ? 1 : slash);
    struct stat st {};
    const bool exists = ::stat(c.stats_file.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) throw io::IoError("cannot write statistics", c.stats_file, EISDIR);
    if (exists ? ::access(c.stats_file.c_str(), W_OK) != 0 : ::access(dir.c_str(), W_OK | X_OK) != 0)
      throw io::IoError("cannot write statistics", c.stats_file, errno);
  }
}

// The codec of spilled runs: --compress-temp[=CODEC], or GNU's
// --compress-program=PROG where PROG is zstd or gzip (or their parallel forms).
io::Codec temp_codec(const CliOptions& c) {
  const std::string& name = c.compress_temp.empty() ? c.compress_program : c.compress_temp;
  if (name.empty()) return io::Codec::none;
  return name == "gzip" || name == "pigz" ? io::Codec::gzip : io::Codec::zstd;
}

bool is_text_format(const std::string& f) { return f == "lines" || f == "csv" || f == "tsv"; }

// Options that only mean something for text; named in the error for a binary format.
void reject_text_options(const CliOptions& c) {
  const std::pair<bool, const char*> text_only[] = {
      {c.ignore_leading_blanks, "-b"}, {c.dictionary_order, "-d"}, {c.ignore_case, "-f"},
      {c.general_numeric, "-g"},       {c.human_numeric, "-h"},    {c.ignore_nonprinting, "-i"},
      {c.month_sort, "-M"},            {c.numeric_sort, "-n"},     {c.version_sort, "-V"},
      {!c.sort_word.empty(), "--sort"}, {!c.field_separator.empty(), "-t"}, {c.zero_terminated, "-z"},
      {c.merge, "-m"},                 {!c.files0_from.empty(), "--files0-from"}, {c.debug, "--debug"},
      {!c.delimiter.empty(), "--delimiter"}, {c.header, "--header"}};
  for (const auto& [set, name] : text_only)
    if (set) throw UsageError(std::string("option ") + name + " applies to text formats (lines, csv, tsv), not '" +
                              c.format + "'");
}

// FILE operands, or the NUL-separated names in --files0-from's file.
std::vector<std::string> input_files(const CliOptions& c) {
  if (c.files0_from.empty()) return c.files;
  if (!c.files.empty()) throw UsageError("extra operand '" + c.files[0] + "'; file operands cannot be combined with --files0-from");
  auto src = io::open_source(c.files0_from, io::IoOptions{});
  std::string all;
  char buf[65536];
  for (std::size_t n; (n = src->read(buf, sizeof buf)) > 0;) {
    all.append(buf, n);
    if (n < sizeof buf) break;
  }
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < all.size()) {
    std::size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    std::string name = all.substr(start, end - start);
    if (name.empty())
      throw UsageError(c.files0_from + ":" + std::to_string(names.size() + 1) + ": invalid zero-length file name");
    if (name == "-" && c.files0_from == "-")
      throw UsageError("when reading file names from stdin, no file name of '-' allowed");
    names.push_back(std::move(name));
    start = end + 1;
  }
  if (names.empty()) throw UsageError("no input from '" + c.files0_from + "'");
  return names;
}

text::KeyField global_ordering(const CliOptions& c) {
  text::KeyField g;
  std::string letters;
  if (c.ignore_leading_blanks) letters += 'b';
  if (c.dictionary_order) letters += 'd';
  if (c.ignore_case) letters += 'f';
  if (c.general_numeric || c.sort_word == "general-numeric") letters += 'g';
  if (c.human_numeric || c.sort_word == "human-numeric") letters += 'h';
  if (c.ignore_nonprinting) letters += 'i';
  if (c.month_sort || c.sort_word == "month") letters += 'M';
  if (c.numeric_sort || c.sort_word == "numeric") letters += 'n';
  if (c.reverse) letters += 'r';
  if (c.version_sort || c.sort_word == "version") letters += 'V';
  text::apply_ordering_letters(letters, g, text::BlankSide::Both);
  return g;
}

text::LineOrdering line_ordering(const CliOptions& c) {
  std::vector<text::KeyField> keys;
  for (const auto& k : c.keys) keys.push_back(text::parse_keydef(k));
  const int tab = c.field_separator.empty() ? text::kNoTab : text::parse_tab(c.field_separator);
  return text::resolve_ordering(std::move(keys), global_ordering(c), tab, c.stable, c.unique,
                                c.zero_terminated ? '\0' : '\n');
}

std::unique_ptr<text::TextFormat> make_text_format(const CliOptions& c) {
  if (c.format == "lines") {
    if (!c.delimiter.empty() || c.header) throw UsageError("--delimiter and --header apply to --format csv or tsv");
    return std::make_unique<text::LineFormat>(line_ordering(c));
  }
  if (!c.field_separator.empty()) throw UsageError("-t applies to --format lines; CSV takes --delimiter");
  if (c.zero_terminated) throw UsageError("-z applies to --format lines");
  text::CsvOptions o;
  o.delimiter = c.format == "tsv" ? '\t' : ',';
  if (!c.delimiter.empty()) {
    if (c.delimiter.size() != 1 || c.delimiter[0] == '"' || c.delimiter[0] == '\n' || c.delimiter[0] == '\r')
      throw UsageError("invalid --delimiter '" + c.delimiter + "': one byte other than quote, CR and LF");
    o.delimiter = c.delimiter[0];
  }
  o.header = c.header;
  o.keys = c.keys;
  o.global = global_ordering(c);
  o.stable = c.stable;
  o.unique = c.unique;
  return std::make_unique<text::CsvFormat>(std::move(o));
}

int run_text(const CliOptions& c, bool check, bool check_quiet) {
  if (c.verify) throw UsageError("--verify applies to binary formats");
  auto format = make_text_format(c);
  if (c.debug) {
    if (check || check_quiet)
      throw UsageError(std::string("options '-") + (check_quiet ? 'C' : 'c') + " --debug' are incompatible");
    if (c.output_named) throw UsageError("options '-o --debug' are incompatible");
    if (!format->can_debug()) throw UsageError("--debug applies to --format lines");
    for (const std::string& w : text::debug_warnings(line_ordering(c), global_ordering(c), c.keys.empty()))
      std::fprintf(stderr, "corank: %s\n", w.c_str());
  }
  const std::vector<std::string> files = input_files(c);
  io::IoOptions io;
  io.verbose = c.verbose;
  io.sync_output = !c.no_fsync;
  if (c.io_engine == "pread") io.use_uring = false;
  io.temp_codec = temp_codec(c);
  if (check || check_quiet) {
    if (c.output != "-") throw UsageError(std::string("options '-") + (check_quiet ? 'C' : 'c') + "o' are incompatible");
    if (files.size() > 1) throw UsageError("extra operand '" + files[1] + "' not allowed with -c");
    const std::string path = files.empty() ? "-" : files[0];
    const text::TextCheckResult r = text::check_text(path, *format, io);
    if (r.sorted) return kExitOk;
    if (!check_quiet) {
      std::fprintf(stderr, "corank: %s:%llu: disorder: ", path.c_str(), static_cast<unsigned long long>(r.record_number));
      std::fwrite(r.record.data(), 1, r.record.size(), stderr);
      std::fputc(format->terminator(), stderr);
    }
    return kExitDisorder;
  }
  text::TextSortOptions o;
  o.inputs = files;
  o.output = c.output;
  o.memory_budget = buffer_size(c);
  o.temp_dirs = c.temp_dirs;
  o.threads = c.parallel;
  o.merge_only = c.merge;
  o.debug = c.debug;
  o.progress = c.progress.value_or(::isatty(STDERR_FILENO) == 1);
  o.verbose = c.verbose;
  o.gpu = c.gpu == "on" ? GpuMode::On : c.gpu == "off" ? GpuMode::Off : GpuMode::Auto;
  if (!c.gpu_memory.empty()) o.gpu_memory = parse_size_option("--gpu-memory", c.gpu_memory, false);
  o.io = io;
  const SortStats stats = text::sort_text(o, *format);
  report(c, stats);
  return kExitOk;
}

SortOptions to_sort_options(const CliOptions& c) {
  SortOptions o;
  o.inputs = c.files;
  o.output = c.output;
  o.format = parse_format(c.format, c.keys);
  o.reverse = c.reverse;
  o.unique = c.unique;
  o.memory_budget = buffer_size(c);
  o.temp_dirs = c.temp_dirs;
  o.threads = c.parallel;
  o.verify = c.verify;
  o.gpu = c.gpu == "on" ? GpuMode::On : c.gpu == "off" ? GpuMode::Off : GpuMode::Auto;
  if (!c.gpu_memory.empty()) o.gpu_memory = parse_size_option("--gpu-memory", c.gpu_memory, false);
  o.progress = c.progress.value_or(::isatty(STDERR_FILENO) == 1);
  o.verbose = c.verbose;
  o.io.verbose = c.verbose;
  o.io.sync_output = !c.no_fsync;
  if (c.io_engine == "pread") o.io.use_uring = false;
  o.io.temp_codec = temp_codec(c);
  return o;
}

int run_check(const CliOptions& c, bool quiet) {
  if (c.files.size() > 1) throw UsageError("extra operand '" + c.files[1] + "' not allowed with -c");
  const std::string path = c.files.empty() ? "-" : c.files[0];
  io::IoOptions io;
  if (c.io_engine == "pread") io.use_uring = false;
  CheckResult r = check_sorted(path, parse_format(c.format, c.keys), c.reverse, c.unique, io);
  if (r.sorted) return kExitOk;
  if (!quiet) std::fprintf(stderr, "corank: %s: disorder at record %llu\n", path.c_str(),
                           static_cast<unsigned long long>(r.first_disorder));
  return kExitDisorder;
}

int run(const CliOptions& c, bool check, bool check_quiet) {
  check_options(c, check, check_quiet);
  if (is_text_format(c.format)) return run_text(c, check, check_quiet);
  reject_text_options(c);
  if (check || check_quiet) return run_check(c, check_quiet);
  const SortOptions options = to_sort_options(c);
  const SortStats stats = sort_files(options);
  report(c, stats);
  return kExitOk;
}

void report(const CliOptions& c, const SortStats& stats) {
  if (c.verbose)
    std::fprintf(stderr, "corank: sorted %llu records (%s, %llu runs) in %.3f s\n",
                 static_cast<unsigned long long>(stats.records_in), stats.mode.c_str(),
                 static_cast<unsigned long long>(stats.runs), stats.seconds.total);
  if (!c.stats_file.empty()) {
    std::ofstream f(c.stats_file);
    f << stats_to_json(stats);
    if (!f) throw io::IoError("write failed", c.stats_file, "cannot write statistics");
  }
}

}  // namespace
}  // namespace corank::cli

int main(int argc, char** argv) {
  using namespace corank::cli;
  CLI::App app{"", "corank"};
  app.set_help_flag("--help", "Print this help message and exit");  // -h is GNU's --human-numeric-sort
  app.set_version_flag("--version", std::string("corank ") + corank::version());
  app.get_formatter()->column_width(34);
  CliOptions options;
  bind_options(app, options);
  try {
    // GNU optional arguments attach with '=' only: a bare --check or
    // --compress-temp never takes the next word, which may be a file name.
    static char bare_check[] = "--check=diagnose-first";
    static char bare_compress_temp[] = "--compress-temp=zstd";
    std::vector<char*> args(argv, argv + argc);
    for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
      if (std::strcmp(argv[i], "--check") == 0) args[static_cast<std::size_t>(i)] = bare_check;
      if (std::strcmp(argv[i], "--compress-temp") == 0) args[static_cast<std::size_t>(i)] = bare_compress_temp;
    }
    app.parse(argc, args.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "corank: %s\nTry 'corank --help' for more information.\n", e.what());
    return kExitError;
  }
  options.output_named = app.count("--output") > 0;
  options.buffer_size_given = app.count("--buffer-size") > 0;
  options.field_separator_given = app.count("--field-separator") > 0;
  options.parallel_given = app.count("--parallel") > 0;
  const bool check = options.check || (app.count("--check") > 0 && options.check_mode != "quiet" &&
                                       options.check_mode != "silent");
  const bool check_quiet = options.check_quiet || options.check_mode == "quiet" || options.check_mode == "silent";
  try {
    return run(options, check, check_quiet);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "corank: memory exhausted (try a smaller -S)\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank: %s\n", e.what());
  }
  return kExitError;
}
