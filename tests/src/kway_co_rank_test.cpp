#include "corank/kway_co_rank.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "corank/key_entry.hpp"

namespace corank {
namespace {

using E = KeyEntry<1>;

enum class Keys { Random, FewDistinct, AllEqual };

// k sorted runs whose positions are unique: run i holds positions base_i + j, as
// the sorter numbers them, so ties between equal keys resolve by run, then index.
std::vector<std::vector<E>> make_runs(std::size_t k, std::size_t max_len, Keys keys, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<E>> runs(k);
  std::uint64_t pos = 0;
  for (auto& run : runs) {
    run.resize(rng() % (max_len + 1));
    for (auto& e : run) {
      e.key[0] = keys == Keys::Random ? rng() : keys == Keys::FewDistinct ? rng() % 3 : 42;
    }
    std::stable_sort(run.begin(), run.end(), [](const E& a, const E& b) { return key_less(a, b); });
    for (auto& e : run) e.pos = pos++;
  }
  return runs;
}

void check_every_split(const std::vector<std::vector<E>>& runs) {
  std::vector<std::span<const E>> seqs(runs.begin(), runs.end());
  std::vector<E> all;
  for (const auto& r : runs) all.insert(all.end(), r.begin(), r.end());
  std::sort(all.begin(), all.end());
  for (std::uint64_t rank = 0; rank <= all.size(); ++rank) {
    auto split = kway_co_rank(std::span<const std::span<const E>>(seqs), rank);
    ASSERT_EQ(split.size(), runs.size());
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      sum += split[i];
      // Everything taken is among the `rank` smallest, nothing left is.
      if (split[i] > 0 && rank > 0) EXPECT_FALSE(all[rank - 1] < runs[i][split[i] - 1]);
      if (split[i] < runs[i].size() && rank < all.size()) EXPECT_FALSE(runs[i][split[i]] < all[rank]);
    }
    ASSERT_EQ(sum, rank);
  }
}

class KwayCoRank : public ::testing::TestWithParam<std::tuple<std::size_t, Keys>> {};

TEST_P(KwayCoRank, EverySplitPointSelectsTheSmallestElements) {
  auto [k, keys] = GetParam();
  for (std::uint32_t seed = 1; seed <= 20; ++seed) check_every_split(make_runs(k, 40, keys, seed * 7919 + k));
}

INSTANTIATE_TEST_SUITE_P(Inputs, KwayCoRank,
                         ::testing::Combine(::testing::Values(1, 2, 3, 5, 16),
                                            ::testing::Values(Keys::Random, Keys::FewDistinct, Keys::AllEqual)));

TEST(KwayCoRankEdge, EmptyRunsAndNoRuns) {
  std::vector<std::span<const E>> none;
  EXPECT_TRUE(kway_co_rank(std::span<const std::span<const E>>(none), 0).empty());
  std::vector<std::vector<E>> runs(4);
  runs[2] = make_runs(1, 10, Keys::Random, 3)[0];
  check_every_split(runs);
}

TEST(KwayCoRankEdge, AllEqualKeysSplitInRunOrder) {
  // Equal keys: the first r elements are the first r positions, so earlier runs fill first.
  auto runs = make_runs(3, 0, Keys::AllEqual, 1);
  std::uint64_t pos = 0;
  for (auto& r : runs) {
    r.resize(10);
    for (auto& e : r) e = E{{7}, pos++};
  }
  std::vector<std::span<const E>> seqs(runs.begin(), runs.end());
  auto split = kway_co_rank(std::span<const std::span<const E>>(seqs), 15);
  EXPECT_EQ(split, (std::vector<std::uint64_t>{10, 5, 0}));
}

}  // namespace
}  // namespace corank
