// u64_co_rank on the host: the split's definition at every rank (sum, and
// every key taken <= every key left), monotone in the rank, with random,
// duplicate-heavy, all-equal, extreme-valued and empty runs; and slab bounds
// whose segments, merged slab by slab, give std::sort of the union.
#include "corank/gpu/u64_co_rank.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace corank::gpu {
namespace {

using Runs = std::vector<std::vector<std::uint64_t>>;

std::vector<U64Run> runs_of(const Runs& runs) {
  std::vector<U64Run> v;
  for (const auto& r : runs) v.push_back({r.data(), r.size()});
  return v;
}

Runs make_runs(std::mt19937_64& rng, std::size_t k, std::uint64_t max_len, std::uint64_t range) {
  Runs runs(k);
  for (auto& r : runs) {
    r.resize(rng() % (max_len + 1));
    for (auto& x : r) x = range == 0 ? rng() : rng() % range;
    std::sort(r.begin(), r.end());
  }
  return runs;
}

void check_split(const Runs& runs, std::uint64_t rank, const std::vector<std::uint64_t>& s) {
  ASSERT_EQ(s.size(), runs.size());
  std::uint64_t sum = 0;
  std::uint64_t max_taken = 0, min_left = std::numeric_limits<std::uint64_t>::max();
  bool any_taken = false, any_left = false;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    ASSERT_LE(s[i], runs[i].size());
    sum += s[i];
    if (s[i] > 0) any_taken = true, max_taken = std::max(max_taken, runs[i][s[i] - 1]);
    if (s[i] < runs[i].size()) any_left = true, min_left = std::min(min_left, runs[i][s[i]]);
  }
  ASSERT_EQ(sum, rank);
  if (any_taken && any_left) {
    ASSERT_LE(max_taken, min_left) << "rank " << rank;
  }
}

void check_all_ranks(const Runs& runs) {
  const auto views = runs_of(runs);
  std::uint64_t total = 0;
  for (const auto& r : runs) total += r.size();
  std::vector<std::uint64_t> prev(runs.size(), 0);
  for (std::uint64_t rank = 0; rank <= total; ++rank) {
    const auto s = u64_co_rank(views.data(), views.size(), rank);
    check_split(runs, rank, s);
    for (std::size_t i = 0; i < runs.size(); ++i) ASSERT_GE(s[i], prev[i]) << "not monotone at rank " << rank;
    prev = s;
  }
}

TEST(U64CoRank, RandomRuns) {
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 100; ++trial) check_all_ranks(make_runs(rng, 1 + rng() % 8, 40, 0));
}

TEST(U64CoRank, DuplicateHeavyRuns) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 100; ++trial) check_all_ranks(make_runs(rng, 1 + rng() % 8, 40, 1 + rng() % 4));
}

TEST(U64CoRank, AllEqualRuns) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 20; ++trial) check_all_ranks(make_runs(rng, 1 + rng() % 8, 40, 1));
}

TEST(U64CoRank, ExtremeKeysAndEmptyRuns) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  check_all_ranks({{}, {0, 0, max}, {}, {max, max}, {0, 1, max - 1, max}, {}});
  check_all_ranks({{}, {}});
  check_all_ranks({});
  check_all_ranks({{max}});
}

TEST(U64CoRank, SlabBoundsMergeToSortedUnion) {
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 200; ++trial) {
    const Runs runs = make_runs(rng, 1 + rng() % 10, 50, trial % 2 ? 5 : 0);
    const auto views = runs_of(runs);
    std::vector<std::uint64_t> expect;
    for (const auto& r : runs) expect.insert(expect.end(), r.begin(), r.end());
    std::sort(expect.begin(), expect.end());
    const std::uint64_t slab = 1 + rng() % 20;
    const auto bounds = u64_slab_bounds(views.data(), views.size(), slab);
    ASSERT_EQ(bounds.size(), expect.empty() ? 1 : (expect.size() + slab - 1) / slab + 1);
    std::vector<std::uint64_t> got;
    for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
      std::vector<std::uint64_t> piece;
      for (std::size_t i = 0; i < runs.size(); ++i)
        piece.insert(piece.end(), runs[i].begin() + static_cast<std::ptrdiff_t>(bounds[s][i]),
                     runs[i].begin() + static_cast<std::ptrdiff_t>(bounds[s + 1][i]));
      ASSERT_LE(piece.size(), slab);
      if (s + 2 < bounds.size()) ASSERT_EQ(piece.size(), slab);
      std::sort(piece.begin(), piece.end());
      got.insert(got.end(), piece.begin(), piece.end());
    }
    ASSERT_EQ(got, expect);
  }
}

}  // namespace
}  // namespace corank::gpu
