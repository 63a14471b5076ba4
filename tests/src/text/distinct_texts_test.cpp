// sort_by_distinct_texts (distinct_texts.hpp) against std::sort by the full
// order (EntryLess: prefix, full comparison, position): which runs it groups
// (a stack trace's lines, many texts each repeated; a log and its copy) and
// which it leaves (texts mostly distinct), and that a grouped run comes out
// in the full order whatever order its records came in.
#include "corank/text/distinct_texts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "corank/text/key_spec.hpp"

namespace corank::text {
namespace {

LineFormat whole_line() { return LineFormat(resolve_ordering({}, KeyField{}, kNoTab, false, false, '\n')); }

LineFormat first_field_stable() {
  return LineFormat(resolve_ordering({parse_keydef("1,1")}, KeyField{}, kNoTab, /*stable=*/true, false, '\n'));
}

// Records of the given texts joined in one buffer, every prefix equal (a
// tied run).
struct TiedRun {
  std::string bytes;
  std::vector<RecordEntry> entries;
  Chunk chunk;
  explicit TiedRun(const std::vector<std::string>& texts) {
    for (const std::string& t : texts) {
      entries.push_back(RecordEntry(Prefix{}, bytes.size(), t.size(), chunk.long_records));
      bytes += t + "\n";
    }
    chunk.mapped = bytes.data();
  }
};

std::vector<std::uint64_t> offsets(const std::vector<RecordEntry>& v) {
  std::vector<std::uint64_t> out;
  for (const RecordEntry& e : v) out.push_back(e.offset);
  return out;
}

// Sorts the run's entries (shuffled first where asked) through distinct
// texts, the distinct texts by std::sort; the result, where grouped, must
// be std::sort's.
bool grouped_in_full_order(const std::vector<std::string>& texts, const LineFormat& format, bool shuffle,
                           std::mt19937& rng) {
  TiedRun run(texts);
  const EntryLess less{&format, &run.chunk};
  std::vector<RecordEntry> want = run.entries;
  std::sort(want.begin(), want.end(), less);
  if (shuffle) std::shuffle(run.entries.begin(), run.entries.end(), rng);
  std::ptrdiff_t sorted_texts = -1;
  const bool grouped = sort_by_distinct_texts(run.entries.data(), static_cast<std::ptrdiff_t>(run.entries.size()),
                                              less, [&](RecordEntry* first, std::ptrdiff_t n) {
                                                sorted_texts = n;
                                                std::sort(first, first + n, less);
                                              });
  if (grouped) {
    EXPECT_EQ(offsets(run.entries), offsets(want));
    EXPECT_LT(sorted_texts, static_cast<std::ptrdiff_t>(texts.size()));
  }
  return grouped;
}

// A Java stack trace's lines: a thousand texts apart in a line number, each
// repeated a hundred times, so that the run's first records are all
// distinct. Grouped, in input order and shuffled.
TEST(DistinctTexts, ManyTextsEachRepeatedAreGrouped) {
  std::mt19937 rng(20261201);
  std::vector<std::string> texts;
  for (int i = 0; i < 100000; ++i)
    texts.push_back("\tat com.example.PaymentService.charge(PaymentService.java:" + std::to_string(rng() % 1000) + ")");
  for (const bool shuffle : {false, true}) EXPECT_TRUE(grouped_in_full_order(texts, whole_line(), shuffle, rng));
}

// A few texts, one text alone, and texts that the full comparison calls
// equal (one key, -s: lines alike in their first field keep their input
// order across texts).
TEST(DistinctTexts, RepeatedTextsAndClassesOfEqualTexts) {
  std::mt19937 rng(20261202);
  const char* const words[] = {"pear x", "apple b", "apple a", "zebra", "apple b"};
  for (const std::size_t n : {8u, 9u, 100u, 5000u}) {
    std::vector<std::string> texts, same;
    for (std::size_t i = 0; i < n; ++i) {
      texts.push_back(words[rng() % 5]);
      same.push_back("one text");
    }
    for (const LineFormat& format : {whole_line(), first_field_stable()})
      for (const bool shuffle : {false, true}) {
        SCOPED_TRACE(std::to_string(n) + (shuffle ? " shuffled" : ""));
        EXPECT_TRUE(grouped_in_full_order(texts, format, shuffle, rng));
        EXPECT_TRUE(grouped_in_full_order(same, format, shuffle, rng));
      }
  }
}

// Texts mostly distinct are left to the sort record by record, untouched:
// all distinct; a log followed by its copy (each text twice, but the first
// sixteenth of the run all distinct); one in eight repeated at the end; one
// line 300 times, then distinct ones (given up at a later judgement, not
// the first); six in seven new throughout (no judgement gives up, the
// whole run's count does); 40 distinct (shorter than any judgement).
TEST(DistinctTexts, MostlyDistinctTextsAreLeft) {
  std::vector<std::string> distinct, log_and_copy, few_repeats, repeated_then_distinct, six_in_seven, short_run;
  for (int i = 0; i < 4000; ++i) distinct.push_back("GET /api/" + std::to_string(i));
  log_and_copy = distinct;
  log_and_copy.insert(log_and_copy.end(), distinct.begin(), distinct.end());
  for (int i = 0; i < 4000; ++i) few_repeats.push_back("GET /api/" + std::to_string(i % 3500));
  for (int i = 0; i < 4000; ++i) repeated_then_distinct.push_back(i < 300 ? "GET /" : "GET /api/" + std::to_string(i));
  for (int i = 0; i < 4000; ++i) six_in_seven.push_back("GET /api/" + std::to_string(i % 7 == 6 ? i - 1 : i));
  for (int i = 0; i < 40; ++i) short_run.push_back("GET /api/" + std::to_string(i));
  for (const auto* texts :
       {&distinct, &log_and_copy, &few_repeats, &repeated_then_distinct, &six_in_seven, &short_run}) {
    TiedRun run(*texts);
    const auto before = offsets(run.entries);
    const LineFormat format = whole_line();
    const EntryLess less{&format, &run.chunk};
    bool sorted = false;
    EXPECT_FALSE(sort_by_distinct_texts(run.entries.data(), static_cast<std::ptrdiff_t>(run.entries.size()), less,
                                        [&](RecordEntry*, std::ptrdiff_t) { sorted = true; }));
    EXPECT_FALSE(sorted);
    EXPECT_EQ(offsets(run.entries), before);
  }
}

// Records of RecordEntry::kLong bytes or more, whose lengths the chunk
// keeps (Chunk::long_records): two long texts and a short one, repeated.
TEST(DistinctTexts, LongRecordsAreGrouped) {
  std::mt19937 rng(20261204);
  const std::string a(RecordEntry::kLong + 10, 'a'), b = std::string(RecordEntry::kLong, 'a') + "b";
  std::vector<std::string> texts;
  for (int i = 0; i < 40; ++i) texts.push_back(i % 3 == 0 ? a : i % 3 == 1 ? b : std::string("a"));
  EXPECT_TRUE(grouped_in_full_order(texts, whole_line(), false, rng));
}

}  // namespace
}  // namespace corank::text
