// sort_nearly_in_order and its dealing into piles (pile_sort.hpp) against
// std::sort, on inputs shaped like logs (sorted files one after another, late
// lines, lines tied on their time) and on inputs that are not nearly in order
// (random, descending), where the slices are sorted instead.
#include "corank/text/pile_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace corank::text {
namespace {

struct Item {
  std::uint64_t key;
  std::uint64_t pos;  // input position: ties keep input order
  friend bool operator==(const Item&, const Item&) = default;
};
struct ItemLess {
  bool operator()(const Item& a, const Item& b) const noexcept { return a.key != b.key ? a.key < b.key : a.pos < b.pos; }
};

std::vector<Item> numbered(const std::vector<std::uint64_t>& keys) {
  std::vector<Item> v(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) v[i] = {keys[i], i};
  return v;
}

// `files` runs of `each` keys, each run in order, with some keys repeated:
// over the same range, or (`stacked`) each below the one before it, so that
// no record of one can go onto another's pile.
std::vector<std::uint64_t> sorted_files(std::mt19937_64& rng, std::size_t files, std::size_t each,
                                        bool stacked = false) {
  std::vector<std::uint64_t> keys;
  for (std::size_t f = 0; f < files; ++f) {
    std::vector<std::uint64_t> file(each);
    for (auto& k : file) k = rng() % (each * 4) + (stacked ? (files - f) * each * 4 : 0);
    std::sort(file.begin(), file.end());
    keys.insert(keys.end(), file.begin(), file.end());
  }
  return keys;
}

void expect_sorted_like_std(const std::vector<std::uint64_t>& keys, unsigned threads) {
  std::vector<Item> v = numbered(keys), want = v, scratch;
  std::sort(want.begin(), want.end(), ItemLess{});
  sort_nearly_in_order(v, scratch, ItemLess{}, threads);
  ASSERT_EQ(v.size(), want.size());
  EXPECT_TRUE(v == want) << keys.size() << " keys on " << threads << " threads";
}

TEST(PileSort, SortedFilesOneAfterAnotherAreEachAPileInPlace) {
  std::mt19937_64 rng(1);
  const auto keys = sorted_files(rng, 14, 5000, /*stacked=*/true);
  const auto v = numbered(keys);
  PileDeal deal;
  ASSERT_TRUE(deal_into_piles(std::span<const Item>(v), ItemLess{}, deal));
  EXPECT_EQ(deal.sizes.size(), 14u);
  EXPECT_EQ(deal.side, 0u);
  EXPECT_TRUE(deal.in_place());
  for (unsigned threads : {1u, 2u, 3u, 8u}) expect_sorted_like_std(keys, threads);
  // Over the same range, a file's records may join an earlier file's pile
  // (where they are above its last): fewer piles, not in place, the same order.
  const auto shared = sorted_files(rng, 14, 5000);
  const auto w = numbered(shared);
  ASSERT_TRUE(deal_into_piles(std::span<const Item>(w), ItemLess{}, deal));
  EXPECT_LE(deal.sizes.size(), 14u);
  for (unsigned threads : {1u, 2u, 3u, 8u}) expect_sorted_like_std(shared, threads);
}

TEST(PileSort, LateLinesTakePilesOfTheirOwn) {
  std::mt19937_64 rng(2);
  auto keys = sorted_files(rng, 6, 20000);
  for (std::size_t i = 100; i < keys.size(); i += 37) keys[i] -= std::min<std::uint64_t>(keys[i], rng() % 500);
  const auto v = numbered(keys);
  PileDeal deal;
  ASSERT_TRUE(deal_into_piles(std::span<const Item>(v), ItemLess{}, deal));
  EXPECT_FALSE(deal.in_place());
  EXPECT_LT(deal.sizes.size(), kMaxRuns);
  for (unsigned threads : {1u, 2u, 4u}) expect_sorted_like_std(keys, threads);
}

TEST(PileSort, TiesInRandomOrderWithinEachSecond) {
  // Lines tied on their time, ordered by the rest of the line: random within each second.
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> keys;
  for (std::uint64_t second = 0; second < 20000; ++second)
    for (int j = 0; j < 8; ++j) keys.push_back(second * 1000 + rng() % 1000);
  for (unsigned threads : {1u, 2u}) expect_sorted_like_std(keys, threads);
}

TEST(PileSort, ManyFilesCloseOldPiles) {
  std::mt19937_64 rng(4);
  const auto keys = sorted_files(rng, 3 * kMaxPiles, 300, /*stacked=*/true);
  const auto v = numbered(keys);
  PileDeal deal;
  ASSERT_TRUE(deal_into_piles(std::span<const Item>(v), ItemLess{}, deal));
  EXPECT_EQ(deal.sizes.size(), 3 * kMaxPiles);
  EXPECT_EQ(deal.side, 0u);
  expect_sorted_like_std(keys, 2);
}

TEST(PileSort, PastTheLastPileRecordsGoToTheSide) {
  std::mt19937_64 rng(5);
  const auto keys = sorted_files(rng, kMaxRuns + 50, 200, /*stacked=*/true);
  const auto v = numbered(keys);
  PileDeal deal;
  ASSERT_TRUE(deal_into_piles(std::span<const Item>(v), ItemLess{}, deal));
  EXPECT_EQ(deal.sizes.size(), kMaxRuns);
  EXPECT_GT(deal.side, 0u);
  for (unsigned threads : {1u, 2u}) expect_sorted_like_std(keys, threads);
}

TEST(PileSort, RandomAndDescendingInputGiveUpEarlyAndAreSorted) {
  std::mt19937_64 rng(6);
  std::vector<std::uint64_t> random(200000), descending(200000);
  for (auto& k : random) k = rng() % 100000;
  for (std::size_t i = 0; i < descending.size(); ++i) descending[i] = descending.size() - i;
  for (const auto* keys : {&random, &descending}) {
    const auto v = numbered(*keys);
    PileDeal deal;
    EXPECT_FALSE(deal_into_piles(std::span<const Item>(v), ItemLess{}, deal));
    for (unsigned threads : {1u, 2u, 4u}) expect_sorted_like_std(*keys, threads);
  }
}

TEST(PileSort, SmallEmptyAndAllEqual) {
  expect_sorted_like_std({}, 2);
  expect_sorted_like_std({5}, 2);
  expect_sorted_like_std({3, 1, 2}, 2);
  expect_sorted_like_std(std::vector<std::uint64_t>(100000, 7), 2);
  std::mt19937_64 rng(7);
  for (std::size_t n : {8191u, 8192u, 16385u, 70001u}) {
    auto keys = sorted_files(rng, 3, n / 3);
    keys.push_back(0);  // the last line late
    expect_sorted_like_std(keys, 2);
  }
}

// A file, two files whose lines interleave, and a file again: the line
// follows the first file, then the first of the two that interleave (the
// other's lines leave it), then, the first being done, the other's last
// line, then the last file; only the other interleaved file's records go
// through the start of scratch, whose other places are never written.
TEST(PileSort, OnlyRecordsOutOfLineGoThroughScratch) {
  std::mt19937_64 rng(8);
  const auto a = sorted_files(rng, 1, 3000), d = sorted_files(rng, 1, 3000);
  const auto bc = sorted_files(rng, 2, 2000, /*stacked=*/true);  // b above c
  std::vector<std::uint64_t> keys;
  for (const auto k : a) keys.push_back(k + 3'000'000);
  for (std::size_t i = 0; i < 2000; ++i) {
    keys.push_back(bc[i] + 2'000'000);
    keys.push_back(bc[2000 + i] + 2'000'000);
  }
  for (const auto k : d) keys.push_back(k);
  std::vector<Item> v = numbered(keys);
  PileDeal deal;
  ASSERT_TRUE(deal_into_piles(std::span<const Item>(v), ItemLess{}, deal));
  ASSERT_EQ(deal.sizes.size(), 4u);
  ASSERT_FALSE(deal.in_place());
  const Item untouched{~std::uint64_t{0}, ~std::uint64_t{0}};
  std::vector<Item> scratch(v.size(), untouched);
  const auto bounds = lay_out_piles(std::span<Item>(v), std::span<Item>(scratch), deal, ItemLess{});
  EXPECT_EQ(bounds, (std::vector<std::uint64_t>{0, 3000, 5000, 5001, 8001, 10000}));
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::size_t from = i < 3000 ? i
                             : i < 5000 ? 3000 + 2 * (i - 3000)
                             : i == 5000 ? 6999
                             : i < 8001 ? i + 1999
                                        : 3001 + 2 * (i - 8001);
    EXPECT_EQ(v[i].pos, from) << i;
  }
  for (std::size_t i = 1999; i < scratch.size(); ++i) ASSERT_EQ(scratch[i], untouched) << i;
  expect_sorted_like_std(keys, 1);
}

