#include "corank/format.hpp"

#include <gtest/gtest.h>

namespace corank {
namespace {

TEST(Format, ParsesKeySpecs) {
  KeySpec k = parse_key_spec("4:8:i64be:desc");
  EXPECT_EQ(k.offset, 4u);
  EXPECT_EQ(k.length, 8u);
  EXPECT_EQ(k.type, KeyType::Int);
  EXPECT_EQ(k.endian, Endian::Big);
  EXPECT_TRUE(k.descending);
  KeySpec b = parse_key_spec("0:10");
  EXPECT_EQ(b.type, KeyType::Bytes);
  EXPECT_FALSE(b.descending);
}

TEST(Format, RejectsBadKeySpecs) {
  for (const char* bad : {"", "1", "a:2", "0:0", "0:4:u64", "0:4:nonsense", "0:4:u32:desc:x", "0:65", "-1:2"})
    EXPECT_THROW(parse_key_spec(bad), UsageError) << bad;
}

TEST(Format, RejectsKeysOutsideTheRecordAndUnknownFormats) {
  EXPECT_THROW(parse_format("fixed:8", {"4:8"}), UsageError);
  EXPECT_THROW(parse_format("fixed:8", {}), UsageError);
  EXPECT_THROW(parse_format("fixed:0", {"0:1"}), UsageError);
  EXPECT_THROW(parse_format("u16", {}), UsageError);
  EXPECT_THROW(parse_format("csv", {}), UsageError);
  EXPECT_NO_THROW(parse_format("fixed:8", {"0:8:u64"}));
}

TEST(Format, TypedArrays) {
  for (const char* f : {"u32", "i32", "f32"}) EXPECT_EQ(parse_format(f, {}).record_size, 4u) << f;
  for (const char* f : {"u64", "i64", "f64"}) EXPECT_EQ(parse_format(f, {}).record_size, 8u) << f;
}

TEST(Format, ParsesSizesTheGnuWay) {
  EXPECT_EQ(parse_size("10"), 10u * 1024);
  EXPECT_EQ(parse_size("10", false), 10u);
  EXPECT_EQ(parse_size("10b"), 10u);
  EXPECT_EQ(parse_size("3K"), 3u << 10);
  EXPECT_EQ(parse_size("3M"), 3u << 20);
  EXPECT_EQ(parse_size("2G"), std::uint64_t{2} << 30);
  EXPECT_EQ(parse_size("1T"), std::uint64_t{1} << 40);
  EXPECT_EQ(parse_size("1P"), std::uint64_t{1} << 50);
  EXPECT_EQ(parse_size("15E"), std::uint64_t{15} << 60);
  EXPECT_GT(parse_size("50%"), 0u);
  EXPECT_GT(parse_size("101%"), parse_size("100%"));  // GNU takes any percentage
  for (const char* bad : {"", "x", "10Q", "16E", "1Z", "1Y", "1p", "-1", "99999999999999999999T", "100000000000%"})
    EXPECT_THROW(parse_size(bad), UsageError) << bad;
}

}  // namespace
}  // namespace corank
