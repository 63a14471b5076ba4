#include "corank/text/csv_format.hpp"

#include <gtest/gtest.h>

#include "corank/errors.hpp"
#include "corank/format.hpp"

namespace corank::text {
namespace {

using Row = std::vector<std::string>;

TEST(CsvFormat, ParsesQuotedFields) {
  EXPECT_EQ(parse_csv_row("a,b,c", ','), (Row{"a", "b", "c"}));
  EXPECT_EQ(parse_csv_row("\"a,b\",\"say \"\"hi\"\"\",", ','), (Row{"a,b", "say \"hi\"", ""}));
  EXPECT_EQ(parse_csv_row("\"line\nbreak\",x\r", ','), (Row{"line\nbreak", "x"}));
  EXPECT_EQ(parse_csv_row("", ','), (Row{""}));
  EXPECT_EQ(parse_csv_row("a\tb", '\t'), (Row{"a", "b"}));
}

TEST(CsvFormat, RecordsEndAtNewlinesOutsideQuotes) {
  CsvFormat f(CsvOptions{});
  const std::string text = "a,\"x\ny\",b\nnext\n";
  EXPECT_EQ(f.record_length(text.data(), text.data() + text.size()), 10u);
  const std::string open = "a,\"x\ny";
  EXPECT_EQ(f.record_length(open.data(), open.data() + open.size()), 0u);
  EXPECT_THROW(f.check_unterminated("a,\"unterminated", "in.csv", 7), InputError);
  EXPECT_NO_THROW(f.check_unterminated("a,\"closed\"", "in.csv", 7));
}

TEST(CsvFormat, KeysByNumberNameAndType) {
  CsvOptions o;
  o.header = true;
  o.keys = {"price:n:desc", "2"};
  CsvFormat f(o);
  f.set_header("name,city,price");
  EXPECT_LT(f.compare("a,x,10", "b,x,9"), 0);         // price descending
  EXPECT_LT(f.compare("b,\"a,b\",9", "a,b,9"), 0);     // then city "a,b" < "b"
  EXPECT_EQ(f.compare("a,x,9", "b,x,9.0"), 0);
  EXPECT_FALSE(f.prefix("b,x,9") < f.prefix("a,x,10"));
}

TEST(CsvFormat, BadKeys) {
  CsvOptions o;
  o.keys = {"name"};
  EXPECT_THROW(CsvFormat{o}, UsageError);  // names need --header
  o.keys = {"0"};
  EXPECT_THROW(CsvFormat{o}, UsageError);
  o.keys = {"1:q"};
  EXPECT_THROW(CsvFormat{o}, UsageError);
  o.header = true;
  o.keys = {"nope"};
  CsvFormat f(o);
  EXPECT_THROW(f.set_header("a,b"), UsageError);
}

}  // namespace
}  // namespace corank::text
