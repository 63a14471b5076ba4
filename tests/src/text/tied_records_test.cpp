// sort_tied and settle_ties (tied_records.hpp) against std::sort by the full
// order (EntryLess: prefix, full comparison, position), on records with many
// exact duplicates: under -k1,1 -s, where distinct texts with one key tie and
// keep their input order, and under -f, where the last-resort comparison
// tells case variants apart.
#include "corank/text/tied_records.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "corank/text/key_spec.hpp"

namespace corank::text {
namespace {

LineFormat by_first_field() {
  return LineFormat(resolve_ordering({parse_keydef("1,1")}, KeyField{}, kNoTab, /*stable=*/true, false, '\n'));
}

LineFormat folding_case() {
  KeyField global;
  global.fold = true;
  return LineFormat(resolve_ordering({}, global, kNoTab, false, false, '\n'));
}

// `n` records of a few words in two cases, most of them repeated (or each
// made distinct by a number), joined in `bytes`, with entries whose prefixes
// are the format's (or all equal).
struct Records {
  std::string bytes;
  io::HugeVector<RecordEntry> entries;
};
Records make_records(std::mt19937& rng, std::size_t n, const TextFormat& format, bool real_prefixes,
                     bool distinct = false) {
  static const char* const kWords[] = {"apple", "Apple", "zebra", "Zebra", "k", "K", "pear"};
  Records r;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  for (std::size_t i = 0; i < n; ++i) {
    std::string text = std::string(kWords[rng() % 7]) + " " + kWords[rng() % 7] + (rng() % 4 ? "" : " x");
    if (distinct) text += " " + std::to_string(i);
    spans.emplace_back(r.bytes.size(), text.size());
    r.bytes += text + "\n";
  }
  for (const auto& [offset, length] : spans) {
    RecordEntry e{};
    e.offset = offset;
    e.length = length;
    if (real_prefixes) e.prefix = format.prefix({r.bytes.data() + offset, length});
    r.entries.push_back(e);
  }
  return r;
}

template <class V>
std::vector<std::uint64_t> offsets(const V& v) {
  std::vector<std::uint64_t> out;
  for (const RecordEntry& e : v) out.push_back(e.offset);
  return out;
}

// One run of ties, short and long (sorted on several threads), of repeated
// texts (sorted by texts) and of distinct ones (sorted in full).
TEST(TiedRecords, SortTiedIsTheFullOrder) {
  std::mt19937 rng(20261128);
  for (const LineFormat& format : {by_first_field(), folding_case()})
    for (const std::size_t n : {0u, 1u, 2u, 7u, 8u, 9u, 100u, 5000u, 70000u})
      for (const bool distinct : {false, true})
        for (const unsigned threads : {1u, 3u}) {
          SCOPED_TRACE(std::to_string(n) + (distinct ? " distinct" : " repeated") + " threads " +
                       std::to_string(threads));
          Records r = make_records(rng, n, format, /*real_prefixes=*/false, distinct);
          const EntryLess less{&format, r.bytes.data()};
          std::vector<RecordEntry> want(r.entries.begin(), r.entries.end());
          std::sort(want.begin(), want.end(), less);
          std::shuffle(r.entries.begin(), r.entries.end(), rng);
          sort_tied(r.entries.begin(), r.entries.end(), less, threads);
          EXPECT_EQ(offsets(r.entries), offsets(want));
        }
}

TEST(TiedRecords, SettleTiesOnAnyThreadCountIsTheFullOrder) {
  std::mt19937 rng(20261129);
  for (const LineFormat& format : {by_first_field(), folding_case()})
    for (const unsigned threads : {1u, 2u, 5u}) {
      // Records whose prefixes are all equal but for one in a thousand:
      // runs of ties too long for one thread among short ones.
      Records r = make_records(rng, 300000, format, /*real_prefixes=*/true);
      for (std::size_t i = 0; i < r.entries.size(); ++i)
        if (i % 1000 != 0 && i % 3 == 0) r.entries.begin()[i].prefix = Prefix{};
      const EntryLess less{&format, r.bytes.data()};
      std::vector<RecordEntry> want(r.entries.begin(), r.entries.end());
      std::sort(want.begin(), want.end(), less);
      std::sort(r.entries.begin(), r.entries.end(), PrefixLess{});
      settle_ties(r.entries, 0, r.entries.size(), less, threads);
      EXPECT_EQ(offsets(r.entries), offsets(want)) << threads;
    }
}

}  // namespace
}  // namespace corank::text
