#pragma once
// What the end-to-end tests of lines share (lines_test.cpp against GNU sort,
// lines_time_test.cpp for time keys): what the GNU sort here does in the
// corners where coreutils versions differ, a generator of random fields of
// the kinds GNU's orderings care about, and the Lines fixture, which runs GNU
// sort and corank under several budgets and wants their outputs equal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace corank::test::lines {

namespace fs = std::filesystem;
// What the tests take from cli_test_util.hpp (a using-directive of this
// namespace brings them along).
using corank::test::corank_bin;
using corank::test::read_file;
using corank::test::Result;
using corank::test::run_shell;
using corank::test::under_open_file_limit;
using corank::test::write_file;

// What the GNU sort on this machine says about `lines` under `options`: its
// first output line.
inline std::string gnu_first_line(const std::string& lines, const std::string& options) {
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
inline std::string command_output(const std::string& cmd) {
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
inline const ReferenceRules& reference_rules() {
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
  // one loser tree; to a named file, the last merge in key ranges too). A
  // budget that ends in "-o" writes to a named file.
  void expect_same(const std::string& opts, const std::string& files,
                   std::vector<std::string> budgets = {"", "-S 4K --parallel 1", "-S 64K --parallel 2",
                                                       "-S 24K --parallel 3 -o"}) {
    Result g = gnu(opts + " " + files + " > " + path("want"));
    ASSERT_EQ(g.status, 0) << "GNU sort " << opts << ": " << g.err;
    const std::string want = read_file(path("want"));
    for (std::size_t b = 0; b < budgets.size(); ++b) {
      if (!sweep_.takes(b, budgets.size())) continue;
      const bool to_file = budgets[b].ends_with("-o");
      const std::string budget = to_file ? budgets[b] + " " + path("got") : budgets[b];
      const std::string to = to_file ? "" : " > " + path("got");
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

}  // namespace corank::test::lines
