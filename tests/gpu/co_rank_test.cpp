// co_rank on the host: the definition checked point by point, uniqueness,
// and that co-ranked slices merged piecewise reproduce std::merge.
#include "corank/gpu/co_rank.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "corank/gpu/serial_merge.cuh"
#include "corank/gpu/word_key.cuh"

namespace corank::gpu {
namespace {

using Vec = std::vector<std::uint32_t>;

Vec sorted_random(std::mt19937_64& rng, std::size_t n, std::uint32_t range) {
  Vec v(n);
  for (auto& x : v) x = static_cast<std::uint32_t>(rng() % range);
  std::sort(v.begin(), v.end());
  return v;
}

// The defining conditions of co-rank, straight from the spec.
bool satisfies_definition(const Vec& a, const Vec& b, std::int64_t k, std::int64_t i) {
  const std::int64_t m = std::int64_t(a.size()), n = std::int64_t(b.size()), j = k - i;
  if (i < 0 || i > m || j < 0 || j > n) return false;
  const bool left = i == 0 || j == n || a[i - 1] <= b[j];
  const bool right = j == 0 || i == m || b[j - 1] < a[i];
  return left && right;
}

void check_all_diagonals(const Vec& a, const Vec& b) {
  const std::int64_t m = std::int64_t(a.size()), n = std::int64_t(b.size());
  for (std::int64_t k = 0; k <= m + n; ++k) {
    const std::int64_t i = co_rank(k, a.data(), m, b.data(), n);
    ASSERT_TRUE(satisfies_definition(a, b, k, i)) << "k=" << k << " i=" << i;
    for (std::int64_t other = std::max<std::int64_t>(0, k - n); other <= std::min(k, m); ++other) {
      if (other != i) {
        ASSERT_FALSE(satisfies_definition(a, b, k, other)) << "not unique at k=" << k;
      }
    }
  }
}

TEST(CoRank, RandomInputsSatisfyDefinitionUniquely) {
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec a = sorted_random(rng, rng() % 40, 1000);
    const Vec b = sorted_random(rng, rng() % 40, 1000);
    check_all_diagonals(a, b);
  }
}

TEST(CoRank, DuplicateHeavyInputs) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec a = sorted_random(rng, rng() % 50, 3);
    const Vec b = sorted_random(rng, rng() % 50, 3);
    check_all_diagonals(a, b);
  }
}

TEST(CoRank, AllEqualTakesAFirst) {
  const Vec a(17, 5), b(11, 5);
  check_all_diagonals(a, b);
  for (std::int64_t k = 0; k <= 28; ++k) {
    EXPECT_EQ(co_rank(k, a.data(), std::int64_t(17), b.data(), std::int64_t(11)), std::min<std::int64_t>(k, 17));
  }
}

TEST(CoRank, EmptyAndDisjointInputs) {
  const Vec empty, low{1, 2, 3}, high{7, 8, 9, 10};
  check_all_diagonals(empty, empty);
  check_all_diagonals(empty, high);
  check_all_diagonals(low, empty);
  check_all_diagonals(low, high);
  check_all_diagonals(high, low);
  EXPECT_EQ(co_rank(std::int64_t(5), low.data(), std::int64_t(3), high.data(), std::int64_t(4)), 3);
  EXPECT_EQ(co_rank(std::int64_t(5), high.data(), std::int64_t(4), low.data(), std::int64_t(3)), 2);
}

// Cut the output into random chunks, co-rank each cut, merge each slice on
// its own: the concatenation must be std::merge, values included (stability).
TEST(CoRank, PiecewiseMergeMatchesStdMerge) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 100; ++trial) {
    const Vec a = sorted_random(rng, rng() % 300, trial % 2 ? 8 : 100000);
    const Vec b = sorted_random(rng, rng() % 300, trial % 2 ? 8 : 100000);
    const std::int64_t m = std::int64_t(a.size()), n = std::int64_t(b.size());
    using Pair = std::pair<std::uint32_t, std::int64_t>;  // key, source id (A: i, B: m + j)
    std::vector<Pair> pa, pb, expected, got;
    for (std::int64_t i = 0; i < m; ++i) pa.push_back({a[i], i});
    for (std::int64_t j = 0; j < n; ++j) pb.push_back({b[j], m + j});
    std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), std::back_inserter(expected),
               [](const Pair& x, const Pair& y) { return x.first < y.first; });
    const std::int64_t chunk = 1 + std::int64_t(rng() % 13);
    for (std::int64_t k0 = 0; k0 < m + n; k0 += chunk) {
      const std::int64_t k1 = std::min(k0 + chunk, m + n);
      const std::int64_t i0 = co_rank(k0, a.data(), m, b.data(), n);
      const std::int64_t i1 = co_rank(k1, a.data(), m, b.data(), n);
      serial_merge(a.data(), i0, i1, b.data(), k0 - i0, k1 - i1,
                   [&](std::int64_t, std::uint32_t key, bool from_b, std::int64_t src) {
                     got.push_back({key, from_b ? m + src : src});
                   });
    }
    ASSERT_EQ(got, expected) << "trial " << trial;
  }
}

TEST(CoRank, WordKeysCompareLexicographically) {
  std::vector<Key128> a{{{0, 5}}, {{1, 0}}, {{1, 0}}, {{2, 9}}};
  std::vector<Key128> b{{{0, 6}}, {{1, 0}}, {{1, 1}}};
  EXPECT_TRUE((Key128{{0, 9}} < Key128{{1, 0}}));
  EXPECT_FALSE((Key128{{1, 0}} < Key128{{1, 0}}));
  // Outputs: (0,5)a (0,6)b (1,0)a (1,0)a (1,0)b (1,1)b (2,9)a.
  const std::int64_t expected_i[] = {0, 1, 1, 2, 3, 3, 3, 4};
  for (std::int64_t k = 0; k <= 7; ++k) {
    EXPECT_EQ(co_rank(k, a.data(), std::int64_t(4), b.data(), std::int64_t(3)), expected_i[k]) << k;
  }
}

}  // namespace
}  // namespace corank::gpu
