// Differential tests of `corank --format lines` against GNU sort in the C
// locale: random inputs under a matrix of options, with the memory budget of a
// one-chunk in-memory sort and budgets tiny enough to spill many runs and
// merge them in several passes; outputs must be byte-identical. Plus -c/-C,
// -m, -z, --files0-from, -o onto an input, and the error paths.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

using corank::test::corank_bin;
using corank::test::read_file;
using corank::test::Result;
using corank::test::run_shell;
using corank::test::under_open_file_limit;
using corank::test::write_file;

// What the GNU sort on this machine says about `lines` under `options`: its
// first output line.
std::string gnu_first_line(const std::string& lines, const std::string& options) {
  FILE* p = ::popen(("printf '" + lines + "' | LC_ALL=C sort " + options + " | head -n 1").c_str(), "r");
  if (p == nullptr) return {};
  char buf[64] = {};
  const bool got = std::fgets(buf, sizeof buf, p) != nullptr;
  ::pclose(p);
  return got ? buf : "";
}

// corank follows coreutils 9.4, which differs from 9.1 (Debian 12) in two
// corners: -h knows the suffixes R and Q, and -V takes a leading-dot name such
// as ".abc" for a prefix, not a suffix. Against an older GNU sort the random
// lines leave out R, Q and a leading '.' before letters; the unit tests cover
// both rules.
// What a command prints on stdout and stderr together.
std::string command_output(const std::string& cmd) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return {};
  std::string out;
  char buf[256];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ::pclose(p);
  return out;
}

struct ReferenceRules {
  bool ronna_quetta = gnu_first_line("1Q\\n1Y\\n", "-h") == "1Y\n";
  bool dot_names_are_prefixes = gnu_first_line(".a\\n.5\\n", "-V") == ".5\n";
  // --debug's warnings are worded as corank words them (coreutils 9.1 to 9.4;
  // later versions drop the "note" before "numbers use").
  bool debug_warnings_alike = command_output("LC_ALL=C sort --debug -n /dev/null") ==
                              "sort: text ordering performed using simple byte comparison\n"
                              "sort: note numbers use '.' as a decimal point in this locale\n";
};
const ReferenceRules& reference_rules() {
  static const ReferenceRules rules;
  return rules;
}

// Random fields of the kinds GNU's orderings care about.
class LineGenerator {
public:
  explicit LineGenerator(std::uint32_t seed) : rng_(seed) {}

  std::string field() {
    switch (pick(14)) {
      case 0: return std::to_string(static_cast<long long>(rng_() % 2001) - 1000);
      case 1: return (pick(3) == 0 ? "-" : "") + std::to_string(rng_() % 1000) + "." + digits(pick(4));
      case 2: return (pick(2) ? "+" : "") + std::to_string(rng_() % 100) + "e" + std::to_string(int(pick(21)) - 10);
      case 3: return std::to_string(rng_() % 1000) + unit();
      case 4: return month();
      case 5: return version();
      case 6: return word();
      case 7: return std::string(pick(3), ' ') + std::to_string(rng_() % 50);  // leading blanks
      case 8: return std::string(pick(4), '0') + digits(1 + pick(3));         // leading zeros
      // No NaNs: GNU 9.1 orders two NaNs by their long double's bytes, padding
      // included, which no other program can reproduce.
      case 9: return pick(2) ? "inf" : (pick(2) ? "-inf" : "0x1p" + std::to_string(pick(8)));
      case 10: return "";
      case 11: return std::string(1, static_cast<char>(0x80 + pick(128))) + word();  // bytes above 0x7f
      case 12: return punctuation() + word();  // punctuation, controls
      default: return pick(2) ? "-0" : (pick(2) ? ".5" : "-.25");
    }
  }

  std::string line() {
    const unsigned kind = pick(40);
    if (kind == 0) return "";                               // empty line
    if (kind == 1) return std::string(3000 + pick(3000), static_cast<char>('a' + pick(3)));  // long line
    if (kind == 2 && !lines_.empty()) return lines_[pick(static_cast<unsigned>(lines_.size()))];  // duplicate
    std::string s;
    const unsigned n = 1 + pick(5);
    for (unsigned i = 0; i < n; ++i) {
      if (i) s += separator();
      s += field();
    }
    if (pick(8) == 0) s = std::string(1 + pick(2), pick(2) ? ' ' : '\t') + s;
    lines_.push_back(s);
    return s;
  }

  // n lines, newline-terminated; the last one sometimes without.
  std::string text(unsigned n, char eol = '\n') {
    std::string s;
    for (unsigned i = 0; i < n; ++i) s += line() + eol;
    if (!s.empty() && pick(2)) s.pop_back();
    return s;
  }

  unsigned pick(unsigned n) { return static_cast<unsigned>(rng_() % n); }

private:
  std::string unit() {
    const char u = "KMGTPEZYkbQR"[pick(12)];
    if ((u == 'Q' || u == 'R') && !reference_rules().ronna_quetta) return "Y";
    return std::string(1, u);
  }
  std::string punctuation() {
    const char c = "\x01\x1f\x7f!,.;:-_"[pick(10)];
    if (c == '.' && !reference_rules().dot_names_are_prefixes) return ";";
    return std::string(1, c);
  }
  std::string digits(unsigned n) {
    std::string s;
    for (unsigned i = 0; i < n; ++i) s += static_cast<char>('0' + pick(10));
    return s;
  }
  std::string word() {
    static const char* const kAlphabet = "aAbBcCxXyYzZ";
    std::string s;
    for (unsigned i = 0, n = 1 + pick(6); i < n; ++i) s += kAlphabet[pick(12)];
    return s;
  }
  std::string month() {
    static const char* const kMonths[] = {"jan", "FEB", "Mar", "apr", "MAY", "jun", "Jul",
                                          "aug", "SEP", "oct", "Nov", "dec", "xyz", "ju"};
    std::string m = kMonths[pick(14)];
    if (pick(3) == 0) m = " " + m + "uary";
    return m;
  }
  std::string version() {
    std::string v = pick(3) ? "v" : "";
    for (unsigned i = 0, n = 1 + pick(4); i < n; ++i) v += (i ? "." : "") + std::to_string(pick(12));
    static const char* const kSuffix[] = {"", "", "~rc1", "a", "-beta2", ".tar.gz", "~", ".orig"};
    return v + kSuffix[pick(8)];
  }
  std::string separator() {
    switch (pick(6)) {
      case 0: return "\t";
      case 1: return "  ";
      case 2: return ",";
      case 3: return ":";
      default: return " ";
    }
  }

