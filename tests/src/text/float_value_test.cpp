#include "corank/text/float_value.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace corank::text {
namespace {

int cmp(std::string_view a, std::string_view b) { return compare_float8(parse_float8(a), parse_float8(b)); }

// The answers of PostgreSQL 15's SELECT 'TEXT'::float8.
TEST(FloatValue, ReadsWhatFloat8Reads) {
  EXPECT_EQ(parse_float8(" 12 "), 12.0);
  EXPECT_EQ(parse_float8("\f12\r\v"), 12.0);  // float8in skips C's isspace, CR and FF too
  EXPECT_EQ(parse_float8("5."), 5.0);
  EXPECT_EQ(parse_float8("-.5"), -0.5);
  EXPECT_EQ(parse_float8("+1e3"), 1000.0);
  EXPECT_EQ(parse_float8("0x1.8P1"), 3.0);
  EXPECT_EQ(parse_float8("0x10"), 16.0);
  EXPECT_EQ(parse_float8("1e-320"), 1e-320);  // subnormal: in range
  EXPECT_EQ(parse_float8("-inf"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_float8("INFINITY"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_float8("+Infinity"), std::numeric_limits<double>::infinity());
  for (const char* nan : {"NaN", "nan", "-nan", "+NAN", "nan()", "nan(12)"}) {
    SCOPED_TRACE(nan);
    ASSERT_TRUE(parse_float8(nan).has_value());
    EXPECT_TRUE(std::isnan(*parse_float8(nan)));
  }
  for (const char* bad : {"", " ", "1e", "1e+", "0x", "infin", "infinite", "- 1", "+-1", "1_000", "1,5", "1e400",
                          "1.8e308", "1e-400", "NULL", "12abc"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(parse_float8(bad).has_value());
  }
}

// --decimal-separator=,: the comma is the point, and a '.' makes no number.
TEST(FloatValue, DecimalCommas) {
  EXPECT_EQ(parse_float8("2,5", ','), 2.5);
  EXPECT_EQ(parse_float8(" -0,125 ", ','), -0.125);
  EXPECT_EQ(parse_float8("3", ','), 3.0);
  EXPECT_EQ(parse_float8("1,5e3", ','), 1500.0);
  EXPECT_EQ(parse_float8("2.5", '.'), 2.5);
  const std::string long_value = "0," + std::string(100, '0') + "1";  // copied past the stack buffer
  EXPECT_EQ(parse_float8(long_value, ','), 1e-101);
  for (const char* bad : {"2.5", "1.000,5", "1,2,3", ",", ""}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(parse_float8(bad, ',').has_value());
  }
}

TEST(FloatValue, OrdersAsFloat8) {
  EXPECT_EQ(cmp("-Infinity", "-1.7e308"), -1);
  EXPECT_EQ(cmp("Infinity", "1.7e308"), 1);
  EXPECT_EQ(cmp("NaN", "Infinity"), 1);
  EXPECT_EQ(cmp("NaN", "-nan"), 0);
  EXPECT_EQ(cmp("-0", "0"), 0);
  EXPECT_EQ(cmp("0.1", "0.1000000000000000000001"), 0);  // the same double
  EXPECT_EQ(cmp("-2", "1.5"), -1);
  EXPECT_EQ(cmp("1e-320", "0"), 1);
  EXPECT_EQ(cmp("text", "-Infinity"), -1);  // unparsable first
  EXPECT_EQ(cmp("text", "1e400"), 0);
}

TEST(FloatValue, CodesPreserveOrder) {
  std::mt19937_64 rng(5);
  std::vector<std::string> v = {"NaN", "-nan", "inf", "-inf", "0", "-0", "1e-320", "-1e-320", "x", "1e400",
                                "1.7976931348623157e308", "-1.7976931348623157e308"};
  for (int i = 0; i < 400; ++i) {
    const double d = std::ldexp(static_cast<double>(rng() % 2000) - 1000, static_cast<int>(rng() % 40) - 20);
    v.push_back(std::to_string(d));
  }
  for (const auto& a : v)
    for (const auto& b : v) {
      unsigned char ca[kFloatCodeBytes], cb[kFloatCodeBytes];
      encode_float8(parse_float8(a), ca);
      encode_float8(parse_float8(b), cb);
      const int c = std::memcmp(ca, cb, kFloatCodeBytes);
      ASSERT_EQ((c > 0) - (c < 0), cmp(a, b)) << a << " vs " << b;
    }
}

}  // namespace
}  // namespace corank::text
