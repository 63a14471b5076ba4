#include "corank/normalize.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace corank {
namespace {

template <class T>
std::vector<std::uint64_t> norm(const RecordFormat& f, T value) {
  std::vector<std::byte> rec(f.record_size);
  std::memcpy(rec.data(), &value, sizeof(T));
  KeyNormalizer n(f);
  std::vector<std::uint64_t> out(n.words());
  n.normalize(rec.data(), out.data());
  return out;
}

// Normalized order must equal the numeric order for every pair of values.
template <class T>
void expect_order_preserved(const char* format, std::vector<T> values) {
  RecordFormat f = parse_format(format, {});
  std::sort(values.begin(), values.end());
  for (std::size_t i = 0; i + 1 < values.size(); ++i) {
    auto a = norm(f, values[i]);
    auto b = norm(f, values[i + 1]);
    if (values[i] < values[i + 1]) {
      EXPECT_LT(a, b) << format << " " << +values[i] << " vs " << +values[i + 1];
    } else {
      EXPECT_EQ(a, b) << format << " " << +values[i];
    }
  }
}

template <class T>
std::vector<T> interesting_ints() {
  using L = std::numeric_limits<T>;
  std::vector<T> v{L::min(), L::max(), T(0), T(1), T(L::max() - 1), T(L::min() + 1)};
  if constexpr (std::is_signed_v<T>) v.insert(v.end(), {T(-1), T(-2), T(2)});
  std::mt19937_64 rng(42);
  for (int i = 0; i < 200; ++i) v.push_back(static_cast<T>(rng()));
  return v;
}

TEST(Normalize, UnsignedIntegersKeepNumericOrder) {
  expect_order_preserved<std::uint32_t>("u32", interesting_ints<std::uint32_t>());
  expect_order_preserved<std::uint64_t>("u64", interesting_ints<std::uint64_t>());
}

TEST(Normalize, SignedIntegersKeepNumericOrder) {
  expect_order_preserved<std::int32_t>("i32", interesting_ints<std::int32_t>());
  expect_order_preserved<std::int64_t>("i64", interesting_ints<std::int64_t>());
}

template <class F>
void check_float_total_order() {
  using L = std::numeric_limits<F>;
  const char* fmt = sizeof(F) == 4 ? "f32" : "f64";
  RecordFormat f = parse_format(fmt, {});
  // Documented order: -NaN < -inf < -max < -1 < -denorm < -0.0 < +0.0 < denorm < 1 < max < inf < +NaN.
  std::vector<F> ascending{-L::quiet_NaN(), -L::infinity(), L::lowest(), F(-1), -L::denorm_min(), F(-0.0),
                           F(0.0),          L::denorm_min(), F(1),       L::max(), L::infinity(), L::quiet_NaN()};
  for (std::size_t i = 0; i + 1 < ascending.size(); ++i)
    EXPECT_LT(norm(f, ascending[i]), norm(f, ascending[i + 1])) << fmt << " position " << i;
  std::mt19937 rng(7);
  std::uniform_real_distribution<F> d(F(-1e6), F(1e6));
  std::vector<F> values;
  for (int i = 0; i < 300; ++i) values.push_back(d(rng));
  expect_order_preserved<F>(fmt, values);
}

TEST(Normalize, FloatsFollowIeeeTotalOrder) {
  check_float_total_order<float>();
  check_float_total_order<double>();
}

TEST(Normalize, DescendingInvertsOrder) {
  RecordFormat f = parse_format("fixed:8", {"0:8:i64:desc"});
  EXPECT_GT(norm(f, std::int64_t{-5}), norm(f, std::int64_t{3}));
  EXPECT_GT(norm(f, std::int64_t{0}), norm(f, std::int64_t{1}));
}

TEST(Normalize, BigEndianIntegersAndBytes) {
  RecordFormat be = parse_format("fixed:4", {"0:4:u32be"});
  const std::byte a[4] = {std::byte{0x00}, std::byte{0x00}, std::byte{0x01}, std::byte{0x00}};
  const std::byte b[4] = {std::byte{0x00}, std::byte{0x00}, std::byte{0x00}, std::byte{0xff}};
  KeyNormalizer n(be);
  EXPECT_GT(n.compare(a, b), 0);  // 256 > 255
  RecordFormat bytes = parse_format("fixed:4", {"0:4"});
  KeyNormalizer nb(bytes);
  EXPECT_GT(nb.compare(a, b), 0);  // memcmp order
  EXPECT_EQ(nb.compare(a, a), 0);
}

TEST(Normalize, MultiKeyConcatenatesInPriorityOrder) {
  // Record: [u16 LE group][i32 LE value desc]; order by group asc, then value desc.
  RecordFormat f = parse_format("fixed:6", {"0:2:u16", "2:4:i32:desc"});
  EXPECT_EQ(f.key_bytes(), 6u);
  EXPECT_EQ(f.key_words(), 1u);
  auto make = [](std::uint16_t g, std::int32_t v) {
    std::vector<std::byte> r(6);
    std::memcpy(r.data(), &g, 2);
    std::memcpy(r.data() + 2, &v, 4);
    return r;
  };
  KeyNormalizer n(f);
  EXPECT_LT(n.compare(make(1, 100).data(), make(2, 500).data()), 0);
  EXPECT_LT(n.compare(make(1, 100).data(), make(1, -100).data()), 0);
  EXPECT_EQ(n.compare(make(3, 7).data(), make(3, 7).data()), 0);
}

TEST(Normalize, GensortKeyIsTenBytesInTwoWords) {
  RecordFormat f = parse_format("gensort", {});
  EXPECT_EQ(f.record_size, 100u);
  EXPECT_EQ(f.key_words(), 2u);
  std::vector<std::byte> a(100, std::byte{0}), b(100, std::byte{0});
  b[9] = std::byte{1};  // differs only in the last key byte
  b[10] = std::byte{0xff};
  a[50] = std::byte{0xff};  // bytes past the key never count
  KeyNormalizer n(f);
  EXPECT_LT(n.compare(a.data(), b.data()), 0);
  b[9] = std::byte{0};
  EXPECT_EQ(n.compare(a.data(), b.data()), 0);
}

}  // namespace
}  // namespace corank