  std::mt19937 rng_;
  std::vector<std::string> lines_;
};

class Lines : public corank::test::CorankTest {
protected:
  // corank follows the locale as GNU sort does: both run in the C locale here
  // (locale_test.cpp compares them under others).
  void SetUp() override {
    CorankTest::SetUp();
    ::setenv("LC_ALL", "C", 1);
  }
  Result gnu(const std::string& args) { return run_shell("LC_ALL=C sort " + args, dir_ / "gnu.err"); }

  // Sorts `files` with GNU and with corank under each budget; outputs must
  // match. The budgets: in memory; many runs merged in several passes by one
  // thread, or in key ranges by several (to standard output, the last merge by
  // one loser tree; to a named file, the last merge in key ranges too).
  void expect_same(const std::string& opts, const std::string& files) {
    Result g = gnu(opts + " " + files + " > " + path("want"));
    ASSERT_EQ(g.status, 0) << "GNU sort " << opts << ": " << g.err;
    const std::string want = read_file(path("want"));
    const std::string to_file = "-S 24K --parallel 3 -o " + path("got");
    const std::string budgets[] = {"", "-S 4K --parallel 1", "-S 64K --parallel 2", to_file};
    for (std::size_t b = 0; b < std::size(budgets); ++b) {
      if (!sweep_.takes(b, std::size(budgets))) continue;
      const std::string& budget = budgets[b];
      const std::string to = budget == to_file ? "" : " > " + path("got");
      Result r = run(opts + " " + budget + " -T " + path("tmp") + " " + files + to);
      ASSERT_EQ(r.status, 0) << opts << " " << budget << ": " << r.err;
      const std::string got = read_file(path("got"));
      ASSERT_EQ(got.size(), want.size()) << "options: " << opts << " " << budget;
      ASSERT_TRUE(got == want) << "options: " << opts << " " << budget << "\nfirst difference at byte "
                               << std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin();
      EXPECT_TRUE(fs::is_empty(dir_ / "tmp")) << "temporary files left behind";
    }
    sweep_.next();
  }

  corank::test::Sweep sweep_;
};

// Global options, keys, separators: the whole matrix on the same random file.
const char* const kOptionMatrix[] = {
    "",          "-r",          "-n",           "-nr",          "-g",           "-gr",
    "-h",        "-hr",         "-M",           "-Mr",          "-V",           "-Vr",
    "-f",        "-d",          "-i",           "-b",           "-fd",          "-fi",
    "-u",        "-ur",         "-nu",          "-fu",          "-s",           "-sr",
    "-sn",       "-k2",         "-k2,2",        "-k2,2n",       "-k2n,2 -k1,1r", "-k3,3g -k1,1",
    "-k2,2h",    "-k2,2M -k3",  "-k2,2V",       "-k1.2,1.4",    "-k2.2b,2.3",   "-b -k2,2",
    "-k2b,2",    "-k2,2b",      "-k1,1 -k2,2nr", "-k2,2n -u",   "-k2,2 -s",     "-k2,2 -su",
    "-s -r -k2,2n", "-k2,2f -u", "-k2,2d",      "-k2,2i",       "-k3.2,3.5n",   "-k2.3",
    "-k1.5",     "-k5,5 -k4,4n", "-k2,1",       "-r -k2,2",     "-r -k2b,2",    "-n -k2,2",
    "-t, -k2,2", "-t, -k2,2n -k1,1", "-t: -k2 -s", "-t, -k3,3g -u", "-t, -k1.2,1.3", "-t ' ' -k2,2",
    "-t ' ' -k3", "-k2,2 -k1,1 -k3,3r -s", "--sort=numeric -k2", "-bnk2", "-dfr", "-k2,2.0",
    "-t \"$(printf '\\t')\" -k2,2n", "-k2.5b,3.2nr", "-bt, -k2", "-k1,1 -k1,1r", "-g -k2", "-h -s",
    "-M -u", "-V -u", "-fu -k2,2", "-i -u", "-d -s -r", "-k2,2g -s -r", "-t, -k2,2h -k1,1V",
    // GNU's other forms: obsolete +POS keys, long-option prefixes, clustered
    // letters, -f before numeric orderings, --batch-size.
    "+1", "+1 -2", "+0.2 -1.3n", "+1n -2 +0r", "--rev --num", "--sort=num -k2", "-nrk2", "-fh", "-k2,2fh",
    "-fn -k2", "-fM", "-fg -s", "--batch-size=2", "--batch=3 -k2,2n", "--ignore-c --dict",
};

TEST_F(Lines, MatchesGnuSortUnderOptionMatrix) {
  LineGenerator gen(20261122);
  write_file(path("in"), gen.text(1500));
  for (const char* opts : kOptionMatrix) {
    SCOPED_TRACE(opts);
    expect_same(opts, path("in"));
  }
}

