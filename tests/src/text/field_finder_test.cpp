#include "corank/text/field_finder.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <string>

namespace corank::text {
namespace {

std::string key(std::string_view line, const char* spec, int tab = kNoTab) {
  const KeySpan s = find_key(line, parse_keydef(spec), tab);
  return std::string(s.begin, s.size());
}

TEST(FieldFinder, BlankSeparatedFieldsKeepTheirLeadingBlanks) {
  EXPECT_EQ(key("a  bb ccc", "2,2"), "  bb");
  EXPECT_EQ(key("a  bb ccc", "2b,2"), "bb");
  EXPECT_EQ(key("a  bb ccc", "2"), "  bb ccc");
  EXPECT_EQ(key("  a b", "1,1"), "  a");
  EXPECT_EQ(key("a b", "3,3"), "");
}

TEST(FieldFinder, CharacterPositions) {
  EXPECT_EQ(key("abcdef ghi", "1.2,1.4"), "bcd");
  EXPECT_EQ(key("ab  cdef", "2.2,2.3"), " c");   // characters count from the field's leading blanks
  EXPECT_EQ(key("ab  cdef", "2.2b,2.3b"), "de");  // b skips the blanks before counting
  EXPECT_EQ(key("abc", "1.5"), "");
}

TEST(FieldFinder, SeparatorFields) {
  EXPECT_EQ(key("a,b,,d", "2,2", ','), "b");
  EXPECT_EQ(key("a,b,,d", "3,3", ','), "");
  EXPECT_EQ(key("a,b,,d", "2,3", ','), "b,");
  EXPECT_EQ(key("a,b,,d", "2", ','), "b,,d");
  EXPECT_EQ(key("a, b", "2,2", ','), " b");
}

// Fields are found eight bytes a step: a blank (space, tab, newline) at any
// place in a word, long fields, and bytes that look like blanks in part
// (0x20 | 0x80, 0x09 + 0x100 borrowed) against the key found byte by byte.
TEST(FieldFinder, LongFieldsAgainstAByteByByteScan) {
  std::mt19937 rng(20261201);
  const char bytes[] = {'a', ' ', '\t', '\n', '\xa0', '\x08', '\x1f', '\x0b', '\x21', 'z'};
  auto naive = [](const std::string& line, unsigned field) {  // field `field`, its leading blanks included
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
    std::size_t p = 0;
    for (unsigned f = 1; f < field; ++f) {
      while (p < line.size() && blank(line[p])) ++p;
      while (p < line.size() && !blank(line[p])) ++p;
    }
    const std::size_t begin = p;
    while (p < line.size() && blank(line[p])) ++p;
    while (p < line.size() && !blank(line[p])) ++p;
    return line.substr(begin, p - begin);
  };
  for (int round = 0; round < 2000; ++round) {
    std::string line;
    const std::size_t n = rng() % 200;
    const unsigned blank_odds = 1 + rng() % 60;  // one byte in blank_odds (about) a blank
    for (std::size_t i = 0; i < n; ++i)
      line += rng() % blank_odds == 0 ? bytes[1 + rng() % 3] : bytes[rng() % std::size(bytes)];
    for (unsigned field = 1; field <= 3; ++field) {
      const std::string spec = std::to_string(field) + "," + std::to_string(field);
      ASSERT_EQ(key(line, spec.c_str()), naive(line, field)) << round << " field " << field;
    }
  }
  const std::string filler(3 << 20, 'x');
  EXPECT_EQ(key("id " + filler + "\tend", "2,2"), " " + filler);
  EXPECT_EQ(key("id " + filler + "end", "2,2"), " " + filler + "end");
}

TEST(FieldFinder, EndBeforeStartIsEmpty) {
  EXPECT_EQ(key("abc def", "2,1"), "");
  EXPECT_EQ(key("abcdef", "1.4,1.2"), "");
}

}  // namespace
}  // namespace corank::text
