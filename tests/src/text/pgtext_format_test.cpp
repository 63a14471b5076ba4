#include "corank/text/pgtext_format.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "corank/errors.hpp"

namespace corank::text {
namespace {

PgTextFormat format(std::vector<std::string> keys, bool header = false) {
  PgTextOptions o;
  o.keys = std::move(keys);
  o.header = header;
  return PgTextFormat(o);
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

// The escapes of PostgreSQL's documentation (COPY, "Text Format").
TEST(PgTextFormat, UnescapesAsCopyReads) {
  EXPECT_EQ(unescape_pgtext(R"(a\tb\nc\\d\re)"), std::string("a\tb\nc\\d\re"));
  EXPECT_EQ(unescape_pgtext(R"(\b\f\v)"), std::string("\b\f\v"));
  EXPECT_EQ(unescape_pgtext(R"(\101\1010\7x)"), std::string("AA0\7x"));  // one to three octal digits
  EXPECT_EQ(unescape_pgtext(R"(\x41\x4a2\xg)"), std::string("AJ2xg"));  // one or two hex digits; \x alone is x
  EXPECT_EQ(unescape_pgtext(R"(\"\N\.\a)"), std::string("\"N.a"));       // any other byte stands for itself
  EXPECT_EQ(unescape_pgtext("\\\t"), std::string("\t"));
  EXPECT_EQ(unescape_pgtext("end\\"), std::string("end"));
  EXPECT_EQ(unescape_pgtext(R"(\377\400)"), std::string("\xff\x00", 2));  // masked to a byte, as COPY does
}

TEST(PgTextFormat, RowsEndAtUnescapedNewlines) {
  const PgTextFormat f = format({});
  const auto length = [&](std::string_view s) { return f.record_length(s.data(), s.data() + s.size()); };
  EXPECT_EQ(length("a\tb\nc\n"), 4u);
  EXPECT_EQ(length("a\\\nb\nc"), 5u);     // a backslash-newline is a newline in the data
  EXPECT_EQ(length("a\\\\\nb\n"), 4u);    // an escaped backslash, then the row's end
  EXPECT_EQ(length("a\\\\\\\nb\n"), 7u);  // three: the newline escaped
  EXPECT_EQ(length("a\\"), 0u);
  EXPECT_EQ(length("\"open\tb\n"), 8u);   // no quoting
}

TEST(PgTextFormat, NullIsTheRawNullStringAndEmptyIsText) {
  const PgTextFormat f = format({"2"});
  EXPECT_GT(f.compare("a\t\\N", "b\tz"), 0);       // NULL last
  EXPECT_LT(f.compare("a\t", "b\tA"), 0);          // an empty field: the empty string
  EXPECT_LT(f.compare("a\t\\\\N", "b\t\\N"), 0);   // \\N is the text \N
  EXPECT_EQ(f.compare("a\t\\N", "b"), 0);          // a missing column is NULL
  EXPECT_TRUE(f.prefix("b\tz") < f.prefix("a\t\\N"));
  PgTextOptions o;
  o.keys = {"2:nulls_first"};
  o.null_string = "";
  const PgTextFormat g(o);
  EXPECT_LT(g.compare("a\t", "b\tA"), 0);
  EXPECT_GT(g.compare("a\t\\N", "b\t"), 0);  // \N is the text N now
}

TEST(PgTextFormat, FieldsCompareByTheirUnescapedBytes) {
  const PgTextFormat f = format({"2", "1:n:desc"});
  EXPECT_EQ(f.compare("1\ta\\tb", "1\ta\\011b"), 0);
  EXPECT_LT(f.compare("1\ta\\tb", "1\ta b"), 0);     // a tab (9) before a space (32)
  EXPECT_GT(f.compare("1\tx\\\ty", "1\tx\ty"), 0);   // an escaped delimiter is data, not a split
  EXPECT_EQ(f.compare("1\tx\\\ty", "1\tx\\ty"), 0);  // \<tab> and \t: both a tab
  EXPECT_LT(f.compare("2\t\"", "1\t\""), 0);        // a quote is a byte like another
  EXPECT_EQ(f.compare("1\tv\r", "1\tv"), 0);          // the CR of CRLF ends the line
  EXPECT_GT(f.compare("1\tv\\\r", "1\tv"), 0);        // an escaped CR is data
  const PgTextFormat rows = format({});              // without keys: column by column
  EXPECT_LT(rows.compare("a\tb", "a\tb\tc"), 0);
  EXPECT_LT(rows.compare("a\tb", "a\t\\N"), 0);
  EXPECT_GT(rows.compare("a\\nb", "a\\tb\tz"), 0);  // a newline (10) after a tab (9)
  EXPECT_EQ(rows.compare("a\\nb", "a\\012b"), 0);
}

TEST(PgTextFormat, HeaderNamesTheColumns) {
  PgTextFormat f = format({"the\tscore:n", "name"}, true);
  EXPECT_THROW(f.compare("a", "b"), UsageError);  // named keys before a header
  f.set_header("name\tthe\\tscore\r", "a.tsv");
  EXPECT_LT(f.compare("x\t2", "a\t10"), 0);
  EXPECT_NO_THROW(f.check_header("name\tthe\\011score", "b.tsv"));
  EXPECT_EQ(message_of([&] { f.check_header("name\tscore", "c.tsv"); }),
            "c.tsv:1: its header differs from that of a.tsv: column 2 is 'score', not 'the\tscore'");
  EXPECT_THROW(format({"nope"}, true).set_header("a\tb", "a.tsv"), UsageError);
}

TEST(PgTextFormat, EndOfDataMarkersAreRefusedWithTheirLine) {
  const PgTextFormat f = format({});
  EXPECT_NO_THROW(f.check_record("a\t\\\\.", "in.txt", 3));  // \\. is a backslash and a period
  EXPECT_EQ(message_of([] { format({}).check_record("\\.", "in.txt", 3); }),
            "in.txt:3: \\. is COPY's end-of-data marker (COPY stops reading there): no row may hold one");
  EXPECT_EQ(message_of([] { format({}).check_record("a\\\nb\\.", "in.txt", 3); }).substr(0, 10), "in.txt:4: ");
  EXPECT_NO_THROW(f.check_unterminated("last\\\\", "in.txt", 9));
  EXPECT_EQ(message_of([] { format({}).check_unterminated("last\\", "in.txt", 9); }),
            "in.txt:9: the file ends in a backslash that escapes nothing");
}

// compare < 0 implies prefix <=, and compare is antisymmetric.
TEST(PgTextFormat, PrefixIsConsistentWithTheComparison) {
  std::mt19937 rng(3);
  const char* pieces[] = {"a", "b", "\\t", "\\\\", "\\N", "1", "-2", "NaN", "\\x41", "A", "\t", "\"", "\\011", " "};
  std::vector<std::string> rows;
  for (int i = 0; i < 200; ++i) {
    std::string s;
    for (int j = 0, n = static_cast<int>(rng() % 5); j < n; ++j) s += pieces[rng() % std::size(pieces)];
    rows.push_back(s);
  }
  for (const char* key : {"", "1", "2:desc", "1:n", "2:nulls_first", "1:decimal:desc"}) {
    const PgTextFormat f = format(*key ? std::vector<std::string>{key} : std::vector<std::string>{});
    for (const auto& a : rows)
      for (const auto& b : rows) {
        const int ab = f.compare(a, b);
        ASSERT_EQ(ab, -f.compare(b, a)) << key << " '" << a << "' '" << b << "'";
        if (ab < 0) ASSERT_FALSE(f.prefix(b) < f.prefix(a)) << key << " '" << a << "' < '" << b << "'";
      }
  }
}

}  // namespace
}  // namespace corank::text