// --debug: the key marks under every output line must be GNU's, byte for
// byte, in memory and from spilled runs; so must the warnings about the keys.
TEST_F(Lines, DebugMarksAndWarningsMatchGnu) {
  LineGenerator gen(20261123);
  write_file(path("in"), gen.text(300));
  std::vector<std::string> option_sets(std::begin(kOptionMatrix), std::end(kOptionMatrix));
  for (const char* more : {"-k1.3,1.1", "-k2,1 -k1,1", "-t. -k1n", "-t- -k1n", "-t+ -k1g", "-t. -k1,1n", "-n -k1,1f",
                           "-r -k1,1n", "-rs -k1,1n", "-f -d -k2,2", "-k1.2b,1.3", "-k1,1.2", "-M -k2,2b", "-m",
                           "-z", "-z -k2,2n", "-n -f -k1,1V", "-b -r -s -k2,2n"})
    option_sets.emplace_back(more);
  for (const std::string& opts : option_sets) {
    SCOPED_TRACE(opts);
    const std::string input = opts.rfind("-m", 0) == 0 ? path("sorted") : path("in");
    if (opts == "-m") ASSERT_EQ(gnu(path("in") + " > " + path("sorted")).status, 0);
    Result g = gnu("--debug " + opts + " " + input + " > " + path("want"));
    ASSERT_EQ(g.status, 0) << g.err;
    const std::string want = read_file(path("want"));
    std::string want_err = g.err;
    for (std::size_t at = 0; (at = want_err.find("sort: ", at)) != std::string::npos; at += 8)
      want_err.replace(at, 6, "corank: ");
    const char* const budgets[] = {"", "-S 4K --parallel 1", "-S 64K --parallel 3"};
    for (std::size_t b = 0; b < std::size(budgets); ++b) {
      if (!sweep_.takes(b, std::size(budgets))) continue;
      const char* budget = budgets[b];
      Result r = run("--debug " + opts + " " + budget + " -T " + path("tmp") + " " + input + " > " + path("got"));
      ASSERT_EQ(r.status, 0) << budget << ": " << r.err;
      ASSERT_TRUE(read_file(path("got")) == want) << budget;
      if (reference_rules().debug_warnings_alike) EXPECT_EQ(r.err, want_err) << budget;
    }
    sweep_.next();
  }
}

TEST_F(Lines, DebugRefusesOutputFilesAndChecks) {
  write_file(path("in"), "b\na\n");
  for (const char* opts : {"-o out", "-o -", "-c", "-C", "--check=quiet"}) {
    SCOPED_TRACE(opts);
    Result g = gnu(std::string("--debug ") + opts + " " + path("in"));
    Result r = run(std::string("--debug ") + opts + " " + path("in"));
    EXPECT_EQ(g.status, 2);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "corank: " + g.err.substr(6));
  }
  EXPECT_FALSE(fs::exists("out"));
  for (const char* opts : {"--format u32", "--format gensort"}) {
    Result r = run(std::string("--debug ") + opts + " " + path("in"));
    EXPECT_EQ(r.status, 2) << opts;
    EXPECT_NE(r.err.find("--debug"), std::string::npos) << r.err;
  }
}

TEST_F(Lines, MatchesGnuSortOnSeveralFilesAndSeeds) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    LineGenerator gen(seed);
    write_file(path("a"), gen.text(700));
    write_file(path("b"), gen.text(300));
    write_file(path("c"), "");
    write_file(path("d"), gen.text(1));
    for (const char* opts : {"", "-n", "-k2,2n -k1,1", "-u -k1,1", "-s -t, -k2,2"}) {
      SCOPED_TRACE(std::string(opts) + " seed " + std::to_string(seed));
      expect_same(opts, path("a") + " " + path("c") + " " + path("b") + " " + path("d"));
    }
  }
}

// Enough records that the chunk sort runs on several threads (slices merged
// through the k-way co-rank), in memory and with runs of many records.
TEST_F(Lines, ThreadedChunkSortMatchesGnu) {
  LineGenerator gen(99);
  std::string text;
  // Over 1 MiB, so that with more than two threads the input is split into
  // records by all of them, in RAM (--parallel 8) and in chunks (-S 9M).
  for (int i = 0; i < 150000; ++i) text += gen.field() + " " + gen.field() + "\n";
  write_file(path("in"), text);
  for (const char* opts : {"", "-k2,2n", "-u -k1,1", "-s -k1,1f"}) {
    // To a named file with several threads, each thread writes its own part of it.
    const std::vector<std::string> extras = {"--parallel 2", "--parallel 3 -S 300K", "--parallel 8",
                                             "--parallel 4 -S 9M", "--parallel 8 -o " + path("got"),
                                             "--parallel 5 --no-fsync -o " + path("got")};
    for (const std::string& extra : extras) {
      SCOPED_TRACE(std::string(opts) + " " + extra);
      Result g = gnu(std::string(opts) + " " + path("in") + " > " + path("want"));
      ASSERT_EQ(g.status, 0);
      const std::string to = extra.find(" -o ") == std::string::npos ? " > " + path("got") : "";
      Result r = run(std::string(opts) + " " + extra + " -T " + path("tmp") + " " + path("in") + to);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
    }
  }
}

// A line longer than a thread's part of a piece split by several threads:
// that part holds no record start (it was once a "vector::reserve" error).
// Read, and mapped where the input is in memory.
TEST_F(Lines, LinesLongerThanAThreadsPartOfAPiece) {
  std::string text;
  for (int i = 0; i < 60000; ++i)
    text += (i % 20000 == 11 ? std::string(700000, static_cast<char>('a' + i % 3)) : std::to_string(i * 7919 % 10007)) + "\n";
  write_file(path("in"), text);
  Result g = gnu(path("in") + " > " + path("want"));
  ASSERT_EQ(g.status, 0);
  for (const char* extra : {"--parallel 4", "--parallel 4 -S 6M", "--parallel 7 -S 20M"}) {
    for (const std::string& input : {path("in"), "- < " + path("in")}) {  // mapped, and read from standard input
      SCOPED_TRACE(std::string(extra) + " " + input);
      Result r = run(std::string(extra) + " -T " + path("tmp") + " " + input + " > " + path("got"));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
    }
  }
}

