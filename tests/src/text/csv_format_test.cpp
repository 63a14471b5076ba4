#include "corank/text/csv_format.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <string>
#include <string_view>

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

// Rows are found by skipping to the next quote or newline; against the
// automaton that walks them byte by byte (a quote opens a field only at its
// start; inside, a doubled quote is a quote), on random bytes of the few
// that matter, with and without a byte order mark, cut at every length.
TEST(CsvFormat, RecordLengthAgainstAByteByByteWalk) {
  auto walk = [](const char* p, const char* end, char delim) -> std::size_t {
    bool at_field_start = true, in_quotes = false;
    const std::string_view bom = "\xEF\xBB\xBF";
    const char* q = p + (std::string_view(p, static_cast<std::size_t>(end - p)).starts_with(bom) ? bom.size() : 0);
    for (; q < end; ++q) {
      if (in_quotes) {
        if (*q == '"') {
          if (q + 1 == end) return 0;
          if (q[1] == '"') ++q; else in_quotes = false;
        }
        continue;
      }
      if (*q == '\n') return static_cast<std::size_t>(q - p) + 1;
      if (*q == delim) { at_field_start = true; continue; }
      if (*q == '"' && at_field_start) in_quotes = true;
      at_field_start = false;
    }
    return 0;
  };
  std::mt19937 rng(20261201);
  const char bytes[] = {'a', ',', ';', '"', '"', '\n', '\r', 'z'};
  for (const char delim : {',', ';'}) {
    CsvOptions o;
    o.delimiter = delim;
    const CsvFormat f(o);
    for (int round = 0; round < 3000; ++round) {
      std::string text = rng() % 8 == 0 ? "\xEF\xBB\xBF" : "";
      for (std::size_t n = rng() % 40; n > 0; --n) text += bytes[rng() % std::size(bytes)];
      for (std::size_t cut = 0; cut <= text.size(); ++cut)
        ASSERT_EQ(f.record_length(text.data(), text.data() + cut), walk(text.data(), text.data() + cut, delim))
            << round << " cut " << cut << ": " << text;
    }
  }
}

TEST(CsvFormat, KeysByNumberNameAndType) {
  CsvOptions o;
  o.header = true;
  o.keys = {"price:n:desc", "2"};
  CsvFormat f(o);
  f.set_header("name,city,price", "in.csv");
  EXPECT_LT(f.compare("a,x,10", "b,x,9"), 0);         // price descending
  EXPECT_LT(f.compare("b,\"a,b\",9", "a,b,9"), 0);     // then city "a,b" < "b"
  EXPECT_EQ(f.compare("a,x,9", "b,x,9.0"), 0);
  EXPECT_FALSE(f.prefix("b,x,9") < f.prefix("a,x,10"));
}

TEST(CsvFormat, NullsAreMissingColumnsAndUnquotedNullStrings) {
  CsvOptions o;
  o.keys = {"2:n"};
  CsvFormat f(o);
  EXPECT_GT(f.compare("a,", "b,-1"), 0);        // NULL after every number
  EXPECT_GT(f.compare("a", "b,3"), 0);          // a missing column is NULL
  EXPECT_EQ(f.compare("a,", "b"), 0);
  EXPECT_LT(f.compare("a,\"\"", "b,"), 0);      // a quoted "" is an empty string: 0, not NULL
  EXPECT_EQ(f.compare("a,NULL", "b,0"), 0);     // no null string: NULL is text, reading as 0
  EXPECT_TRUE(f.prefix("b,3") < f.prefix("a,"));
  o.keys = {"2:n:desc"};
  EXPECT_GT(CsvFormat(o).compare("a,", "b,-1"), 0);  // still last under :desc
  o.global.reverse = true;
  EXPECT_GT(CsvFormat(o).compare("a,", "b,-1"), 0);  // and under -r
  o.global.reverse = false;
  o.keys = {"2"};
  o.null_string = "NULL";
  o.nulls = NullOrder::First;
  CsvFormat g(o);
  EXPECT_LT(g.compare("a,NULL", "b,A"), 0);
  EXPECT_GT(g.compare("a,", "b,NULL"), 0);  // the null string replaces the empty field: "" is text
  EXPECT_LT(g.compare("a,", "b,A"), 0);
  EXPECT_GT(g.compare("a,\"NULL\"", "b,A"), 0);  // quoted: the text NULL
  EXPECT_TRUE(g.prefix("a,NULL") < g.prefix("b,A"));
}

TEST(CsvFormat, NumbersWithExponentsDatesAndDecimals) {
  CsvOptions o;
  o.keys = {"1:n"};
  EXPECT_GT(CsvFormat(o).compare("1e3", "999"), 0);
  o.keys = {"1:date", "2:decimal:desc"};
  CsvFormat f(o);
  EXPECT_LT(f.compare("2025-12-31,1", "2026-01-01,2"), 0);
  EXPECT_LT(f.compare("2026-01-01,12345678901234567890.2", "2026-01-01,12345678901234567890.1"), 0);
  EXPECT_LT(f.compare("someday,1", "2026-01-01,1"), 0);  // unparsable dates first
}

TEST(CsvFormat, ByteOrderMarkIsNoPartOfTheFirstField) {
  CsvOptions o;
  o.header = true;
  o.keys = {"id:n"};
  CsvFormat f(o);
  EXPECT_NO_THROW(f.set_header("\xEF\xBB\xBFid,name", "in.csv"));
  EXPECT_LT(f.compare("2,b", "10,a"), 0);
  CsvOptions plain;
  plain.keys = {"1"};
  CsvFormat g(plain);
  EXPECT_EQ(g.compare("\xEF\xBB\xBF" "abc,x", "abc,y"), 0);
  EXPECT_EQ(g.prefix("\xEF\xBB\xBF" "abc,x"), g.prefix("abc,y"));
  EXPECT_EQ(parse_csv_row("\xEF\xBB\xBF\"a,b\",c", ','), (Row{"a,b", "c"}));  // the quote opens the field
  const std::string row = "\xEF\xBB\xBF\"a\nb\",c\nnext\n";
  EXPECT_EQ(g.record_length(row.data(), row.data() + row.size()), row.find("next"));
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
  try {
    f.set_header("a,b", "in.csv");
    ADD_FAILURE() << "a header without the key's column was accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "invalid key: no column named 'nope' in the header of in.csv");
  }
}

}  // namespace
}  // namespace corank::text