// Late lines and lines without a time (below every other, as a stack trace's
// lines are) spread through files: the files' lines move down in place, and
// scratch takes the others only.
TEST(PileSort, LateLinesAloneGoThroughScratch) {
  std::mt19937_64 rng(9);
  std::vector<std::uint64_t> keys = sorted_files(rng, 3, 30000, /*stacked=*/true);
  std::size_t out_of_line = 0;
  for (std::size_t i = 500; i < keys.size(); i += 997) {
    keys[i] = i % 2 ? 0 : keys[i] - std::min<std::uint64_t>(keys[i], 3);
    ++out_of_line;
  }
  std::vector<Item> v = numbered(keys), want = v;
  std::sort(want.begin(), want.end(), ItemLess{});
  PileDeal deal;
  ASSERT_TRUE(deal_into_piles(std::span<const Item>(v), ItemLess{}, deal));
  ASSERT_FALSE(deal.in_place());
  const Item untouched{~std::uint64_t{0}, ~std::uint64_t{0}};
  std::vector<Item> scratch(v.size(), untouched);
  const auto bounds = lay_out_piles(std::span<Item>(v), std::span<Item>(scratch), deal, ItemLess{});
  std::size_t written = 0;
  for (const Item& x : scratch) written += !(x == untouched);
  EXPECT_LE(written, out_of_line);
  std::vector<Item> merged;
  for (std::size_t r = 0; r + 1 < bounds.size(); ++r) {
    ASSERT_LT(bounds[r], bounds[r + 1]);
    ASSERT_TRUE(std::is_sorted(v.begin() + bounds[r], v.begin() + bounds[r + 1], ItemLess{})) << "run " << r;
    const auto mid = merged.size();
    merged.insert(merged.end(), v.begin() + bounds[r], v.begin() + bounds[r + 1]);
    std::inplace_merge(merged.begin(), merged.begin() + mid, merged.end(), ItemLess{});
  }
  EXPECT_EQ(bounds.back(), v.size());
  EXPECT_TRUE(merged == want);
  for (unsigned threads : {1u, 2u, 3u}) expect_sorted_like_std(keys, threads);
}

// Two files whose lines alternate in stretches of kInLine: kept in line they
// would be more than kMaxRuns runs, so every record goes through scratch, a
// run a pile.
TEST(PileSort, TooManyStretchesGoThroughScratchByPile) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t s = 0; s < kMaxRuns + 10; ++s)
    for (std::uint64_t i = 0; i < kInLine; ++i) keys.push_back((s * kInLine + i) * 2 + (s % 2 ? 1'000'000'000 : 0));
  std::vector<Item> v = numbered(keys);
  PileDeal deal;
  ASSERT_TRUE(deal_into_piles(std::span<const Item>(v), ItemLess{}, deal));
  ASSERT_EQ(deal.sizes.size(), 2u);
  std::vector<Item> scratch(v.size());
  const auto bounds = lay_out_piles(std::span<Item>(v), std::span<Item>(scratch), deal, ItemLess{});
  EXPECT_EQ(bounds.size(), 3u);
  for (std::size_t r = 0; r + 1 < bounds.size(); ++r)
    EXPECT_TRUE(std::is_sorted(v.begin() + bounds[r], v.begin() + bounds[r + 1], ItemLess{}));
  expect_sorted_like_std(keys, 2);
}

}  // namespace
}  // namespace corank::text
