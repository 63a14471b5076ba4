#include "gen_spec.hpp"

#include <gtest/gtest.h>

namespace corank::tools {
namespace {

TEST(GenSpec, RecordCountSuffixesArePowersOfTen) {
  EXPECT_EQ(parse_record_count("0"), 0u);
  EXPECT_EQ(parse_record_count("12345"), 12345u);
  EXPECT_EQ(parse_record_count("10k"), 10'000u);
  EXPECT_EQ(parse_record_count("10K"), 10'000u);
  EXPECT_EQ(parse_record_count("3M"), 3'000'000u);
  EXPECT_EQ(parse_record_count("5G"), 5'000'000'000u);  // more than 2^32
  EXPECT_EQ(parse_record_count("2T"), 2'000'000'000'000u);
}

TEST(GenSpec, ByteSizeSuffixesArePowersOf1024) {
  EXPECT_EQ(parse_byte_size("100"), 100u);
  EXPECT_EQ(parse_byte_size("1K"), 1024u);
  EXPECT_EQ(parse_byte_size("1M"), 1u << 20);
  EXPECT_EQ(parse_byte_size("30G"), 30ull << 30);
}

TEST(GenSpec, RejectsMalformedAndOverflowingCounts) {
  for (const char* bad : {"", "k", "x", "1.5M", "-3", "10Q", "1 0", "20000000000T"})
    EXPECT_THROW(parse_record_count(bad), GenUsageError) << bad;
  EXPECT_THROW(parse_byte_size("99999999999999999T"), GenUsageError);
}

TEST(GenSpec, NamesRoundTrip) {
  for (auto f : {GenFormat::Gensort, GenFormat::GensortAscii, GenFormat::U32, GenFormat::U64, GenFormat::I32,
                 GenFormat::I64, GenFormat::F32, GenFormat::F64})
    EXPECT_EQ(parse_gen_format(to_string(f)), f);
  for (auto d : {GenDist::Uniform, GenDist::Skewed, GenDist::Sorted, GenDist::Reverse, GenDist::AllEqual,
                 GenDist::FewUnique, GenDist::Zipf, GenDist::NearlySorted})
    EXPECT_EQ(parse_gen_dist(to_string(d)), d);
  EXPECT_THROW(parse_gen_format("u16"), GenUsageError);
  EXPECT_THROW(parse_gen_dist("normal"), GenUsageError);
}

TEST(GenSpec, RecordSizes) {
  EXPECT_EQ(record_size(GenFormat::Gensort), 100u);
  EXPECT_EQ(record_size(GenFormat::GensortAscii), 100u);
  EXPECT_EQ(record_size(GenFormat::U32), 4u);
  EXPECT_EQ(record_size(GenFormat::F64), 8u);
}

}  // namespace
}  // namespace corank::tools
