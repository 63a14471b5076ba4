// Differential tests of `corank --format lines` against GNU sort under
// locales other than C (en_US.UTF-8, de_DE.UTF-8 with its decimal comma and
// '.' thousands separator, sv_SE.UTF-8 with its own letters and a multi-byte
// separator): random lines of mixed case, accents, punctuation, numbers in
// every locale's writing and month names, under option mixes, in memory and
// through many spilled runs; outputs byte-identical, and --debug's marks and
// warnings too (GNU's in English: LANGUAGE=en). A locale that is not
// installed skips its test with the reason (tools/setup.sh generates them).
#include <gtest/gtest.h>
#include <locale.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace {

using corank::test::corank_bin;
using corank::test::read_file;
using corank::test::Result;
using corank::test::run_shell;
using corank::test::write_file;

const char* const kLocales[] = {"en_US.UTF-8", "de_DE.UTF-8", "sv_SE.UTF-8"};

bool installed(const std::string& name) {
  const locale_t l = newlocale(LC_ALL_MASK, name.c_str(), nullptr);
  if (l) freelocale(l);
  return l != nullptr;
}

class TextGenerator {
public:
  explicit TextGenerator(std::uint32_t seed) : rng_(seed) {}

  std::string field() {
    switch (pick(9)) {
      case 0: case 1: case 2: return word();
      case 3: return number();
      case 4: return month();
      case 5: return word() + std::to_string(pick(100));
      case 6: return std::string(pick(3), ' ') + number();  // leading blanks
      case 7: return oddity();
      default: return word() + "-" + word();
    }
  }

  std::string text(unsigned lines) {
    std::string s;
    for (unsigned i = 0; i < lines; ++i) {
      std::string line;
      if (pick(30) == 0 && !made_.empty()) {
        line = made_[pick(static_cast<unsigned>(made_.size()))];  // a duplicate
      } else {
        for (unsigned f = 0, n = 1 + pick(4); f < n; ++f) line += (f ? separator() : "") + field();
        made_.push_back(line);
      }
      s += line + "\n";
    }
    return s;
  }

private:
  unsigned pick(unsigned n) { return static_cast<unsigned>(rng_() % n); }

  std::string word() {
    static const char* const kWords[] = {
        "apple", "Apple", "APPLE", "\xc3\xa9t\xc3\xa9", "ete", "Ete", "\xc3\x89t\xc3\xa9", "\xc3\xbc" "ber", "Uber",
        "\xc3\x84rger", "Arger", "\xc3\xb6l", "Ol", "zebra", "Zebra", "stra\xc3\x9f" "e", "strasse", "\xc3\x85sa",
        "\xc3\xa5ngstr\xc3\xb6m", "co-op", "coop", "O'Brien", "obrien", "r\xc3\xa9sum\xc3\xa9", "resume", "a.b", "x_y",
        "ma\xc3\xb1" "ana", "caf\xc3\xa9", "CAFE", "cafe", "\xc5\x93uvre", "\xef\xac\x81sh", "fish", "aa", "Aa", "ch",
        "L\xc2\xb7l", "\xe4\xb8\xad\xe6\x96\x87", "\xf0\x9f\x98\x80", "e\xcc\x81t\xc3\xa9", "ij", "\xc3\xbf"};
    return kWords[pick(sizeof kWords / sizeof kWords[0])];
  }
  std::string number() {
    const long v = static_cast<long>(pick(2000001)) - 1000000;
    std::string digits = std::to_string(v < 0 ? -v : v);
    static const char* const kGroup[] = {",", ".", " ", "\xe2\x80\xaf", ""};
    const char* group = kGroup[pick(5)];
    std::string grouped;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i && (digits.size() - i) % 3 == 0) grouped += group;
      grouped += digits[i];
    }
    std::string s = (v < 0 ? "-" : "") + grouped;
    switch (pick(6)) {
      case 0: s += "," + std::to_string(pick(100)); break;
      case 1: s += "." + std::to_string(pick(100)); break;
      case 2: s += "KMGkT"[pick(5)]; break;
      case 3: s = std::string(pick(3), '0') + s; break;
      default: break;
    }
    return s;
  }
  std::string month() {
    static const char* const kMonths[] = {"jan", "Feb", "MAR", "M\xc3\xa4r", "m\xc3\xa4rz", "Mai", "MAJ", "maj", "May",
                                          "okt", "Oct", "Okt.", "dez", "Dec", "DEZ", "jun", "xyz", "Ma", " Jul"};
    return kMonths[pick(sizeof kMonths / sizeof kMonths[0])];
  }
  std::string oddity() {
    static const char* const kOdd[] = {"", "!", "#x", "\x01" "a", "a\x7f" "b", "\xff" "z", "-", ",5", "-,5", ".5",
                                       "1,,2", "5,", "5.", "\xe2\x80\x94", "\xc2\xa0" "x", "Z\xcc\x81"};
    return kOdd[pick(sizeof kOdd / sizeof kOdd[0])];
  }
  std::string separator() {
    switch (pick(5)) {
      case 0: return "\t";
      case 1: return ":";
      default: return " ";
    }
  }

  std::mt19937 rng_;
  std::vector<std::string> made_;
};

