// RowCheck (row_check.hpp) and the formats' field counts: the counts are
// those of Python's csv reader (len(row); 1 for a blank line) and of
// PostgreSQL's COPY text format, written down here; the first row or the
// header sets every row's; a bad record throws with its file and physical
// line, or goes to the rejects with its terminator; a blank JSON line is
// skipped.
#include "corank/text/row_check.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "corank/errors.hpp"
#include "corank/text/csv_format.hpp"
#include "corank/text/jsonl_format.hpp"
#include "corank/text/pgtext_format.hpp"

namespace corank::text {
namespace {

namespace fs = std::filesystem;

TEST(RowCheck, FieldCountsAsPythonsCsvReaderAndCopyCountThem) {
  const CsvFormat csv(CsvOptions{});
  EXPECT_EQ(csv.field_count("a,b,c"), 3u);
  EXPECT_EQ(csv.field_count(""), 1u);
  EXPECT_EQ(csv.field_count("a,b\r"), 2u);                        // a CR LF line end
  EXPECT_EQ(csv.field_count("\"a,b\",\"x\ny\",\"say \"\"hi, there\"\"\""), 3u);
  EXPECT_EQ(csv.field_count("a\"b,c"), 2u);                       // a quote inside a field opens nothing
  EXPECT_EQ(csv.field_count("\"a\"b,c"), 2u);                     // bytes after a closing quote belong to the field
  EXPECT_EQ(csv.field_count("\xEF\xBB\xBF\"id\",name"), 2u);      // a byte order mark, then a quoted field
  CsvOptions tab;
  tab.delimiter = '\t';
  EXPECT_EQ(CsvFormat(tab).field_count("a\t\"b\tc\"\t"), 3u);
  PgTextOptions o;
  const PgTextFormat pg(o);
  EXPECT_EQ(pg.field_count("a\tb\t\\N"), 3u);
  EXPECT_EQ(pg.field_count("a\\\tb\tc"), 2u);   // an escaped tab is data
  EXPECT_EQ(pg.field_count("a\\\\\tb"), 2u);    // an escaped backslash, then a tab
  EXPECT_EQ(pg.field_count("a\tb\r"), 2u);
  EXPECT_FALSE(JsonlFormat(JsonlOptions{}).field_count("{\"a\":1}"));
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RowCheck, TheHeaderOrTheFirstRowSetsTheFieldsEveryRowHas) {
  const CsvFormat csv(CsvOptions{});
  RowCheck first(csv, nullptr);
  EXPECT_TRUE(first.admit("1,a", "a.csv", 1));
  EXPECT_TRUE(first.admit("2,\"b,c\"", "a.csv", 2));
  EXPECT_EQ(message_of([&] { first.admit("3,c,d", "b.csv", 7); }),
            "b.csv:7: 3 fields, where the first row (a.csv:1) has 2");
  RowCheck header(csv, nullptr);
  header.set_header("id,name,note", "h.csv");
  EXPECT_EQ(message_of([&] { header.admit("1,a", "h.csv", 4); }), "h.csv:4: 2 fields, where the header of h.csv has 3");
  EXPECT_EQ(message_of([&] { header.admit("", "h.csv", 5); }), "h.csv:5: 1 field, where the header of h.csv has 3");
}

TEST(RowCheck, RejectsTakeBadRecordsWithTheirTerminator) {
  const fs::path dir = fs::temp_directory_path() / ("corank-rowcheck-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "rejects").string();
  const JsonlFormat jsonl(JsonlOptions{});
  {
    Rejects rejects(path, io::IoOptions{}, '\n');
    RowCheck rows(jsonl, &rejects);
    EXPECT_TRUE(rows.admit("{\"a\":1}", "in", 1));
    EXPECT_FALSE(rows.admit(" \t\r", "in", 2));  // blank: skipped, no reject
    EXPECT_FALSE(rows.admit("", "in", 3));
    EXPECT_FALSE(rows.admit("[1]", "in", 4));
    EXPECT_FALSE(rows.admit("{\"a\":", "in", 5));
    EXPECT_EQ(rejects.count(), 2u);
    EXPECT_EQ(rejects.first(), "in:4: invalid JSON: not an object");
    EXPECT_FALSE(fs::exists(path));  // nothing under its name before commit()
    rejects.commit();
  }
  std::ifstream f(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}), "[1]\n{\"a\":\n");
  {
    Rejects uncommitted(path + "2", io::IoOptions{}, '\n');
    RowCheck rows(jsonl, &uncommitted);
    EXPECT_FALSE(rows.admit("[1]", "in", 1));
  }
  EXPECT_FALSE(fs::exists(path + "2"));  // a sort that failed leaves none
  fs::remove_all(dir);
}

}  // namespace
}  // namespace corank::text
