#include "corank/kway_merge.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "corank/key_entry.hpp"

namespace corank {
namespace {

using E = KeyEntry<2>;

std::vector<std::vector<E>> make_runs(std::size_t k, std::size_t max_len, std::uint64_t distinct, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<E>> runs(k);
  std::uint64_t pos = 0;
  for (auto& run : runs) {
    run.resize(rng() % (max_len + 1));
    for (auto& e : run) e.key[0] = rng() % distinct, e.key[1] = rng() % 2;
    std::stable_sort(run.begin(), run.end(), [](const E& a, const E& b) { return key_less(a, b); });
    for (auto& e : run) e.pos = pos++;
  }
  return runs;
}

// The reference: a stable sort of the concatenation keeps input (position) order on ties.
std::vector<E> reference(const std::vector<std::vector<E>>& runs) {
  std::vector<E> all;
  for (const auto& r : runs) all.insert(all.end(), r.begin(), r.end());
  std::stable_sort(all.begin(), all.end(), [](const E& a, const E& b) { return key_less(a, b); });
  return all;
}

void expect_same(const std::vector<E>& got, const std::vector<E>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].pos, want[i].pos) << "at " << i;
    ASSERT_TRUE(key_equal(got[i], want[i])) << "at " << i;
  }
}

class KwayMerge : public ::testing::TestWithParam<std::tuple<std::size_t, std::uint64_t, unsigned>> {};

TEST_P(KwayMerge, MatchesStableSortOfTheConcatenation) {
  auto [k, distinct, threads] = GetParam();
  for (std::uint32_t seed = 1; seed <= 5; ++seed) {
    auto runs = make_runs(k, 20000, distinct, seed);
    std::vector<std::span<const E>> seqs(runs.begin(), runs.end());
    auto want = reference(runs);
    std::vector<E> got(want.size());
    merge_kway_parallel(std::span<const std::span<const E>>(seqs), got.data(), threads);
    expect_same(got, want);
  }
}

INSTANTIATE_TEST_SUITE_P(Inputs, KwayMerge,
                         ::testing::Combine(::testing::Values(1, 2, 3, 7, 33),
                                            ::testing::Values(1, 4, 1u << 30),  // all-equal, duplicate-heavy, random
                                            ::testing::Values(1u, 2u, 5u)));

TEST(KwayMergeEdge, EmptyInputs) {
  std::vector<std::vector<E>> runs(5);
  std::vector<std::span<const E>> seqs(runs.begin(), runs.end());
  std::vector<E> out;
  merge_kway_parallel(std::span<const std::span<const E>>(seqs), out.data(), 4);
  SUCCEED();
}

}  // namespace
}  // namespace corank