class Locales : public corank::test::CorankTest {
protected:
  Result gnu(const std::string& locale, const std::string& args) {
    return run_shell("LANGUAGE=en LC_ALL=" + locale + " sort " + args, dir_ / "gnu.err");
  }
  Result corank(const std::string& locale, const std::string& args) {
    return run_shell("LC_ALL=" + locale + " " + corank_bin() + " " + args, dir_ / "corank.err");
  }

  // GNU's output, and corank's in memory, through many runs merged by one
  // thread, and in key ranges by three: byte-identical.
  void expect_same(const std::string& locale, const std::string& opts, const std::string& input) {
    Result g = gnu(locale, opts + " " + input + " > " + path("want"));
    ASSERT_EQ(g.status, 0) << "GNU sort " << opts << ": " << g.err;
    const std::string want = read_file(path("want"));
    const char* const budgets[] = {"", "-S 8K --parallel 1", "-S 64K --parallel 3"};
    for (std::size_t b = 0; b < std::size(budgets); ++b) {
      if (!sweep_.takes(b, std::size(budgets))) continue;
      const char* budget = budgets[b];
      Result r = corank(locale, opts + " " + budget + " -T " + path("tmp") + " " + input + " > " + path("got"));
      ASSERT_EQ(r.status, 0) << opts << " " << budget << ": " << r.err;
      const std::string got = read_file(path("got"));
      ASSERT_TRUE(got == want) << locale << " " << opts << " " << budget << ": first difference at byte "
                               << std::mismatch(got.begin(), got.end(), want.begin(), want.end()).first - got.begin();
    }
    sweep_.next();
  }

  corank::test::Sweep sweep_;
};

const char* const kOptionMixes[] = {
    "",          "-r",         "-f",         "-d",          "-i",          "-b",         "-fd",
    "-fi -r",    "-n",         "-nr",        "-h",          "-hr",         "-g",         "-M",
    "-Mr",       "-V",         "-u",         "-fu",         "-nu",         "-Mu",        "-s",
    "-sr",       "-k2",        "-k2,2",      "-k2,2n",      "-k2,2n -k1,1", "-k2,2f -k3,3M", "-k2,2h",
    "-k1,1d -s", "-k2,2g",     "-k3,3M -u",  "-k2b,2",      "-k1.2,1.3",   "-k2,2 -s -r", "-k2,2fr -k1,1n",
    "-bk2",      "-dfr",       "-t: -k2,2n", "-t: -k2 -r",  "-t, -k2,2n",  "-t. -k1,1n", "-k2,2i -u",
};

TEST_F(Locales, MatchGnuSortUnderOptionMixes) {
  TextGenerator gen(20261201);
  write_file(path("in"), gen.text(800));
  for (const char* locale : kLocales) {
    if (!installed(locale)) {
      std::printf("locale %s is not installed (tools/setup.sh generates it): skipped\n", locale);
      continue;
    }
    for (const char* opts : kOptionMixes) {
      SCOPED_TRACE(std::string(locale) + " " + opts);
      expect_same(locale, opts, path("in"));
    }
  }
}

