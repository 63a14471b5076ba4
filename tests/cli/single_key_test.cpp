// One text key and the last resort after it (-k1,1 on logs): the prefix a line
// is sorted by holds the key, then the line (line_comparator.cpp). Against
// GNU sort, on lines whose keys tie often and whose keys hold what the code
// must escape: NUL bytes, keys longer than the prefix, empty keys, keys that
// are a prefix of others, -f and -d, and -r on the key, globally, or on one of
// the two only.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "cli_test_util.hpp"

namespace {

using corank::test::read_file;
using corank::test::Result;
using corank::test::run_shell;
using corank::test::write_file;

std::string random_line(std::mt19937& rng) {
  static const std::string kKeys[] = {"",        "Nov",       "nov",      "Nov2",       std::string("a\0", 2),
                                      "a",       std::string("a\0b", 3), "a\xff", "2026/11/25", "2026/11/25x",
                                      "10.0.0.1", "10.0.0.12", std::string(40, 'k'), std::string(40, 'k') + "z",
                                      std::string(29, 'p'), std::string(29, 'p') + "\x01", "-x-", "X-x"};
  std::string s = kKeys[rng() % std::size(kKeys)];
  const unsigned fields = rng() % 4;
  for (unsigned i = 0; i < fields; ++i) {
    s += rng() % 5 ? ' ' : '\t';
    for (unsigned k = 0, n = rng() % 12; k < n; ++k) s += static_cast<char>("aAbz09 :.\x00\x7f"[rng() % 11]);
  }
  return s;
}

class SingleKey : public corank::test::CorankTest {};

TEST_F(SingleKey, TiesAndEscapedKeysMatchGnu) {
  std::mt19937 rng(20261127);
  std::string text;
  for (int i = 0; i < 3000; ++i) text += random_line(rng) + '\n';
  write_file(path("in"), text);
  for (const char* opts : {"-k1,1", "-k1,1 -r", "-k1,1r", "-r -k1,1r", "-k1,1f", "-k1,1d", "-k1,1 -f", "-k2",
                           "-t: -k2,2", "-k1.2,1.5", "-b -k2,2", "-k1,1 -s", "-k1,1 -u", "-k1,1 -k2,2"}) {
    SCOPED_TRACE(opts);
    Result g = run_shell(std::string("LC_ALL=C sort ") + opts + " " + path("in") + " > " + path("want"),
                         dir_ / "gnu.err");
    ASSERT_EQ(g.status, 0) << g.err;
    const std::string want = read_file(path("want"));
    for (const char* budget : {"", "-S 8K --parallel 1", "-S 64K --parallel 3"}) {
      Result r = run(std::string(opts) + " " + budget + " -T " + path("tmp") + " " + path("in") + " > " + path("got"));
      ASSERT_EQ(r.status, 0) << budget << ": " << r.err;
      const std::string got = read_file(path("got"));
      ASSERT_TRUE(got == want) << budget << ": first difference at byte "
                               << std::mismatch(got.begin(), got.end(), want.begin(), want.end()).first - got.begin();
    }
  }
}

}  // namespace
