#include "corank/text/field_finder.hpp"

#include <gtest/gtest.h>

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

TEST(FieldFinder, EndBeforeStartIsEmpty) {
  EXPECT_EQ(key("abc def", "2,1"), "");
  EXPECT_EQ(key("abcdef", "1.4,1.2"), "");
}

}  // namespace
}  // namespace corank::text
