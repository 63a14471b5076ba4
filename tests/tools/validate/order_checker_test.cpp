#include "order_checker.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace corank::tools {
namespace {

std::vector<std::uint8_t> u64_records(const std::vector<std::uint64_t>& values) {
  std::vector<std::uint8_t> out(values.size() * 8);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

OrderChecker check(const std::string& format, const std::vector<std::string>& keys,
                   const std::vector<std::uint8_t>& data, bool reverse, std::size_t split = 0) {
  const auto fmt = corank::parse_format(format, keys);
  OrderChecker c(fmt, reverse);
  const std::uint64_t n = data.size() / fmt.record_size;
  if (split > n) split = n;
  c.add(data.data(), split);
  c.add(data.data() + split * fmt.record_size, n - split);
  return c;
}

TEST(OrderChecker, AcceptsSortedAndFindsASwap) {
  std::vector<std::uint64_t> v(1000);
  for (std::uint64_t i = 0; i < v.size(); ++i) v[i] = i * 3;
  auto ok = check("u64", {}, u64_records(v), false);
  EXPECT_EQ(ok.records(), 1000u);
  EXPECT_FALSE(ok.first_disorder());
  EXPECT_EQ(ok.duplicates(), 0u);

  std::swap(v[400], v[401]);
  // Record 401 (now 1200) sorts before record 400 (now 1203).
  for (std::size_t split : {0, 1, 400, 401, 402, 1000}) {
    auto bad = check("u64", {}, u64_records(v), false, split);
    ASSERT_TRUE(bad.first_disorder()) << split;
    EXPECT_EQ(*bad.first_disorder(), 401u) << split;
    EXPECT_EQ(bad.disorders(), 1u) << split;
  }
}

// Checking pieces separately and appending them equals checking everything at once.
TEST(OrderChecker, AppendedPiecesMatchOneChecker) {
  std::vector<std::uint64_t> v = {1, 2, 2, 5, 4, 4, 9, 3, 3, 10, 11, 0};
  const auto data = u64_records(v);
  const auto fmt = corank::parse_format("u64", {});
  const auto whole = check("u64", {}, data, false);
  for (std::size_t a = 0; a <= v.size(); ++a) {
    for (std::size_t b = a; b <= v.size(); ++b) {
      OrderChecker p0(fmt, false), p1(fmt, false), p2(fmt, false);
      p0.add(data.data(), a);
      p1.add(data.data() + 8 * a, b - a);
      p2.add(data.data() + 8 * b, v.size() - b);
      p0.append(p1);
      p0.append(p2);
      EXPECT_EQ(p0.records(), whole.records());
      EXPECT_EQ(p0.first_disorder(), whole.first_disorder()) << a << " " << b;
      EXPECT_EQ(p0.disorders(), whole.disorders()) << a << " " << b;
      EXPECT_EQ(p0.duplicates(), whole.duplicates()) << a << " " << b;
    }
  }
  EXPECT_EQ(*whole.first_disorder(), 4u);
  EXPECT_EQ(whole.disorders(), 3u);
  EXPECT_EQ(whole.duplicates(), 3u);
}

TEST(OrderChecker, ReverseOrder) {
  std::vector<std::uint64_t> v = {9, 7, 7, 3, 1};
  EXPECT_FALSE(check("u64", {}, u64_records(v), true).first_disorder());
  EXPECT_EQ(*check("u64", {}, u64_records(v), false).first_disorder(), 1u);
  v[4] = 4;
  EXPECT_EQ(*check("u64", {}, u64_records(v), true).first_disorder(), 4u);
}

TEST(OrderChecker, CountsAdjacentDuplicates) {
  const std::vector<std::uint64_t> v = {1, 1, 1, 2, 3, 3, 4};
  const auto c = check("u64", {}, u64_records(v), false, 2);
  EXPECT_EQ(c.duplicates(), 3u);
  EXPECT_FALSE(c.first_disorder());
}

TEST(OrderChecker, UsesTheSortersKeyOrder) {
  // i64: -1 sorts before 0 although its bytes are larger.
  const std::vector<std::uint64_t> v = {static_cast<std::uint64_t>(-5), static_cast<std::uint64_t>(-1), 0, 7};
  EXPECT_FALSE(check("i64", {}, u64_records(v), false).first_disorder());
  EXPECT_EQ(*check("u64", {}, u64_records(v), false).first_disorder(), 2u);
}

TEST(OrderChecker, SeveralKeysWithDescending) {
  // fixed:4 records: byte 0 ascending, then byte 1 descending; bytes 2..3 are payload.
  const std::vector<std::uint8_t> ok = {1, 9, 0, 0, 1, 5, 0, 0, 1, 5, 7, 7, 2, 9, 0, 0};
  const auto c = check("fixed:4", {"0:1", "1:1:u8:desc"}, ok, false);
  EXPECT_FALSE(c.first_disorder());
  EXPECT_EQ(c.duplicates(), 1u);  // records 1 and 2 differ only in payload
  const std::vector<std::uint8_t> bad = {1, 5, 0, 0, 1, 9, 0, 0};
  EXPECT_EQ(*check("fixed:4", {"0:1", "1:1:u8:desc"}, bad, false).first_disorder(), 1u);
}

}  // namespace
}  // namespace corank::tools
