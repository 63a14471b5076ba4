#include "corank/text/numeric_compare.hpp"

#include <gtest/gtest.h>

#include "corank/text/version_compare.hpp"

namespace corank::text {
namespace {

int sgn(int v) { return (v > 0) - (v < 0); }

TEST(NumericCompare, DecimalValuesOfAnyLength) {
  EXPECT_EQ(sgn(compare_numeric("10", "9")), 1);
  EXPECT_EQ(sgn(compare_numeric("-10", "-9")), -1);
  EXPECT_EQ(compare_numeric("007", "7"), 0);
  EXPECT_EQ(compare_numeric("1.50", "1.5"), 0);
  EXPECT_EQ(compare_numeric("-0", "0"), 0);
  EXPECT_EQ(compare_numeric("", "abc"), 0);  // no number reads as zero
  EXPECT_EQ(compare_numeric("-", "0"), 0);
  EXPECT_EQ(sgn(compare_numeric(".5", "0.49999")), 1);
  EXPECT_EQ(sgn(compare_numeric("  -.5", "0")), -1);
  EXPECT_EQ(sgn(compare_numeric("123456789012345678901234567890", "123456789012345678901234567891")), -1);
  EXPECT_EQ(compare_numeric("+5", "0"), 0);  // GNU -n takes no plus sign
  EXPECT_EQ(compare_numeric("1e3", "1"), 0);  // nor exponents
}

TEST(NumericCompare, HumanUnitsOrderFirst) {
  EXPECT_EQ(sgn(compare_human("1K", "999")), 1);
  EXPECT_EQ(sgn(compare_human("1M", "2K")), 1);
  EXPECT_EQ(sgn(compare_human("-1M", "-2K")), -1);
  EXPECT_EQ(sgn(compare_human("0K", "1")), -1);  // zero has no unit order
  EXPECT_EQ(human_unit_order("1.5k"), 1);
  EXPECT_EQ(human_unit_order("5R"), 9);  // ronna and quetta: units since coreutils 9.2
  EXPECT_EQ(human_unit_order("-5Q"), -10);
  EXPECT_EQ(sgn(compare_human("1Q", "999R")), 1);
  EXPECT_EQ(sgn(compare_human("1R", "999Y")), 1);
}

TEST(NumericCompare, GeneralNumbers) {
  EXPECT_EQ(sgn(compare_general("1e3", "999")), 1);
  EXPECT_EQ(sgn(compare_general("abc", "-inf")), -1);  // conversion errors first
  EXPECT_EQ(sgn(compare_general("nan", "-inf")), -1);  // then NaNs
  EXPECT_EQ(compare_general("-0", "0"), 0);
  EXPECT_EQ(sgn(compare_general("0x10", "15")), 1);
}

TEST(NumericCompare, Months) {
  EXPECT_EQ(month_of("jan"), 1);
  EXPECT_EQ(month_of("  DECember"), 12);
  EXPECT_EQ(month_of("ja"), 0);
  EXPECT_EQ(month_of("foo"), 0);
}

TEST(VersionCompare, DebianOrderWithSuffixes) {
  EXPECT_LT(compare_version("a2", "a10"), 0);
  EXPECT_LT(compare_version("1.0~rc1", "1.0"), 0);
  EXPECT_LT(compare_version("1.2.tar.gz", "1.10.tar.gz"), 0);
  EXPECT_LT(compare_version("", "a"), 0);
  EXPECT_LT(compare_version(".", ".."), 0);
  EXPECT_LT(compare_version(".a", "a"), 0);
  EXPECT_EQ(compare_version("01", "1"), 0);
  // A leading-dot name is all prefix (current gnulib): ".5" < ".Y" < ".a" < ".c".
  EXPECT_LT(compare_version(".5", ".aXz"), 0);
  EXPECT_LT(compare_version(".Y v2", ".aXz"), 0);
  EXPECT_LT(compare_version(".aXz", ".cXY"), 0);
  EXPECT_LT(compare_version("a.tar", "a.tar.gz"), 0);
}

}  // namespace
}  // namespace corank::text
