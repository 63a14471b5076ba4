// corank: the command-line tool. Parses the command line (args.hpp), hands the
// request to the library (sort.hpp), and turns every failure into one line on
// stderr and a GNU exit status.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "corank/cli/args.hpp"
#include "corank/cli/program_signals.hpp"
#include "corank/cli/startup_checks.hpp"
#include "corank/cli/unread_keys.hpp"
#include "corank/errors.hpp"
#include "corank/io/diagnostics.hpp"
#include "corank/io/error.hpp"
#include "corank/io/source.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/request_options.hpp"
#include "corank/sort.hpp"
#include "corank/version.hpp"

namespace corank::cli {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitDisorder = 1;
constexpr int kExitError = 2;

// The library's notes and warnings, on stderr after the program's name.
class StderrDiagnostics final : public io::Diagnostics {
public:
  void note(std::string_view line) override { say(line); }
  void warning(std::string_view line) override { say(line); }

private:
  static void say(std::string_view line) {
    std::fprintf(stderr, "corank: %.*s\n", static_cast<int>(line.size()), line.data());
  }
};

// The --stats target is checked before sorting, so that a sort never ends in
// an error it could have found first; "-" is standard output, which must then
// not also carry the sorted output.
void check_stats_file(const Invocation& inv) {
  const std::string& f = inv.stats_file;
  if (f.empty()) return;
  if (f == "-") {
    if (inv.request.output == "-" && inv.action == Action::Sort)
      throw UsageError("--stats - needs the sorted output elsewhere (-o FILE)");
    return;
  }
  const auto slash = f.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : f.substr(0, slash == 0 ? 1 : slash);
  struct stat st {};
  const bool exists = ::stat(f.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw io::IoError("cannot write statistics", f, EISDIR);
  if (exists ? ::access(f.c_str(), W_OK) != 0 : ::access(dir.c_str(), W_OK | X_OK) != 0)
    throw io::IoError("cannot write statistics", f, errno);
}

// The NUL-separated names in --files0-from's file, with GNU's checks.
std::vector<std::string> files0_names(const std::string& from) {
  if (from.empty()) throw io::IoError("open failed", "", ENOENT);  // as GNU's: no file has that name
  std::string all;
  try {
    auto src = io::open_source(from, io::IoOptions{});
    char buf[65536];
    for (std::size_t n; (n = src->read(buf, sizeof buf)) > 0;) all.append(buf, n);
  } catch (const io::IoError& e) {
    // A list that opens but cannot be read (a directory) is GNU's "cannot
    // read file names from"; one that does not open keeps "open failed".
    if (!std::string_view(e.what()).starts_with("read failed")) throw;
    throw io::IoError("cannot read file names from", from == "-" ? "standard input" : from, e.error_code());
  }
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < all.size()) {
    std::size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    std::string name = all.substr(start, end - start);
    if (name.empty()) throw UsageError(from + ":" + std::to_string(names.size() + 1) + ": invalid zero-length file name");
    // GNU's check, whichever file the names come from: standard input cannot
    // be one of them.
    if (name == "-") throw UsageError("when reading file names from stdin, no file name of '-' allowed");
    names.push_back(std::move(name));
    start = end + 1;
  }
  if (names.empty()) throw UsageError("no input from '" + from + "'");
  return names;
}

void write_stats(const Invocation& inv, const std::string& doc) {
  if (inv.stats_file.empty()) return;
  if (inv.stats_file == "-") {
    if (std::fwrite(doc.data(), 1, doc.size(), stdout) != doc.size() || std::fflush(stdout) != 0)
      throw io::IoError("write failed", "standard output", errno);
    return;
  }
  std::ofstream f(inv.stats_file);
  f << doc;
  if (!f) throw io::IoError("write failed", inv.stats_file, "cannot write statistics");
}

int run(Invocation& inv) {
  SortRequest& r = inv.request;
  static StderrDiagnostics diagnostics;
  r.io.diagnostics = &diagnostics;
  if (inv.files0_from) r.inputs = files0_names(*inv.files0_from);
  r.progress = inv.progress.value_or(::isatty(STDERR_FILENO) == 1);
  r.locale = "";  // lines follow LC_ALL, LC_COLLATE, ..., LANG, as GNU sort does
  validate(r);
  for (const std::string& w : request::zone_pattern_warnings(r)) diagnostics.warning(w);
  check_stats_file(inv);
  if (inv.action == Action::Check || inv.action == Action::CheckQuiet) {
    const CheckReport c = check(r);
    write_stats(inv, check_stats_to_json(c, r));
    if (c.sorted) return kExitOk;
    if (inv.action == Action::Check) {
      std::fprintf(stderr, "corank: %s", c.diagnostic.c_str());
      std::fputc(c.terminator, stderr);
    }
    return kExitDisorder;
  }
  check_inputs(r.inputs);
  check_output(r.output);
  if (r.debug)
    for (const std::string& w : debug_warnings(r)) std::fprintf(stderr, "corank: %s\n", w.c_str());
  const SortStats stats = sort(r);
  if (r.verbose)
    std::fprintf(stderr, "corank: sorted %llu records (%s, %llu runs) in %.3f s\n",
                 static_cast<unsigned long long>(stats.records_in), stats.mode.c_str(),
                 static_cast<unsigned long long>(stats.runs), stats.seconds.total);
  // Under --debug each such record shows its key unmatched already.
  if (const std::string unread = r.debug ? "" : unread_keys_line(stats, r); !unread.empty())
    std::fprintf(stderr, "corank: %s\n", unread.c_str());
  write_stats(inv, stats_to_json(stats, r));
  return kExitOk;
}

// As GNU's close_stdout: text that could not be written (a full disk, a
// closed standard output) is an error, said on stderr.
int finish_stdout() {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return kExitOk;
  if (errno != 0)
    std::fprintf(stderr, "corank: write error: %s\n", std::strerror(errno));
  else
    std::fprintf(stderr, "corank: write error\n");
  return kExitError;
}

}  // namespace
}  // namespace corank::cli

int main(int argc, char** argv) {
  using namespace corank::cli;
  try {
    // Signals first, before any thread starts (program_signals.hpp); the
    // named temporary files of file systems without unnamed ones are removed.
    take_program_signals(&corank::io::unlink_registered_files);
    Invocation inv;
    try {
      inv = parse_args(argc, argv);
    } catch (const BadCommandLine& e) {
      if (*e.what()) std::fprintf(stderr, "corank: %s\n", e.what());
      std::fprintf(stderr, "Try 'corank --help' for more information.\n");
      return kExitError;
    }
    if (inv.action == Action::Help) {
      std::fputs(help_text().c_str(), stdout);
      return finish_stdout();
    }
    if (inv.action == Action::Version) {
      std::printf("corank %s\n", corank::version());
      return finish_stdout();
    }
    return run(inv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "corank: memory exhausted (try a smaller -S)\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank: %s\n", e.what());
  }
  return kExitError;
}
