#include "corank/text/exact_number.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace corank::text {
namespace {

int cmp(std::string_view a, std::string_view b) { return compare_exact(parse_exact_number(a), parse_exact_number(b)); }

TEST(ExactNumber, ExponentsAndEqualSpellings) {
  EXPECT_EQ(cmp("1e3", "1000"), 0);
  EXPECT_EQ(cmp("1E+3", "1000.000"), 0);
  EXPECT_EQ(cmp("0.001", "1e-3"), 0);
  EXPECT_EQ(cmp("12.5e-1", "1.25"), 0);
  EXPECT_EQ(cmp("+5", "5"), 0);
  EXPECT_EQ(cmp("-0", "0e9"), 0);
  EXPECT_EQ(cmp("000120", "1.2e2"), 0);
  EXPECT_EQ(cmp("1e3", "999"), 1);
  EXPECT_EQ(cmp("-1e3", "-999"), -1);
  EXPECT_EQ(cmp("1e-3", "0"), 1);
  EXPECT_EQ(cmp("-1e-300", "0"), -1);
  EXPECT_EQ(cmp("123456789012345678901", "123456789012345678902"), -1);  // beyond a double's digits
  EXPECT_EQ(cmp("9007199254740993", "9007199254740992"), 1);
  EXPECT_EQ(cmp("1.0000000000000000000001", "1"), 1);
  EXPECT_EQ(cmp("1e400", "1e399"), 1);
  EXPECT_EQ(cmp("1e", "1"), 0);      // an exponent needs digits: "1" and the rest
  EXPECT_EQ(cmp("abc", "0"), 0);     // no number reads as zero, as GNU's -n
  EXPECT_EQ(cmp("3 apples", "3"), 0);
}

// Found by csv_fuzz: an exponent of many digits overflowed while it was read
// (UBSan: signed integer overflow); it saturates instead.
// --decimal-separator=,: the comma is the point; a '.' ends the number.
TEST(ExactNumber, DecimalCommas) {
  auto comma = [](std::string_view a, std::string_view b) {
    return compare_exact(parse_exact_number(a, ','), parse_exact_number(b, ','));
  };
  EXPECT_EQ(comma("2", "2.5e0"), 0);  // the second stops at its '.': 2
  EXPECT_GT(comma("2,5", "2.5"), 0);
  EXPECT_EQ(comma("2,50", "2,5"), 0);
  EXPECT_LT(comma("2,1", "2,9"), 0);
  EXPECT_LT(comma("-0,25", "0"), 0);
  EXPECT_EQ(compare_exact(parse_exact_number("2,5", ','), parse_exact_number("2.5")), 0);
  EXPECT_TRUE(parse_exact_number(" 1,5e3 ", ',').whole);
  EXPECT_FALSE(parse_exact_number("1.5", ',').whole);
  EXPECT_FALSE(parse_exact_number("1,5").whole);
}

TEST(ExactNumber, HugeExponentsSaturate) {
  EXPECT_EQ(cmp("0.50e444444444444444400000", "1e400"), 1);
  EXPECT_EQ(cmp("1e99999999999999999999999999", "1e99999999999999999999999998"), 0);  // both at the limit
  EXPECT_EQ(cmp("1e-99999999999999999999999999", "0"), 1);
  EXPECT_EQ(cmp("-1e99999999999999999999999999", "-1e400"), -1);
}

TEST(ExactNumber, WholeMeansOneNumberAndBlanks) {
  EXPECT_TRUE(parse_exact_number(" -1.5e3 ").whole);
  EXPECT_TRUE(parse_exact_number("\r5\f\v").whole);  // numeric_in skips C's isspace, CR and FF too
  EXPECT_EQ(parse_exact_number("\r5\r").head, parse_exact_number("5").head);
  EXPECT_TRUE(parse_exact_number("\tNaN\r").whole);
  EXPECT_TRUE(parse_exact_number(".5").whole);
  EXPECT_TRUE(parse_exact_number("5.").whole);
  EXPECT_FALSE(parse_exact_number("").whole);
  EXPECT_FALSE(parse_exact_number("-").whole);
  EXPECT_FALSE(parse_exact_number("1e").whole);
  EXPECT_FALSE(parse_exact_number("1,5").whole);
  EXPECT_FALSE(parse_exact_number("NULL").whole);
}

// PostgreSQL's numeric: -Infinity < numbers < Infinity < NaN, NaN = NaN; the
// spellings its numeric_in accepts, as whole values only.
TEST(ExactNumber, NanAndInfinityAsPostgreSqlOrdersThem) {
  EXPECT_EQ(cmp("-Infinity", "-1e999999"), -1);
  EXPECT_EQ(cmp("Infinity", "1e999999"), 1);
  EXPECT_EQ(cmp("NaN", "Infinity"), 1);
  EXPECT_EQ(cmp("-inf", "Infinity"), -1);
  EXPECT_EQ(cmp("nan", "NAN"), 0);
  EXPECT_EQ(cmp(" NaN ", "nan"), 0);
  EXPECT_EQ(cmp("inf", "+Infinity"), 0);
  EXPECT_EQ(cmp("-INF", "-infinity"), 0);
  EXPECT_TRUE(parse_exact_number("NaN").whole);
  EXPECT_TRUE(parse_exact_number(" -Infinity ").whole);
  EXPECT_EQ(parse_exact_number("-inf").sign, ExactNumber::NegativeInfinity);
  for (const char* text : {"-nan", "+NaN", "infinite", "information", "inf x", "in", "nan1"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(parse_exact_number(text).whole);  // numeric_in refuses these
    EXPECT_EQ(parse_exact_number(text).sign, ExactNumber::Zero);  // text reads as zero under :n
  }
}

// Codes order as values do, on numbers close to each other in every way.
TEST(ExactNumber, CodesPreserveOrder) {
  std::mt19937 rng(11);
  const char* digits[] = {"0", "1", "9", "12", "120", "5", "00", "999999999999999999999999999999999999999999999999"};
  std::vector<std::string> v;
  for (int i = 0; i < 600; ++i) {
    std::string s = rng() % 3 == 0 ? "-" : "";
    s += digits[rng() % std::size(digits)];
    if (rng() % 2) s += std::string(".") + digits[rng() % std::size(digits)];
    if (rng() % 2) s += "e" + std::to_string(static_cast<int>(rng() % 9) - 4);
    v.push_back(s);
  }
  for (const char* special : {"NaN", "nan", "Infinity", "-Infinity", "inf", "-inf"}) v.push_back(special);
  for (const auto& a : v)
    for (const auto& b : v) {
      const ExactNumber x = parse_exact_number(a), y = parse_exact_number(b);
      unsigned char cx[32], cy[32];
      encode_exact(x, 0, cx, sizeof cx);
      encode_exact(y, 0, cy, sizeof cy);
      if (compare_exact(x, y) < 0) ASSERT_LE(std::memcmp(cx, cy, 32), 0) << a << " < " << b;
      if (compare_exact(x, y) == 0) ASSERT_EQ(std::memcmp(cx, cy, 32), 0) << a << " = " << b;
    }
}

}  // namespace
}  // namespace corank::text
