// Records of 8 MiB and more, whose entries keep their lengths beside them
// (chunk.hpp's long records): sorted in memory, split by several threads,
// spilled and merged, kept in the run window of nearly sorted input, tied
// with others in their prefixes, repeated under -u, and as multi-line
// records of --multiline. Lines against GNU sort; multi-line records against
// the order the test wrote their times in.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "lines_test_util.hpp"

namespace {

using namespace corank::test::lines;

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kLong = (std::size_t{1} << 23) - 1;  // the shortest length an entry does not hold

// Short random lines among long ones: two that differ only in their last
// byte (their prefixes tie), a copy of one, one of 17 MiB, long lines with a
// second field to key on, and lines of kLong and kLong - 1 bytes.
std::string with_long_lines(std::uint32_t seed) {
  LineGenerator gen(seed);
  std::mt19937 rng(seed);
  std::vector<std::string> lines;
  for (int i = 0; i < 3000; ++i) lines.push_back(gen.line());
  const std::string a(9 * kMiB, 'a');
  lines.push_back(a + "z");
  lines.push_back(a + "b");
  lines.push_back(a + "b");
  lines.push_back(std::string(17 * kMiB, 'b'));
  lines.push_back("k " + std::string(8 * kMiB, 'c') + " 1");
  lines.push_back("k " + std::string(8 * kMiB - 1, 'c') + " 2");
  lines.push_back(std::string(kLong, 'd'));
  lines.push_back(std::string(kLong - 1, 'd'));
  std::shuffle(lines.begin(), lines.end(), rng);
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The budgets are expect_same's ways (in memory; spilled and merged in
// passes by one thread, or in key ranges by several; to a named file), each
// under a budget that 8 MiB records overrun already: at expect_same's
// kilobytes, 80 MB of them would be merged two runs at a time, eight passes.
// A key field is found again at each comparison, a scan of megabytes where
// the field lies past a long one: the -k2,2 sort takes two of the ways.
TEST_F(Lines, RecordsOfEightMiBAndMoreMatchGnu) {
  write_file(path("in"), with_long_lines(20261130));
  const std::vector<std::string> every = {"", "-S 1M --parallel 1", "-S 2M --parallel 2", "-S 1M --parallel 3 -o"};
  for (const char* opts : {"", "-ru"}) {
    SCOPED_TRACE(opts);
    expect_same(opts, path("in"), every);
  }
  expect_same("-k2,2 -s", path("in"), {every[0], every[3]});
  // Split by four threads where the input lies (mapped, in memory).
  ASSERT_EQ(gnu(path("in") + " > " + path("want")).status, 0);
  const Result r = run("--parallel 4 -o " + path("got") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
}

// Nearly sorted: the run window keeps long records between chunks.
TEST_F(Lines, LongRecordsInNearlySortedInputMatchGnu) {
  write_file(path("shuffled"), with_long_lines(20261201));
  ASSERT_EQ(gnu(path("shuffled") + " > " + path("in")).status, 0);
  std::string text = read_file(path("in"));
  // A few lines a little out of place: swap neighbours near the start.
  const std::size_t first = text.find('\n'), second = text.find('\n', first + 1);
  text = text.substr(first + 1, second - first) + text.substr(0, first + 1) + text.substr(second + 1);
  write_file(path("in"), text);
  ASSERT_EQ(gnu(path("in") + " > " + path("want")).status, 0);
  for (const char* budget : {"-S 40M", "-S 64M --parallel 2", "-S 100M"}) {
    SCOPED_TRACE(budget);
    const Result r = run(std::string(budget) + " -T " + path("tmp") + " -o " + path("got") + " " + path("in"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
  }
}

// A stack trace of 9 MiB is one record of --multiline, in memory and spilled.
TEST_F(Lines, MultiLineRecordsOfEightMiBAndMoreStayWhole) {
  std::mt19937 rng(7);
  std::vector<std::pair<int, std::string>> records;  // second of the minute, text
  for (int s = 0; s < 60; ++s) {
    std::string text = "2026-11-30 10:00:" + std::string(s < 10 ? "0" : "") + std::to_string(s) + " ERROR e" +
                       std::to_string(s) + "\n";
    const std::size_t trace = s % 20 == 3 ? 9 * kMiB : (s % 3) * 40;
    for (std::size_t b = 0; b < trace; b += 64) text += "\tat frame." + std::string(53, 'f') + "\n";
    records.emplace_back(s, text);
  }
  std::vector<std::pair<int, std::string>> shuffled = records;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  std::string in, want;
  for (const auto& r : shuffled) in += r.second;
  for (const auto& r : records) want += r.second;
  write_file(path("in"), in);
  for (const char* budget : {"", "-S 12M", "-S 30M --parallel 2"}) {
    SCOPED_TRACE(budget);
    const Result r =
        run("--multiline " + std::string(budget) + " -T " + path("tmp") + " -o " + path("got") + " " + path("in"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_file(path("got")) == want);
  }
}

}  // namespace
