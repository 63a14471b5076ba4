#include "corank/text/column_keys.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/text/csv_format.hpp"

namespace corank::text {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ColumnKeys, NamesResolveFromTheFirstHeader) {
  ColumnKeys k({"name", "2:n:desc"}, KeyField{}, true);
  EXPECT_THROW(k.require_resolved(), UsageError);
  k.name_columns({"id", "score", "name"}, "a.csv");
  EXPECT_NO_THROW(k.require_resolved());
  EXPECT_EQ(k.keys()[0].column, 2u);
  EXPECT_EQ(k.keys()[1].column, 1u);
  EXPECT_TRUE(k.keys()[1].key.key.reverse);
  EXPECT_THROW(ColumnKeys({"0"}, KeyField{}, true), UsageError);
  EXPECT_THROW(ColumnKeys({"name"}, KeyField{}, false), UsageError);  // a name needs --header
}

TEST(ColumnKeys, AKeyNamingAColumnTwiceIsAnError) {
  ColumnKeys k({"id", "name"}, KeyField{}, true);
  EXPECT_EQ(message_of([&] { k.name_columns({"id", "name", "x", "name"}, "a.csv"); }),
            "invalid key: the header of a.csv names two columns 'name' (columns 2 and 4)");
  ColumnKeys unnamed({"id"}, KeyField{}, true);
  EXPECT_NO_THROW(unnamed.name_columns({"id", "x", "x"}, "a.csv"));  // no key names x
  EXPECT_EQ(message_of([&] { ColumnKeys({"nope"}, KeyField{}, true).name_columns({"id"}, "a.csv"); }),
            "invalid key: no column named 'nope' in the header of a.csv");
}

// Every row holds the header's columns: a number past them names none, and
// is an error, unless a column's name spells it (a year in a pivot table's
// header), which is then the column meant. Without a header a number is a
// number (rows may be ragged).
TEST(ColumnKeys, ANumberPastTheHeaderIsAnErrorOrTheColumnItNames) {
  EXPECT_EQ(message_of([&] { ColumnKeys({"5:n"}, KeyField{}, true).name_columns({"region", "2023", "2024"}, "p.csv"); }),
            "invalid key: column 5 is past the 3 columns of the header of p.csv");
  EXPECT_EQ(message_of([&] { ColumnKeys({"2"}, KeyField{}, true).name_columns({"id"}, "one.csv"); }),
            "invalid key: column 2 is past the 1 column of the header of one.csv");
  ColumnKeys year({"2024:n", "2"}, KeyField{}, true);
  year.name_columns({"region", "2023", "2024"}, "p.csv");
  EXPECT_EQ(year.keys()[0].column, 2u);
  EXPECT_EQ(year.keys()[1].column, 1u);  // within the header: a number
  ColumnKeys unheaded({"7"}, KeyField{}, false);
  EXPECT_NO_THROW(unheaded.require_resolved());
  EXPECT_EQ(unheaded.keys()[0].column, 6u);
}

TEST(ColumnKeys, LaterHeadersMustNameTheSameColumns) {
  ColumnKeys k({}, KeyField{}, true);
  k.name_columns({"id", "name", "score"}, "a.csv");
  EXPECT_NO_THROW(k.check_header({"id", "name", "score"}, "b.csv"));
  EXPECT_EQ(message_of([&] { k.check_header({"id", "score", "name"}, "b.csv"); }),
            "b.csv:1: its header differs from that of a.csv: column 2 is 'score', not 'name'");
  EXPECT_EQ(message_of([&] { k.check_header({"id", "name"}, "c.csv"); }),
            "c.csv:1: its header differs from that of a.csv: 2 columns, not 3");
  EXPECT_THROW(k.check_header({"id", "name", "score", "extra"}, "d.csv"), InputError);
  EXPECT_EQ(message_of([&] { k.check_header({"id"}, "e.csv"); }),
            "e.csv:1: its header differs from that of a.csv: 1 column, not 3");
}

// CSV headers compare by their unquoted names: quoting, a byte order mark and
// CRLF change nothing.
TEST(ColumnKeys, CsvHeadersCompareUnquoted) {
  CsvOptions o;
  o.header = true;
  o.keys = {"name"};
  CsvFormat f(o);
  f.set_header("\xEF\xBB\xBFid,name\r", "a.csv");
  EXPECT_NO_THROW(f.check_header("\"id\",\"name\"", "b.csv"));
  EXPECT_THROW(f.check_header("id;name", "c.csv"), InputError);
}

}  // namespace
}  // namespace corank::text