// --compress-temp: runs spilled and merged in several passes as zstd or gzip
// streams give the same output, and leave no temporary file.
TEST_F(Lines, CompressedSpilledRunsMatchGnu) {
  LineGenerator gen(31);
  write_file(path("in"), gen.text(3000));
  for (const char* codec : {"--compress-temp", "--compress-temp=gzip", "--compress-program=zstd", "--compress-temp=xz",
                            "--compress-program=/usr/bin/pbzip2"}) {
    for (const char* opts : {"", "-k2,2n -k1,1", "-u -k1,1", "-s -t, -k2,2", "-z"}) {
      SCOPED_TRACE(std::string(codec) + " " + opts);
      ASSERT_EQ(gnu(std::string(opts) + " " + path("in") + " > " + path("want")).status, 0);
      const char* const budgets[] = {"-S 4K --parallel 1", "-S 300K --parallel 3"};
      for (std::size_t b = 0; b < std::size(budgets); ++b) {
        if (!sweep_.takes(b, std::size(budgets))) continue;
        const char* budget = budgets[b];
        Result r = run(std::string(codec) + " " + opts + " " + budget + " -v -T " + path("tmp") + " " + path("in") +
                          " > " + path("got"));
        ASSERT_EQ(r.status, 0) << budget << ": " << r.err;
        EXPECT_NE(r.err.find("spilled"), std::string::npos) << budget << ": " << r.err;
        EXPECT_TRUE(read_file(path("got")) == read_file(path("want"))) << budget;
        EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
      }
      sweep_.next();
    }
  }
}

// Each spilled run holds a descriptor. Under a limit of 64 open files (soft
// and hard, so corank cannot raise it) -S 4K cuts this input into hundreds of
// chunks: the runs are merged into fewer whenever they reach what the process
// may hold, and the output is GNU sort's.
TEST_F(Lines, TinyBudgetUnderALowOpenFileLimit) {
  LineGenerator gen(12);
  std::string text;
  for (int i = 0; i < 20000; ++i) text += gen.field() + " " + gen.field() + "\n";
  write_file(path("in"), text);
  ASSERT_EQ(gnu("-k2,2 " + path("in") + " > " + path("want")).status, 0);
  for (const char* threads : {"--parallel 1", "--parallel 3"}) {
    Result r = run_shell(under_open_file_limit(64, corank_bin() + " -k2,2 -S 4K " + threads + " -v -T " +
                                                       path("tmp") + " -o " + path("out") + " " + path("in")),
                         dir_ / "corank.err");
    ASSERT_EQ(r.status, 0) << threads << ": " << r.err;
    EXPECT_NE(r.err.find("spilled"), std::string::npos) << r.err;
    EXPECT_TRUE(read_file(path("out")) == read_file(path("want"))) << threads;
    EXPECT_TRUE(fs::is_empty(path("tmp")));
  }
}

TEST_F(Lines, ZeroTerminated) {
  LineGenerator gen(7);
  std::string text;
  for (int i = 0; i < 800; ++i) text += gen.line() + (gen.pick(5) == 0 ? "\nx" : "") + '\0';
  write_file(path("in"), text + "tail-without-nul");
  for (const char* opts : {"-z", "-zr", "-z -k2,2n", "-z -u -k1,1", "-z -t, -k2"}) {
    SCOPED_TRACE(opts);
    expect_same(opts, path("in"));
  }
}

TEST_F(Lines, EmptyInputsAndEmptyLines) {
  write_file(path("empty"), "");
  expect_same("", path("empty"));
  write_file(path("blank"), "\n\n\n");
  expect_same("-u", path("blank"));
  write_file(path("nonl"), "b\na");
  expect_same("", path("nonl") + " " + path("nonl"));
}

