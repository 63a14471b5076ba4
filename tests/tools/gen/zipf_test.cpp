#include "zipf.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace corank::tools {
namespace {

// Probability of rank k under Zipf(s) over n ranks, by direct summation.
double zipf_probability(std::uint64_t k, std::uint64_t n, double s) {
  double norm = 0;
  for (std::uint64_t i = 1; i <= n; ++i) norm += std::pow(static_cast<double>(i), -s);
  return std::pow(static_cast<double>(k), -s) / norm;
}

TEST(Zipf, RanksStayInRange) {
  const ZipfSampler z(1000, 1.1);
  for (std::uint64_t i = 0; i < 20000; ++i) {
    RecordRng rng(7, i);
    const auto k = z.sample(rng);
    ASSERT_GE(k, 1u);
    ASSERT_LE(k, 1000u);
  }
}

TEST(Zipf, FrequenciesFollowTheLaw) {
  constexpr std::uint64_t kN = 1000, kDraws = 200000;
  const ZipfSampler z(kN, 1.1);
  std::vector<std::uint64_t> hits(kN + 1);
  for (std::uint64_t i = 0; i < kDraws; ++i) {
    RecordRng rng(42, i);
    ++hits[z.sample(rng)];
  }
  for (std::uint64_t k : {1, 2, 3, 10, 100}) {
    const double expected = zipf_probability(k, kN, 1.1) * kDraws;
    // Generous: five standard deviations of a binomial count, plus 2%.
    const double tolerance = 5 * std::sqrt(expected) + 0.02 * expected;
    EXPECT_NEAR(static_cast<double>(hits[k]), expected, tolerance) << "rank " << k;
  }
}

TEST(Zipf, ExponentOneIsHandled) {
  const ZipfSampler z(100, 1.0);  // (1 - s) = 0: the antiderivative's limit case
  std::uint64_t ones = 0;
  for (std::uint64_t i = 0; i < 50000; ++i) {
    RecordRng rng(3, i);
    const auto k = z.sample(rng);
    ASSERT_GE(k, 1u);
    ASSERT_LE(k, 100u);
    ones += k == 1;
  }
  const double expected = zipf_probability(1, 100, 1.0) * 50000;
  EXPECT_NEAR(static_cast<double>(ones), expected, 5 * std::sqrt(expected) + 0.02 * expected);
}

}  // namespace
}  // namespace corank::tools