TEST_F(Locales, DebugMarksAndWarningsMatchGnu) {
  TextGenerator gen(20261202);
  write_file(path("in"), gen.text(150));
  for (const char* locale : kLocales) {
    if (!installed(locale)) {
      std::printf("locale %s is not installed (tools/setup.sh generates it): skipped\n", locale);
      continue;
    }
    for (const char* opts : {"", "-n", "-h", "-g", "-M", "-f", "-k2,2n", "-k2,2h -k1,1", "-t, -k1n", "-t. -k1n",
                             "-t: -k2,2n", "-k1,1M", "-k2.2b,2.3", "+1 -2", "-n -k1,1", "-b -k2,2g", "-s -k2,2"}) {
      SCOPED_TRACE(std::string(locale) + " " + opts);
      Result g = gnu(locale, std::string("--debug ") + opts + " " + path("in") + " > " + path("want"));
      ASSERT_EQ(g.status, 0) << g.err;
      std::string want_err = g.err;
      for (std::size_t at = 0; (at = want_err.find("sort: ", at)) != std::string::npos; at += 8)
        want_err.replace(at, 6, "corank: ");
      Result r = corank(locale, std::string("--debug ") + opts + " " + path("in") + " > " + path("got"));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
      EXPECT_EQ(r.err, want_err);
    }
  }
}

// The locale comes from the environment as setlocale(LC_ALL, "") takes it:
// LC_ALL over LC_<CATEGORY> over LANG, category by category; one that is
// not installed leaves everything in C ("failed to set locale" under --debug).
TEST_F(Locales, TheEnvironmentChoosesTheLocaleAsForGnu) {
  if (!installed("de_DE.UTF-8") || !installed("en_US.UTF-8"))
    GTEST_SKIP() << "de_DE.UTF-8 and en_US.UTF-8 are not installed (tools/setup.sh generates them)";
  TextGenerator gen(20261203);
  write_file(path("in"), gen.text(400));
  for (const char* env : {"LANG=de_DE.UTF-8", "LANG=de_DE.UTF-8 LC_COLLATE=C", "LANG=C LC_NUMERIC=de_DE.UTF-8",
                          "LANG=en_US.UTF-8 LC_TIME=de_DE.UTF-8", "LANG=xx_XX.UTF-8", "LANG=C.UTF-8",
                          "LC_COLLATE=de_DE.UTF-8 LC_CTYPE=en_US.UTF-8"}) {
    for (const char* opts : {"", "-n", "-M", "-k2,2n -k1,1", "--debug -h"}) {
      SCOPED_TRACE(std::string(env) + " " + opts);
      const std::string clean = "env -u LC_ALL -u LANG -u LC_COLLATE -u LC_CTYPE -u LC_NUMERIC -u LC_TIME LANGUAGE=en ";
      Result g = run_shell(clean + env + " sort " + opts + " " + path("in") + " > " + path("want"), dir_ / "gnu.err");
      ASSERT_EQ(g.status, 0) << g.err;
      Result r = run_shell(clean + env + " " + corank_bin() + " " + opts + " " + path("in") + " > " + path("got"),
                           dir_ / "corank.err");
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
      std::string want_err = g.err;
      for (std::size_t at = 0; (at = want_err.find("sort: ", at)) != std::string::npos; at += 8)
        want_err.replace(at, 6, "corank: ");
      EXPECT_EQ(r.err, want_err);
    }
  }
}

