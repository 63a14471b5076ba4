// split_lines and count_byte against byte-by-byte references: every whole
// line of a piece gets its entry (offset, length, prefix) in order, on any
// number of threads, up to the first that does not fit the budget; long
// records' lengths are kept; the count is exact at every length and offset.
#include "corank/text/line_split.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "corank/text/key_spec.hpp"

namespace corank::text {
namespace {

LineFormat lines() { return LineFormat(resolve_ordering({}, KeyField{}, kNoTab, false, false, '\n')); }

TEST(CountByte, CountsEveryMatchAtAnyLengthAndAlignment) {
  std::mt19937 rng(7);
  std::string text(9000, 'x');
  for (char& c : text) c = "ab\n"[rng() % 3];
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t from = rng() % 64, n = rng() % (text.size() - from);
    const auto want = static_cast<std::uint64_t>(std::count(text.begin() + from, text.begin() + from + n, '\n'));
    ASSERT_EQ(count_byte(text.data() + from, text.data() + from + n, '\n'), want) << from << " " << n;
  }
  // Runs where every byte matches: a byte-wide counter of each position
  // must be summed before 256 steps.
  const std::string all(16 * 300 + 5, '\n');
  for (std::size_t n : {std::size_t{0}, std::size_t{15}, std::size_t{16} * 255, std::size_t{16} * 256, all.size()})
    EXPECT_EQ(count_byte(all.data(), all.data() + n, '\n'), n);
}

struct Split {
  std::vector<RecordEntry> entries;
  LongRecords longs;
  bool room = true;
};

// The sequential split: record i (counting `before` entries already there)
// at offset o is taken while o + i * overhead < budget.
Split reference(const LineSplit& piece, std::size_t before) {
  Split s;
  std::uint64_t at = piece.begin;
  for (std::size_t i = before;; ++i) {
    std::uint64_t t = at;
    while (t < piece.end && piece.base[t] != piece.terminator) ++t;
    if (t >= piece.end) break;
    if (i > 0 && at + i * piece.overhead >= piece.budget) {
      s.room = false;
      break;
    }
    s.entries.push_back(RecordEntry(piece.format->prefix({piece.base + at, t - at}), at, t - at, s.longs));
    at = t + 1;
  }
  return s;
}

void expect_split(const std::string& text, std::uint64_t begin, std::uint64_t budget, std::size_t before) {
  const LineFormat fmt = lines();
  const LineSplit piece{text.data(), begin, text.size(), '\n', &fmt, false, budget, 16};
  const Split want = reference(piece, before);
  for (unsigned parts : {1u, 2u, 3u, 4u, 7u}) {
    SCOPED_TRACE("parts " + std::to_string(parts) + ", begin " + std::to_string(begin) + ", budget " +
                 std::to_string(budget) + ", before " + std::to_string(before));
    io::HugeVector<RecordEntry> records;
    LongRecords longs;
    for (std::size_t i = 0; i < before; ++i) records.push_back(RecordEntry::with_code(Prefix{}, 0, 0));
    const bool room = split_lines(piece, parts, records, longs);
    EXPECT_EQ(room, want.room);
    ASSERT_EQ(records.size(), before + want.entries.size());
    for (std::size_t i = 0; i < want.entries.size(); ++i) {
      const RecordEntry &got = records[before + i], &w = want.entries[i];
      ASSERT_EQ(got.offset, w.offset) << i;
      ASSERT_EQ(got.length_code, w.length_code) << i;
      ASSERT_TRUE(got.prefix == w.prefix) << i;
    }
    ASSERT_EQ(longs.size(), want.longs.size());
    for (std::size_t i = 0; i < longs.size(); ++i) {
      EXPECT_EQ(longs[i].offset, want.longs[i].offset);
      EXPECT_EQ(longs[i].length, want.longs[i].length);
    }
  }
}

TEST(SplitLines, EveryThreadCountMatchesTheSequentialSplit) {
  std::mt19937 rng(11);
  std::string text;
  for (int i = 0; i < 30000; ++i) {
    // Mostly short lines, some empty, a few longer than a part.
    const std::size_t len = i % 997 == 3 ? 40000 : rng() % 120;
    for (std::size_t k = 0; k < len; ++k) text += static_cast<char>('a' + rng() % 26);
    text += '\n';
  }
  text += "an unterminated tail";
  const std::uint64_t all = ~std::uint64_t{0} >> 1;
  for (std::uint64_t begin : {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{text.size() / 2}})
    for (std::size_t before : {std::size_t{0}, std::size_t{3}}) {
      expect_split(text, begin, all, before);
      // Budgets that cut the piece early, in its middle, and at its last records.
      for (std::uint64_t budget : {std::uint64_t{1000}, std::uint64_t{text.size()}, std::uint64_t{text.size() * 2}})
        expect_split(text, begin, budget, before);
    }
  expect_split("\n\n\n", 0, all, 0);
  expect_split("no terminator at all", 0, all, 0);
  expect_split("", 0, all, 0);
}

// A record of RecordEntry::kLong bytes or more keeps its length aside, among
// records split on other threads.
TEST(SplitLines, LongRecordsKeepTheirLengths) {
  std::string text = "short\n";
  text += std::string(RecordEntry::kLong + 10, 'L') + "\n";
  for (int i = 0; i < 1000; ++i) text += "line " + std::to_string(i) + "\n";
  text += std::string(RecordEntry::kLong, 'M') + "\nlast\n";
  const std::uint64_t all = ~std::uint64_t{0} >> 1;
  expect_split(text, 0, all, 0);
  expect_split(text, 3, all, 1);
  expect_split(text, 0, RecordEntry::kLong + 20000, 0);  // the second long record does not fit
}

}  // namespace
}  // namespace corank::text
