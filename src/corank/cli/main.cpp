// corank: the command-line tool. Parses options, runs the sort or the check, and
// turns every failure into one line on stderr and a GNU exit status.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <new>
#include <string>

#include "corank/check.hpp"
#include "corank/cli/cli_options.hpp"
#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/io/codec.hpp"
#include "corank/io/error.hpp"
#include "corank/sort_options.hpp"
#include "corank/version.hpp"

namespace corank::cli {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitDisorder = 1;
constexpr int kExitError = 2;

SortOptions to_sort_options(const CliOptions& c, bool compress_temp) {
  SortOptions o;
  o.inputs = c.files;
  o.output = c.output;
  o.format = parse_format(c.format, c.keys);
  o.reverse = c.reverse;
  o.unique = c.unique;
  if (!c.buffer_size.empty()) o.memory_budget = parse_size(c.buffer_size);
  if (!c.buffer_size.empty() && o.memory_budget == 0) throw UsageError("invalid buffer size '" + c.buffer_size + "'");
  o.temp_dirs = c.temp_dirs;
  o.threads = c.parallel;
  o.verify = c.verify;
  o.gpu = c.gpu == "on" ? GpuMode::On : c.gpu == "off" ? GpuMode::Off : GpuMode::Auto;
  if (!c.gpu_memory.empty()) o.gpu_memory = parse_size(c.gpu_memory, false);
  o.progress = c.progress.value_or(::isatty(STDERR_FILENO) == 1);
  o.verbose = c.verbose;
  o.io.verbose = c.verbose;
  if (c.io_engine == "pread") o.io.use_uring = false;
  if (compress_temp) o.io.temp_codec = c.compress_temp == "gzip" ? io::Codec::gzip : io::Codec::zstd;
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

int run(const CliOptions& c, bool check, bool check_quiet, bool compress_temp) {
  if (check || check_quiet) return run_check(c, check_quiet);
  const SortOptions options = to_sort_options(c, compress_temp);
  const SortStats stats = sort_files(options);
  if (c.verbose)
    std::fprintf(stderr, "corank: sorted %llu records (%s, %llu runs) in %.3f s\n",
                 static_cast<unsigned long long>(stats.records_in), stats.mode.c_str(),
                 static_cast<unsigned long long>(stats.runs), stats.seconds.total);
  if (!c.stats_file.empty()) {
    std::ofstream f(c.stats_file);
    f << stats_to_json(stats);
    if (!f) throw io::IoError("write failed", c.stats_file, "cannot write statistics");
  }
  return kExitOk;
}

}  // namespace
}  // namespace corank::cli

int main(int argc, char** argv) {
  using namespace corank::cli;
  CLI::App app{"", "corank"};
  app.set_version_flag("--version", std::string("corank ") + corank::version());
  app.get_formatter()->column_width(34);
  CliOptions options;
  bind_options(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "corank: %s\nTry 'corank --help' for more information.\n", e.what());
    return kExitError;
  }
  const bool check = options.check || (app.count("--check") > 0 && options.check_mode != "quiet" &&
                                       options.check_mode != "silent");
  const bool check_quiet = options.check_quiet || options.check_mode == "quiet" || options.check_mode == "silent";
  try {
    return run(options, check, check_quiet, app.count("--compress-temp") > 0);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "corank: memory exhausted (try a smaller -S)\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank: %s\n", e.what());
  }
  return kExitError;
}