TEST_F(Lines, StandardInputAndOutputFileMayBeAnInput) {
  LineGenerator gen(11);
  write_file(path("in"), gen.text(2000));
  ASSERT_EQ(gnu("-k2,2n " + path("in") + " > " + path("want")).status, 0);
  Result r = run("-k2,2n -S 8K -T " + path("tmp") + " < " + path("in") + " > " + path("got"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
  r = run("-k2,2n -o " + path("in") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_file(path("in")) == read_file(path("want")));
}

TEST_F(Lines, CheckReportsTheFirstDisorderLikeGnu) {
  write_file(path("sorted"), "a\nb\nb\nc\n");
  write_file(path("unsorted"), "a\nc\nb\nd\n");
  for (const char* opts : {"-c", "-C", "-c -u", "-C -u", "-c -r", "--check=quiet", "-c -k1,1n"}) {
    for (const char* file : {"sorted", "unsorted"}) {
      SCOPED_TRACE(std::string(opts) + " " + file);
      Result g = gnu(std::string(opts) + " " + path(file));
      Result r = run(std::string(opts) + " " + path(file));
      EXPECT_EQ(r.status, g.status);
      std::string want = g.err;
      if (want.rfind("sort: ", 0) == 0) want = "corank: " + want.substr(6);
      EXPECT_EQ(r.err, want);
    }
  }
}

TEST_F(Lines, MergeOfSortedInputsMatchesGnu) {
  LineGenerator gen(5);
  for (const char* opts : {"", "-n", "-k2,2 -s", "-u", "-r"}) {
    SCOPED_TRACE(opts);
    for (const char* f : {"a", "b", "c"}) {
      write_file(path(std::string(f) + ".raw"), gen.text(400));
      ASSERT_EQ(gnu(std::string(opts) + " " + path(std::string(f) + ".raw") + " > " + path(f)).status, 0);
    }
    expect_same(std::string("-m ") + opts, path("a") + " " + path("b") + " " + path("c"));
  }
}

// More inputs than corank keeps open at once: the rest are reopened in turn.
TEST_F(Lines, ManyInputFiles) {
  LineGenerator gen(123);
  std::string list;
  for (int i = 0; i < 150; ++i) {
    const std::string name = "f" + std::to_string(i);
    write_file(path(name), gen.text(3 + gen.pick(5)));
    list += path(name) + '\0';
  }
  write_file(path("list"), list);
  Result r = run("-k2,2 --files0-from=" + path("list") + " -o " + path("got"));
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(gnu("-k2,2 --files0-from=" + path("list") + " -o " + path("want")).status, 0);
  EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
}

TEST_F(Lines, Files0From) {
  write_file(path("a"), "3\n1\n");
  write_file(path("b"), "2\n");
  write_file(path("list"), path("a") + '\0' + path("b") + '\0');
  Result r = run("--files0-from=" + path("list") + " -o " + path("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "1\n2\n3\n");
  EXPECT_EQ(run("--files0-from=" + path("list") + " " + path("a")).status, 2);
}

// GNU sort cannot order by time (T is corank's), so the reference is the
// instant each line was generated from: CLF lines written in many time zones,
// sorted stably by -k4,5T, in memory and with spilled runs.
TEST_F(Lines, TimeKeysOrderLogLinesByInstant) {
  std::mt19937_64 rng(10);
  struct Line {
    std::int64_t utc;
    std::string text;
  };
  std::vector<Line> lines;
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    const std::int64_t utc = 1791640536 + static_cast<std::int64_t>(rng() % 30000);
    const int offset = (static_cast<int>(rng() % 113) - 56) * 15;
    const std::int64_t local = utc + offset * 60;
    const auto day = std::chrono::floor<std::chrono::days>(std::chrono::sys_seconds{std::chrono::seconds{local}});
    const std::chrono::year_month_day ymd{day};
    const std::int64_t sec = local - day.time_since_epoch().count() * 86400;
    char buf[160];
    std::snprintf(buf, sizeof buf, "10.1.%d.%d - - [%02u/Oct/%d:%02d:%02d:%02d %c%02d%02d] \"GET /%d HTTP/1.1\" 200 %d",
                  static_cast<int>(rng() % 256), static_cast<int>(rng() % 256), static_cast<unsigned>(ymd.day()),
                  static_cast<int>(ymd.year()), static_cast<int>(sec / 3600), static_cast<int>(sec / 60 % 60),
                  static_cast<int>(sec % 60), offset < 0 ? '-' : '+', std::abs(offset) / 60, std::abs(offset) % 60, i,
                  static_cast<int>(rng() % 9000));
    lines.push_back({utc, buf});
    text += std::string(buf) + "\n";
  }
  write_file(path("in"), text);
  for (const char* opts : {"-s -k4,5T", "-s -k4,5rT"}) {
    const bool reverse = std::string(opts).find('r') != std::string::npos;
    std::vector<Line> want = lines;
    std::stable_sort(want.begin(), want.end(),
                     [&](const Line& a, const Line& b) { return reverse ? a.utc > b.utc : a.utc < b.utc; });
    std::string expected;
    for (const auto& l : want) expected += l.text + "\n";
    for (const char* budget : {"", "-S 16K --parallel 1", "-S 64K --parallel 3"}) {
      SCOPED_TRACE(std::string(opts) + " " + budget);
      Result r = run(std::string(opts) + " " + budget + " -T " + path("tmp") + " -o " + path("out") + " " + path("in"));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("out")) == expected);
    }
  }
}

// --sort=time is the global T; --time-year dates syslog lines, which name no
// year: Feb 29 exists in 2024 only, so in 2025 it is unparsable and first.
TEST_F(Lines, SortTimeAndTheSyslogYear) {
  write_file(path("in"), "Mar  1 00:00:00 host c\nFeb 29 12:00:00 host b\nJan 31 23:59:59 host a\n");
  Result r = run("--sort=time --time-year 2024 -o " + path("out") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "Jan 31 23:59:59 host a\nFeb 29 12:00:00 host b\nMar  1 00:00:00 host c\n");
  r = run("-k1,3T --time-year=2025 -o " + path("out") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "Feb 29 12:00:00 host b\nJan 31 23:59:59 host a\nMar  1 00:00:00 host c\n");
  for (const char* bad : {"--time-year 0", "--time-year 10000", "--time-year x", "--sort=tim -n"}) {
    SCOPED_TRACE(bad);
    r = run(std::string(bad) + " " + path("in"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("corank: ", 0), 0u) << r.err;
  }
}

// The issue's cases: yearless lines dated from the file's modification time
// (March 2028: December is 2027's, Feb 29 exists), --time finding CLF
// timestamps and their offsets, -k4,4T taking the offset from field 5.
TEST_F(Lines, TimeKeysOfLogs) {
  auto sorted = [&](const std::string& opts, const std::string& file) {
    const Result r = run(opts + " -o " + path("out") + " " + path(file));
    EXPECT_EQ(r.status, 0) << r.err;
    return read_file(path("out"));
  };
  write_file(path("in"), "Feb 29 12:00:00 h leap\nJan  1 00:00:01 h new\nDec 31 23:59:59 h old\n");
  ASSERT_EQ(std::system(("touch -d '2028-03-01 12:00:00' " + path("in")).c_str()), 0);
  EXPECT_EQ(sorted("-k1,3T", "in"), "Dec 31 23:59:59 h old\nJan  1 00:00:01 h new\nFeb 29 12:00:00 h leap\n");
  // 2027: no Feb 29, unparsable and first.
  EXPECT_EQ(sorted("-k1,3T --time-year 2027", "in"), "Feb 29 12:00:00 h leap\nJan  1 00:00:01 h new\nDec 31 23:59:59 h old\n");
  // 11:00 UTC, then 12:30 UTC: the reverse of their local times' order.
  write_file(path("clf"), "2 - - [25/Nov/2026:07:30:00 -0500] b\n1 - - [25/Nov/2026:12:00:00 +0100] a\n");
  for (const char* key : {"-k4,4T", "-k4,5T", "--time", "-k T"}) {
    SCOPED_TRACE(key);
    EXPECT_EQ(sorted(key, "clf"), "1 - - [25/Nov/2026:12:00:00 +0100] a\n2 - - [25/Nov/2026:07:30:00 -0500] b\n");
  }
  // 02:30 does not exist in Berlin on 2026-03-29: as 01:30 UTC, after 01:00 UTC.
  write_file(path("gap"), "a 2026-03-29 02:30:00\nb 2026-03-29T01:00:00Z\n");
  EXPECT_EQ(sorted("--time --time-zone Europe/Berlin", "gap"), "b 2026-03-29T01:00:00Z\na 2026-03-29 02:30:00\n");
  // UTC: 02:30 UTC; Los Angeles: 09:30 UTC; Tokyo: 17:30 UTC the day before.
  EXPECT_EQ(sorted("--time", "gap"), "b 2026-03-29T01:00:00Z\na 2026-03-29 02:30:00\n");
  EXPECT_EQ(sorted("--time --time-zone America/Los_Angeles", "gap"), "b 2026-03-29T01:00:00Z\na 2026-03-29 02:30:00\n");
  EXPECT_EQ(sorted("--time --time-zone Asia/Tokyo", "gap"), "a 2026-03-29 02:30:00\nb 2026-03-29T01:00:00Z\n");
  // 02:30 comes twice in Berlin on 2026-10-25: the first, 00:30 UTC, before 01:00 UTC.
  write_file(path("fold"), "b 2026-10-25T01:00:00Z\na 2026-10-25 02:30:00\n");
  EXPECT_EQ(sorted("--time --time-zone Europe/Berlin", "fold"), "a 2026-10-25 02:30:00\nb 2026-10-25T01:00:00Z\n");
  // A format that reads neither: unparsable both, by the last-resort comparison.
  EXPECT_EQ(sorted("--time --time-format '%d.%m.%Y %H:%M'", "gap"), "a 2026-03-29 02:30:00\nb 2026-03-29T01:00:00Z\n");
  for (const char* bad : {"--time --time-zone Mars/Base", "--time --time-format %H:%M", "--format csv --time",
                          "-k1T --time-year 2026-13", "--time-zone Europe/Berlin --format u64"}) {
    SCOPED_TRACE(bad);
    const Result r = run(std::string(bad) + " " + path("gap"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("corank: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// --multiline: entries with stack traces of 0-3 lines, out of order, in two
// files each starting with text that has no timestamp. The reference order is
// the generator's: by the instant each entry was written (all distinct), its
// trace after it, both heads first in input order. Through one chunk, and
// through many runs and merge passes (records across chunk and run ends).
TEST_F(Lines, MultilineRecordsMoveWhole) {
  std::mt19937 rng(17);
  std::vector<int> seconds(1500);
  for (std::size_t i = 0; i < seconds.size(); ++i) seconds[i] = static_cast<int>(i) * 7;
  std::shuffle(seconds.begin(), seconds.end(), rng);
  std::vector<std::pair<int, std::string>> records;
  std::string files[2] = {"JVM warming up\nsecond head line\n", "other head\n"};
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    const int s = seconds[i];
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "2026-03-%02d %02d:%02d:%02d", 1 + s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
    std::string rec = std::string(stamp) + " ERROR request " + std::to_string(i) + "\n";
    for (int k = static_cast<int>(rng() % 4); k > 0; --k)
      rec += "\tat com.example.Svc.call(Svc.java:" + std::to_string(rng() % 900) + ")\n";
    records.emplace_back(s, rec);
    files[i % 2] += rec;
  }
  write_file(path("a"), files[0]);
  write_file(path("b"), files[1]);
  std::sort(records.begin(), records.end());
  std::string want = "JVM warming up\nsecond head line\nother head\n";
  for (const auto& r : records) want += r.second;
  for (const std::string budget : {"", "-S 16K --parallel 1 --batch-size 2", "-S 24K --parallel 3"}) {
    SCOPED_TRACE(budget);
    const Result r = run("--multiline " + budget + " -T " + path("tmp") + " --stats " + path("stats") + " -o " +
                         path("out") + " " + path("a") + " " + path("b"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_file(path("out")) == want);
    EXPECT_NE(read_file(path("stats")).find("\"records_in\": " + std::to_string(records.size() + 2) + ","),
              std::string::npos);
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    if (!budget.empty()) EXPECT_EQ(read_file(path("stats")).find("\"spilled_runs\": 0,"), std::string::npos);
  }
  // -c reads records: the output is in order; line by line it is not.
  EXPECT_EQ(run("--multiline -c " + path("out")).status, 0);
  EXPECT_EQ(run("--time -c " + path("out")).status, 1);
  // -u keeps the first record of each key (each instant under --time) with
  // its trace, and drops the others' traces with them.
  write_file(path("dup"), "2026-01-02 10:00:00 E boom\n\tat x(1)\n2026-01-01 09:00:00 I ok\n"
                          "2026-01-02 10:00:00 E boom\n\tat x(1)\n2026-01-02 10:00:00 E boom\n\tat x(2)\n");
  ASSERT_EQ(run("--multiline -u -k1,2 -o " + path("out") + " " + path("dup")).status, 0);
  EXPECT_EQ(read_file(path("out")), "2026-01-01 09:00:00 I ok\n2026-01-02 10:00:00 E boom\n\tat x(1)\n");
  ASSERT_EQ(run("--multiline -u -o " + path("out") + " " + path("dup")).status, 0);
  EXPECT_EQ(read_file(path("out")), "2026-01-01 09:00:00 I ok\n2026-01-02 10:00:00 E boom\n\tat x(1)\n");
  // A last line without its newline joins its record.
  write_file(path("tail"), "2026-01-02 10:00:00 b\n\tat y\n2026-01-01 10:00:00 a\n\tat z");
  ASSERT_EQ(run("--multiline -o " + path("out") + " " + path("tail")).status, 0);
  EXPECT_EQ(read_file(path("out")), "2026-01-01 10:00:00 a\n\tat z\n2026-01-02 10:00:00 b\n\tat y\n");
  for (const char* bad : {"--multiline -z", "--multiline --format csv"}) {
    const Result r = run(std::string(bad) + " " + path("tail"));
    EXPECT_EQ(r.status, 2) << bad;
  }
}

// Lines in which a time key finds no time are counted, over every chunk and
// thread, and named in one line on stderr and in --stats; the sort succeeds.
// The reference count is the generator's: every seventh line has no time.
TEST_F(Lines, UnreadTimesCountedOnStderrAndInStats) {
  std::string in;
  for (int i = 0; i < 1000; ++i)
    in += i % 7 == 0 ? "\tat Frame.call(Frame.java:" + std::to_string(i) + ")\n"
                     : "2026-03-01T10:" + std::to_string(10 + i % 50) + ":00Z event " + std::to_string(i) + "\n";
  write_file(path("in"), in);
  for (const std::string opts : {"--time", "--time -S 8K --parallel 3", "-k1,1T -k3,3n"}) {
    SCOPED_TRACE(opts);
    const Result r = run(opts + " -T " + path("tmp") + " --stats " + path("stats") + " -o " + path("out") + " " + path("in"));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "corank: 143 of 1,000 lines had no time in key 1; they sort first; --debug shows them\n");
    EXPECT_NE(read_file(path("stats")).find(R"("key_values": [{"key":1,"name":"","type":"time","unread":143,)"),
              std::string::npos)
        << read_file(path("stats"));
  }
  Result r = run("-k Tr -o " + path("out") + " " + path("in"));
  EXPECT_EQ(r.err, "corank: 143 of 1,000 lines had no time in key 1; they sort last; --debug shows them\n");
  r = run("-k3,3n -k1,1T -o " + path("out") + " " + path("in"));
  EXPECT_EQ(r.err, "corank: 143 of 1,000 lines had no time in key 2; they sort first; --debug shows them\n");
  // Nothing to say: every line has a time, or no key is a time key.
  write_file(path("timed"), "2026-03-01T10:00:00Z a\n2026-02-01T10:00:00Z b\n");
  EXPECT_EQ(run("--time -o " + path("out") + " " + path("timed")).err, "");
  EXPECT_EQ(run("-k1,1 -o " + path("out") + " " + path("in")).err, "");
}

// Yearless lines take their year from their own file's modification time:
// March 2024 dates Dec 31 in 2023 and lets Feb 29 exist; December 2026 dates
// its Jan 2 in 2026. (By the newest file alone, Dec 31 would be 2026's and
// Feb 29 would not exist.) -u holds across files of different years.
TEST_F(Lines, YearlessLinesDatedByTheirOwnFile) {
  write_file(path("a"), "Feb 29 12:00:00 h a-leap\nDec 31 23:00:00 h a-old\n");
  write_file(path("b"), "Dec 30 10:00:00 h b-dec\nJan  2 00:00:00 h b-jan\n");
  write_file(path("c"), "Jan  2 00:00:00 h b-jan\n");
  ASSERT_EQ(std::system(("touch -d '2024-03-05 12:00:00' " + path("a")).c_str()), 0);
  ASSERT_EQ(std::system(("touch -d '2026-12-31 12:00:00' " + path("b")).c_str()), 0);
  ASSERT_EQ(std::system(("touch -d '2026-06-01 12:00:00' " + path("c")).c_str()), 0);
  const std::string want =
      "Dec 31 23:00:00 h a-old\nFeb 29 12:00:00 h a-leap\nJan  2 00:00:00 h b-jan\nDec 30 10:00:00 h b-dec\n";
  for (const std::string opts : {"-k1,3T", "--time", "--time -S 4K --parallel 1"}) {
    SCOPED_TRACE(opts);
    Result r = run(opts + " -T " + path("tmp") + " -o " + path("out") + " " + path("b") + " " + path("a"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("out")), want);
    r = run(opts + " -u -T " + path("tmp") + " -o " + path("out") + " " + path("c") + " " + path("b") + " " + path("a"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("out")), want);
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
  }
}

TEST_F(Lines, UsageErrorsExitTwoWithOneLine) {
  write_file(path("in"), "x\n");
  // GNU rejects these too (exit 2); corank also refuses -R, which it does not implement,
  // and the options of the binary formats.
  for (const char* opts : {"-k0", "-k1.0", "-k1,0", "-kx", "-k1,1z", "-nM", "-dn", "-k1,1nV", "-t ab"}) {
    SCOPED_TRACE(opts);
    EXPECT_EQ(gnu(std::string(opts) + " " + path("in") + " > /dev/null").status, 2);
  }
  for (const char* opts : {"-k0", "-k1.0", "-k1,0", "-kx", "-k1,1z", "-nM", "-dn", "-k1,1nV", "-t ab",
                           "-Rn", "-k4,5nT", "-k1,1TV", "-k1,1RT", "--sort=bogus", "--batch-size=1", "+1 -2x",
                           "--format gensort -n", "--format u32 -k2,2", "--verify", "--gpu=yes",
                           "--compress-temp=lz4", "--compress-program=a --compress-program=b"}) {
    SCOPED_TRACE(opts);
    Result r = run(std::string(opts) + " " + path("in") + " -o " + path("out"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("corank: ", 0), 0u) << r.err;
    EXPECT_FALSE(fs::exists(path("out")));
  }
  Result missing = run(path("missing") + " -o " + path("out"));
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("missing"), std::string::npos);
  EXPECT_FALSE(fs::exists(path("out")));
}

// A bad command line gets GNU sort's message, word for word (getopt's and
// sort's own), with corank's name. (Not -S 1Q: coreutils 9.4 knows the Q
// suffix and calls it too large; 9.1 calls it an invalid suffix, as corank does.)
TEST_F(Lines, BadCommandLinesGetGnusMessages) {
  write_file(path("in"), "x\n");
  for (const char* opts : {"--bogus", "-x", "-k", "-k1.x", "-k1,x", "-k0", "+1 -2x", "+1 -x", "--sort=bogus",
                           "-S x", "--parallel=x", "--parallel=0", "-t ab", "-t ''", "-t a -t b",
                           "-c -C", "-o a -o b", "-nM", "-k1,1Rn", "--check=bogus",
                           "--random-source=a --random-source=b", "--batch-size=x", "--sort"}) {
    SCOPED_TRACE(opts);
    Result g = gnu(std::string(opts) + " " + path("in") + " > /dev/null");
    Result r = run(std::string(opts) + " " + path("in") + " > /dev/null");
    ASSERT_NE(g.status, 0);
    EXPECT_EQ(r.status, 2);  // GNU exits 1 after a bad --sort or --check value; corank's errors are all 2
    std::string want = g.err;
    auto replace_all = [&](const std::string& from, const std::string& to) {
      for (std::size_t at = 0; (at = want.find(from, at)) != std::string::npos; at += to.size()) want.replace(at, from.size(), to);
    };
    replace_all("\nsort: ", "\ncorank: ");
    replace_all("Try 'sort --help'", "Try 'corank --help'");
    if (want.starts_with("sort: ")) want.replace(0, 4, "corank");
    replace_all("  - 'random'\n", "  - 'random'\n  - 'time'\n");  // --sort's one word of corank's own
    EXPECT_EQ(r.err, want);
  }
}

// -R: a shuffle that keeps equal keys together; --random-source fixes it.
TEST_F(Lines, RandomSortGroupsEqualKeysAndFollowsTheRandomSource) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += std::to_string(i) + " k" + std::to_string(i % 97) + "\n";
  write_file(path("in"), text);
  std::string seed1(64, 'a'), seed2(64, 'b');
  write_file(path("seed1"), seed1);
  write_file(path("seed2"), seed2);
  auto sorted_with = [&](const std::string& opts) {
    Result r = run(opts + " -T " + path("tmp") + " " + path("in") + " > " + path("out"));
    EXPECT_EQ(r.status, 0) << r.err;
    return read_file(path("out"));
  };
  const std::string a = sorted_with("-k2,2R --random-source=" + path("seed1"));
  EXPECT_EQ(sorted_with("-S 8K --parallel 2 -k2,2R --random-source=" + path("seed1")), a);  // spilled runs: the same order
  EXPECT_NE(sorted_with("-k2,2R --random-source=" + path("seed2")), a);
  EXPECT_NE(a, text);
  // A permutation of the input, each key's lines together, those in byte order
  // (the last-resort comparison).
  std::vector<std::string> lines, input;
  for (std::size_t s = 0, e; (e = a.find('\n', s)) != std::string::npos; s = e + 1) lines.push_back(a.substr(s, e - s));
  for (std::size_t s = 0, e; (e = text.find('\n', s)) != std::string::npos; s = e + 1) input.push_back(text.substr(s, e - s));
  std::vector<std::string> sorted_out = lines;
  std::sort(sorted_out.begin(), sorted_out.end());
  std::sort(input.begin(), input.end());
  EXPECT_EQ(sorted_out, input);
  std::set<std::string> finished;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string key = lines[i].substr(lines[i].find(' ') + 1);
    if (i > 0) {
      const std::string prev = lines[i - 1].substr(lines[i - 1].find(' ') + 1);
      if (prev != key) {
        EXPECT_TRUE(finished.insert(prev).second) << "key " << prev << " appears twice apart";
      } else {
        EXPECT_LT(lines[i - 1], lines[i]);
      }
    }
  }
  // An empty random source is an error.
  write_file(path("empty"), "");
  Result r = run("-R --random-source=" + path("empty") + " " + path("in") + " -o " + path("o2"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("end of file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("o2")));
}

// --stats - writes the document to standard output, with the request in it.
TEST_F(Lines, StatsOnStandardOutput) {
  write_file(path("in"), "b\na\n");
  Result r = run("--stats - -k1,1 -o " + path("out") + " " + path("in") + " > " + path("stats"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string s = read_file(path("stats"));
  EXPECT_NE(s.find("\"corank_version\": "), std::string::npos) << s;
  EXPECT_NE(s.find("\"inputs\": [\"" + path("in") + "\"]"), std::string::npos) << s;
  EXPECT_NE(s.find("\"keys\":[\"1,1\"]"), std::string::npos) << s;
  EXPECT_NE(s.find("\"nulls\":\"last\""), std::string::npos) << s;
  EXPECT_NE(s.find("\"records_in\": 2"), std::string::npos) << s;
  EXPECT_EQ(read_file(path("out")), "a\nb\n");
  EXPECT_FALSE(fs::exists(path("-")));
  r = run("--stats - " + path("in"));  // both on standard output: refused before sorting
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--stats -"), std::string::npos) << r.err;
}

}  // namespace