// --collation names an order in place of LC_COLLATE's: byte order ("C",
// "POSIX", "C.UTF-8") is GNU sort's order under LC_ALL=C, and a glibc locale
// (en_US.UTF-8 under LC_ALL=C) is GNU sort's order in that locale, its ties
// by their bytes (GNU's -s keeps them in input order: the input has none).
TEST_F(Locales, CollationNamesOverrideTheLocale) {
  if (!installed("sv_SE.UTF-8") || !installed("en_US.UTF-8"))
    GTEST_SKIP() << "sv_SE.UTF-8 and en_US.UTF-8 are not installed (tools/setup.sh generates them)";
  TextGenerator gen(20261204);
  write_file(path("in"), gen.text(400));
  const auto gnu_in = [&](const std::string& env) {
    Result g = run_shell(env + " sort " + path("in") + " > " + path("want"), dir_ / "gnu.err");
    EXPECT_EQ(g.status, 0) << g.err;
    return read_file(path("want"));
  };
  const auto corank_in = [&](const std::string& env, const std::string& name) {
    Result r = run_shell(env + " " + corank_bin() + " --collation " + name + " " + path("in") + " > " + path("got"),
                         dir_ / "corank.err");
    EXPECT_EQ(r.status, 0) << r.err;
    return read_file(path("got"));
  };
  const std::string bytes = gnu_in("LC_ALL=C");
  for (const char* name : {"C", "POSIX", "C.UTF-8"})
    EXPECT_TRUE(corank_in("LC_ALL=sv_SE.UTF-8", name) == bytes) << name;
  EXPECT_TRUE(corank_in("LC_ALL=C", "en_US.UTF-8") == gnu_in("LC_ALL=en_US.UTF-8"));
}

TEST_F(Locales, CheckAndMergeFollowTheLocale) {
  if (!installed("sv_SE.UTF-8")) GTEST_SKIP() << "sv_SE.UTF-8 is not installed (tools/setup.sh generates it)";
  TextGenerator gen(20261204);
  write_file(path("a"), gen.text(300));
  write_file(path("b"), gen.text(300));
  for (const char* opts : {"", "-f -k2,2", "-n"}) {
    SCOPED_TRACE(opts);
    ASSERT_EQ(gnu("sv_SE.UTF-8", std::string(opts) + " " + path("a") + " > " + path("sa")).status, 0);
    ASSERT_EQ(gnu("sv_SE.UTF-8", std::string(opts) + " " + path("b") + " > " + path("sb")).status, 0);
    EXPECT_EQ(corank("sv_SE.UTF-8", std::string("-c ") + opts + " " + path("sa")).status, 0);
    if (std::string(opts) != "-n") EXPECT_EQ(corank("C", std::string("-c ") + opts + " " + path("sa")).status, 1);
    expect_same("sv_SE.UTF-8", std::string("-m ") + opts, path("sa") + " " + path("sb"));
  }
}

// Lines alike in their first words (a stack trace's, with its case, accents,
// punctuation and line numbers varied), which tie in their prefixes and are
// sorted by the collation's longer digests: GNU's order, whole lines, by a
// key whose values repeat (the last resort then decides), and under --time
// where every line has one time.
TEST_F(Locales, LinesAlikeInTheirFirstWordsMatchGnu) {
  std::mt19937 rng(20261130);
  const char* const kHeads[] = {"\tat com.example.PaymentService.charge(PaymentService.java:",
                                "\tat com.example.paymentservice.charge(PaymentService.java:",
                                "\tat com.example.Payment-Service.charge(PaymentService.java:",
                                "\tat com.example.PaymentS\xc3\xa9rvice.charge(PaymentService.java:",
                                "\tat com.example.PaymentService.chargeAll(PaymentService.java:"};
  std::string plain, timed;
  for (int i = 0; i < 3000; ++i) {
    const std::string line = std::string(kHeads[rng() % std::size(kHeads)]) + std::to_string(rng() % 700) + ")";
    plain += line + "\n";
    timed += "2026-11-25 10:00:01 " + line + "\n";
  }
  write_file(path("in"), plain);
  write_file(path("timed"), timed);
  for (const char* locale : kLocales) {
    if (!installed(locale)) continue;
    for (const char* opts : {"", "-r", "-u", "-k1,1", "-k1,1 -r", "-k2,2", "-k1,1f"}) {
      SCOPED_TRACE(std::string(locale) + " " + opts);
      expect_same(locale, opts, path("in"));
    }
    for (const char* opts : {"", "-r"}) {
      SCOPED_TRACE(std::string(locale) + " --time " + opts);
      ASSERT_EQ(gnu(locale, std::string(opts) + " " + path("timed") + " > " + path("want")).status, 0);
      const Result r = corank(locale, std::string("--time ") + opts + " " + path("timed") + " > " + path("got"));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
    }
  }
}

}  // namespace
