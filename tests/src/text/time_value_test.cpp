#include "corank/text/time_value.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace corank::text {
namespace {

Instant at(std::int64_t s, std::uint32_t ns = 0) { return Instant{s, ns}; }

TEST(TimeValue, CompareInstants) {
  EXPECT_EQ(compare_instants(std::nullopt, at(-62135596800)), -1);  // unparsable first
  EXPECT_EQ(compare_instants(std::nullopt, std::nullopt), 0);
  EXPECT_EQ(compare_instants(at(5, 1), at(5)), 1);
  EXPECT_EQ(compare_instants(at(-1, 999'999'999), at(0)), -1);
}

TEST(TimeValue, Dates) {
  EXPECT_EQ(parse_date("1970-01-02"), 1);
  EXPECT_EQ(parse_date(" 1969-12-31 "), -1);
  EXPECT_EQ(parse_date("2024-02-29"), 19782);
  EXPECT_EQ(parse_date("2023-02-29"), std::nullopt);
  EXPECT_EQ(parse_date("2024-02-29T00:00"), std::nullopt);
  EXPECT_EQ(parse_date("24-02-29"), std::nullopt);
}

// PostgreSQL's date -infinity and infinity: before and after every date.
TEST(TimeValue, DateInfinities) {
  EXPECT_EQ(parse_date("-infinity"), INT64_MIN);
  EXPECT_EQ(parse_date(" Infinity "), INT64_MAX);
  EXPECT_LT(*parse_date("-INFINITY"), *parse_date("0001-01-01"));
  EXPECT_GT(*parse_date("infinity"), *parse_date("9999-12-31"));
  for (const char* bad : {"+infinity", "inf", "-inf", "infinityx", "infinit", "- infinity"})
    EXPECT_EQ(parse_date(bad), std::nullopt) << bad;
}

// The codes order as the instants do, the unparsable first.
TEST(TimeValue, CodesPreserveOrder) {
  std::mt19937_64 rng(7);
  std::vector<std::optional<Instant>> v{std::nullopt};
  for (int i = 0; i < 2000; ++i) {
    const auto s = static_cast<std::int64_t>(rng() % 20'000'000'000ull) - 10'000'000'000ll;
    v.push_back(at(s, static_cast<std::uint32_t>(rng() % 1'000'000'000)));
    if (i % 10 == 0) v.push_back(at(s));
  }
  auto code = [](const std::optional<Instant>& x) {
    std::vector<unsigned char> c(kTimeCodeBytes);
    encode_time(x, c.data());
    return c;
  };
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    const auto &a = v[i], &b = v[i + 1];
    const int by_value = !a || !b ? a.has_value() - b.has_value() : (*a < *b ? -1 : *a == *b ? 0 : 1);
    const auto ca = code(a), cb = code(b);
    const int by_code = std::memcmp(ca.data(), cb.data(), kTimeCodeBytes);
    EXPECT_EQ((by_value > 0) - (by_value < 0), (by_code > 0) - (by_code < 0));
  }
}

}  // namespace
}  // namespace corank::text
