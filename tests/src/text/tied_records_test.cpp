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
  Chunk chunk;  // the records' lengths, and `bytes` as its data (at())
  const Chunk* at() {
    chunk.mapped = bytes.data();
    return &chunk;
  }
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
    const Prefix p = real_prefixes ? format.prefix({r.bytes.data() + offset, length}) : Prefix{};
    r.entries.push_back(RecordEntry(p, offset, length, r.chunk.long_records));
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
          const EntryLess less{&format, r.at()};
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
      const EntryLess less{&format, r.at()};
      std::vector<RecordEntry> want(r.entries.begin(), r.entries.end());
      std::sort(want.begin(), want.end(), less);
      std::sort(r.entries.begin(), r.entries.end(), PrefixLess{});
      settle_ties(r.entries, 0, r.entries.size(), less, threads);
      EXPECT_EQ(offsets(r.entries), offsets(want)) << threads;
    }
}

// Orders that are the memcmp order of a byte string per line (no key, one
// text key, reversed or not: LineComparator::orders_by_bytes) settle their
// ties by the string's next bytes. Lines here share long heads, so that many
// tie in their prefixes and some in the bytes after; some are copies, some
// end in NUL bytes (equal to a shorter line's string padded with zeros), some
// keys hold a NUL (no string: compared in full), and some share a head long
// enough that their runs stop splitting level by level and go to the full
// comparison (most_stalled_levels).
TEST(TiedRecords, TiesSettledByTheNextBytesAreTheFullOrder) {
  std::mt19937 rng(20261130);
  auto format_of = [](std::vector<std::string> keys, bool reverse) {
    std::vector<KeyField> k;
    for (const auto& d : keys) k.push_back(parse_keydef(d));
    KeyField global;
    global.reverse = reverse;
    return LineFormat(resolve_ordering(k, global, kNoTab, false, false, '\n'));
  };
  const std::vector<LineFormat> formats = {format_of({}, false), format_of({}, true), format_of({"1,1"}, false),
                                           format_of({"1,1r"}, false), format_of({"1,1"}, true),
                                           format_of({"2,2"}, false), format_of({"1.3,1"}, false)};
  const std::string heads[] = {"2026-11-25T11:15:01.123456+01:00 host-a service-b[1234]:", "k",
                               std::string(70, 'x') + " same-key", std::string("nul\0key ") + std::string(40, 'q'),
                               std::string(1500, 'y') + " long-head"};
  const char alphabet[] = {'a', 'b', ' ', '\0', 'z'};
  for (std::size_t f = 0; f < formats.size(); ++f) {
    const LineFormat& format = formats[f];
    ASSERT_TRUE(format.line_comparator()->orders_by_bytes()) << f;
    Records r;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    std::string last;
    for (std::size_t i = 0; i < 20000; ++i) {
      std::string text;
      if (i > 0 && rng() % 5 == 0) {
        text = last;  // a copy
      } else {
        text = heads[rng() % std::size(heads)];
        for (std::size_t n = rng() % 90; n > 0; --n) text += alphabet[rng() % 5];
      }
      spans.emplace_back(r.bytes.size(), text.size());
      r.bytes += text + "\n";
      last = text;
    }
    for (const auto& [offset, length] : spans) {
      r.entries.push_back(RecordEntry(format.prefix({r.bytes.data() + offset, length}), offset, length,
                                      r.chunk.long_records));
    }
    const EntryLess less{&format, r.at()};
    std::vector<RecordEntry> want(r.entries.begin(), r.entries.end());
    std::sort(want.begin(), want.end(), less);
    for (const unsigned threads : {1u, 3u}) {
      io::HugeVector<RecordEntry> got;
      for (const RecordEntry& e : r.entries) got.push_back(e);
      std::sort(got.begin(), got.end(), PrefixLess{});
      settle_ties(got, 0, got.size(), less, threads);
      EXPECT_EQ(offsets(got), offsets(want)) << "format " << f << ", threads " << threads;
    }
  }
}

}  // namespace
}  // namespace corank::text
