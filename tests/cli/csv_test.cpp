// End-to-end tests of `corank --format csv|tsv`: random RFC 4180 files (quoted
// fields with delimiters, doubled quotes and newlines, CRLF rows, a missing
// final newline) sorted by column keys, in memory and with spilled runs,
// against a reference that parses the same bytes independently and sorts the
// rows stably with std::stable_sort.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

using corank::test::read_file;
using corank::test::write_file;

struct Row {
  std::string raw;  // the row's bytes, without its newline
  std::vector<std::string> fields;
  std::vector<bool> quoted;
};

// The reference parser: a character-level state machine written apart from corank's.
std::vector<Row> parse(const std::string& text, char delim) {
  std::vector<Row> rows;
  Row row;
  std::string field;
  bool quoted = false, field_start = true;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
      continue;
    }
    if (c == '"' && field_start) {
      quoted = true;
      field_start = false;
      row.quoted.resize(row.fields.size() + 1);
      row.quoted.back() = true;
    } else if (c == delim) {
      row.fields.push_back(field), field.clear(), field_start = true;
      row.quoted.resize(row.fields.size());
    } else if (c == '\n') {
      if (!field.empty() && field.back() == '\r' ) field.pop_back();
      row.fields.push_back(field), field.clear(), field_start = true;
      row.quoted.resize(row.fields.size());
      row.raw = text.substr(start, i - start);
      rows.push_back(row);
      row = Row();
      start = i + 1;
    } else {
      field += c;
      field_start = false;
    }
  }
  if (start < text.size()) {
    row.fields.push_back(field);
    row.quoted.resize(row.fields.size());
    row.raw = text.substr(start);
    rows.push_back(row);
  }
  return rows;
}

std::string quote_if_needed(const std::string& v, char delim, std::mt19937& rng) {
  const bool must = v.find_first_of(std::string("\"\n") + delim) != std::string::npos;
  if (!must && rng() % 4) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string random_csv(std::mt19937& rng, int rows, char delim, bool header) {
  static const char* const kNames[] = {"ann", "bob", "Zoe", "al, jr", "say \"hi\"", "multi\nline", "", "bob"};
  std::string s = header ? std::string("name") + delim + "city" + delim + "price" + delim + "qty\n" : "";
  for (int i = 0; i < rows; ++i) {
    std::string price = std::to_string(static_cast<int>(rng() % 2000) - 1000) + "." + std::to_string(rng() % 100);
    if (rng() % 8 == 0) price += "e" + std::to_string(static_cast<int>(rng() % 5) - 2);  // :n reads exponents
    if (rng() % 16 == 0) price.clear();                                                 // NULL, or "" quoted
    const std::string fields[] = {kNames[rng() % 8], kNames[rng() % 8], price, std::to_string(rng() % 50)};
    for (int f = 0; f < 4; ++f) s += (f ? std::string(1, delim) : "") + quote_if_needed(fields[f], delim, rng);
    s += rng() % 10 == 0 ? "\r\n" : "\n";
  }
  if (rng() % 2 && !s.empty()) s.pop_back();
  return s;
}

class Csv : public corank::test::CorankTest {};

// A key of the reference: a column, numeric or text, ascending or descending.
struct RefKey {
  int column;
  bool numeric, desc;
};

std::string expected(const std::string& text, char delim, bool header, const std::vector<RefKey>& keys) {
  std::vector<Row> rows = parse(text, delim);
  // A last row without its newline gets the line ending of the file's first row.
  if (!text.empty() && text.back() != '\n' && rows.size() > 1 && rows.front().raw.ends_with('\r') &&
      !rows.back().raw.ends_with('\r'))
    rows.back().raw += '\r';
  std::string out;
  if (header && !rows.empty()) {
    out = rows.front().raw + "\n";
    rows.erase(rows.begin());
  }
  auto field = [](const Row& r, int c) { return c < static_cast<int>(r.fields.size()) ? r.fields[c] : std::string(); };
  // NULL: an unquoted empty field or a missing column; last under every key.
  auto null = [](const Row& r, int c) {
    return c >= static_cast<int>(r.fields.size()) || (r.fields[c].empty() && !r.quoted[c]);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    for (const auto& k : keys) {
      const std::string x = field(a, k.column), y = field(b, k.column);
      if (null(a, k.column) || null(b, k.column)) {
        if (null(a, k.column) != null(b, k.column)) return null(b, k.column);
        continue;
      }
      int c;
      if (k.numeric) {
        const double dx = std::strtod(x.c_str(), nullptr), dy = std::strtod(y.c_str(), nullptr);
        c = (dx > dy) - (dx < dy);
      } else {
        c = x.compare(y);
        c = (c > 0) - (c < 0);
      }
      if (k.desc) c = -c;
      if (c) return c < 0;
    }
    return false;
  });
  for (const auto& r : rows) out += r.raw + "\n";
  return out;
}

TEST_F(Csv, SortsByColumnKeysLikeTheReference) {
  std::mt19937 rng(2026);
  struct Case {
    const char* args;
    std::vector<RefKey> keys;
    bool names;  // columns named: needs the header
  };
  const Case cases[] = {
      {"--key 3:n", {{2, true, false}}, false},
      {"--key price:n:desc", {{2, true, true}}, true},
      {"--key name", {{0, false, false}}, true},
      {"--key 1", {{0, false, false}}, false},
      {"--key name --key 3:n:desc", {{0, false, false}, {2, true, true}}, true},
      {"-k city:desc -k qty:n", {{1, false, true}, {3, true, false}}, true},
      {"-r --key 4:n", {{3, true, true}}, false},
  };
  for (bool header : {true, false}) {
    for (char delim : {',', '\t'}) {
      const std::string text = random_csv(rng, 3000, delim, header);
      write_file(path("in"), text);
      for (const auto& c : cases) {
        if (c.names && !header) continue;
        for (const char* budget : {"", "-S 8K", "-S 64K --parallel 2", "--parallel 6", "-S 64K --parallel 4"}) {
          SCOPED_TRACE(std::string(c.args) + " " + budget + (header ? " header" : "") + (delim == '\t' ? " tsv" : ""));
          const std::string args = std::string(delim == ',' ? "--format csv " : "--format tsv ") +
                                   (header ? "--header " : "") + c.args + " " + budget + " -T " + path("tmp") + " -o " +
                                   path("out") + " " + path("in");
          std::string err;
          ASSERT_EQ(corank(args, &err), 0) << err;
          EXPECT_TRUE(read_file(path("out")) == expected(text, delim, header, c.keys));
          EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
        }
      }
    }
  }
}

TEST_F(Csv, SqlLikeTypesNullsAndByteOrderMark) {
  write_file(path("in"), "\xEF\xBB\xBFid,when,amount,day\n"
                         "3,2026-10-10T15:00:00+02:00,1e3,2026-01-02\n"
                         "10,2026-10-10T13:30:00Z,,2025-12-31\n"
                         "2,[10/Oct/2026:13:00:00 +0000],999,\n"
                         "1,garbage,-5,someday\n");
  const std::string head = "\xEF\xBB\xBFid,when,amount,day\n";
  ASSERT_EQ(corank("--format csv --header --key id:n -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), head + "1,garbage,-5,someday\n2,[10/Oct/2026:13:00:00 +0000],999,\n"
                                           "3,2026-10-10T15:00:00+02:00,1e3,2026-01-02\n10,2026-10-10T13:30:00Z,,2025-12-31\n");
  ASSERT_EQ(corank("--format csv --header --key when:time -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), head + "1,garbage,-5,someday\n3,2026-10-10T15:00:00+02:00,1e3,2026-01-02\n"
                                           "2,[10/Oct/2026:13:00:00 +0000],999,\n10,2026-10-10T13:30:00Z,,2025-12-31\n");
  for (const char* key : {"amount:n", "amount:n:desc", "amount:decimal:desc"}) {
    SCOPED_TRACE(key);
    const bool desc = std::string(key).find("desc") != std::string::npos;
    ASSERT_EQ(corank(std::string("--format csv --header --key ") + key + " -o " + path("out") + " " + path("in")), 0);
    const std::string rows = desc ? "3,2026-10-10T15:00:00+02:00,1e3,2026-01-02\n2,[10/Oct/2026:13:00:00 +0000],999,\n"
                                    "1,garbage,-5,someday\n"
                                  : "1,garbage,-5,someday\n2,[10/Oct/2026:13:00:00 +0000],999,\n"
                                    "3,2026-10-10T15:00:00+02:00,1e3,2026-01-02\n";
    EXPECT_EQ(read_file(path("out")), head + rows + "10,2026-10-10T13:30:00Z,,2025-12-31\n");  // the NULL last
  }
  ASSERT_EQ(corank("--format csv --header --key day:date -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), head + "1,garbage,-5,someday\n10,2026-10-10T13:30:00Z,,2025-12-31\n"
                                           "3,2026-10-10T15:00:00+02:00,1e3,2026-01-02\n2,[10/Oct/2026:13:00:00 +0000],999,\n");
  std::string err;
  EXPECT_EQ(corank("--format csv --header --key day:date:n " + path("in"), &err), 2);
  EXPECT_EQ(err.rfind("corank: ", 0), 0u);
}

// NULL and missing fields, and values that do not read as their key's type,
// are counted per key on stderr and in --stats; the sort succeeds.
TEST_F(Csv, NullAndUnreadValuesCounted) {
  write_file(path("in"), "id,amount,day\n1,5,2026-01-02\n2,,someday\n3,x,2026-01-01\n4,,\n5,\"\",2026-13-01\n");
  std::string err;
  ASSERT_EQ(corank("--format csv --header --key amount:decimal --key day:date --stats " + path("stats") + " -o " +
                       path("out") + " " + path("in"),
                   &err),
            0);
  // amount: row 2's and row 4's empty fields are NULL, row 5's
  // quoted "" is an empty string, which is no decimal, nor is x.
  EXPECT_EQ(err, "corank: of 5 rows, 2 had no decimal in key 1 (amount) (sorted first), 2 had a NULL or missing "
                 "value in key 1 (amount) (sorted last), 2 had no date in key 2 (day) (sorted first), 1 had a NULL "
                 "or missing value in key 2 (day) (sorted last); --debug shows them\n");
  EXPECT_NE(read_file(path("stats")).find(R"({"key":2,"name":"day","type":"date","unread":2,"unread_sort":"first",)"
                                          R"("null":1,"null_sort":"last"})"),
            std::string::npos);
  ASSERT_EQ(corank("--format csv --header --key id:n -o " + path("out") + " " + path("in"), &err), 0);
  EXPECT_EQ(err, "");
}

// A CRLF export keeps CR LF on every row, its last one included where it has
// no line ending, whatever it is sorted or merged with; a file of LF rows
// keeps LF. The CR is no part of the last field (5 is a decimal).
TEST_F(Csv, LineEndingsKeptPerFile) {
  write_file(path("crlf"), "id,v\r\n3,c\r\n10,x\r\n1,5\r\n2,b");
  write_file(path("lf"), "id,v\n0,z\n4,y");
  write_file(path("lf-first"), "id,v\n7,w\r\n");  // decided by the first row: LF, the CR row kept as it is
  for (const char* how : {"", "-S 1K --parallel 1", "--parallel 4"}) {
    SCOPED_TRACE(how);
    ASSERT_EQ(corank(std::string("--format csv --header --key id:n ") + how + " -T " + path("tmp") + " -o " +
                     path("out") + " " + path("crlf")), 0);
    EXPECT_EQ(read_file(path("out")), "id,v\r\n1,5\r\n2,b\r\n3,c\r\n10,x\r\n");
    ASSERT_EQ(corank(std::string("--format csv --header --key id:n ") + how + " -o " + path("out") + " " +
                     path("crlf") + " " + path("lf") + " " + path("lf-first")), 0);
    EXPECT_EQ(read_file(path("out")), "id,v\r\n0,z\n1,5\r\n2,b\r\n3,c\r\n4,y\n7,w\r\n10,x\r\n");
  }
  ASSERT_EQ(corank("--format csv --header --key v:decimal -o " + path("out") + " " + path("crlf")), 0);
  EXPECT_EQ(read_file(path("out")), "id,v\r\n3,c\r\n10,x\r\n2,b\r\n1,5\r\n");  // unparsable first, then 5
  // -m reads each input as it is: the same rule.
  write_file(path("sorted"), "1,a\r\n2,b");
  write_file(path("sorted-lf"), "1,c\n3,d");
  ASSERT_EQ(corank("-m --format csv --key 1:n -o " + path("out") + " " + path("sorted") + " " + path("sorted-lf")), 0);
  EXPECT_EQ(read_file(path("out")), "1,a\r\n1,c\n2,b\r\n3,d\n");
  // TSV, PostgreSQL's text format, JSON lines and plain lines alike.
  write_file(path("tsv"), "b\t2\r\na\t1");
  for (const char* format : {"tsv", "pgtext"}) {
    ASSERT_EQ(corank(std::string("--format ") + format + " --key 2:decimal -o " + path("out") + " " + path("tsv")), 0);
    EXPECT_EQ(read_file(path("out")), "a\t1\r\nb\t2\r\n");
  }
  write_file(path("jsonl"), "{\"v\":2}\r\n{\"v\":1}");
  ASSERT_EQ(corank("--format jsonl --key v:decimal -o " + path("out") + " " + path("jsonl")), 0);
  EXPECT_EQ(read_file(path("out")), "{\"v\":1}\r\n{\"v\":2}\r\n");
  write_file(path("lines"), "b\r\na");
  ASSERT_EQ(corank("-o " + path("out") + " " + path("lines")), 0);
  EXPECT_EQ(read_file(path("out")), "a\r\nb\r\n");
}

TEST_F(Csv, NullOptions) {
  write_file(path("in"), "a,3\nb,\nc,NULL\nd,\"\"\ne,-1\n");
  ASSERT_EQ(corank("--format csv --key 2:n -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "e,-1\nc,NULL\nd,\"\"\na,3\nb,\n");  // NULL and "" read as 0
  // --null replaces the empty field as the NULL string, as COPY's NULL option
  // does: an empty field is an empty string then (0 under :n).
  ASSERT_EQ(corank("--format csv --key 2:n --null NULL -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "e,-1\nb,\nd,\"\"\na,3\nc,NULL\n");
  ASSERT_EQ(corank("--format csv --key 2:n:desc --null NULL --nulls first -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "c,NULL\na,3\nb,\nd,\"\"\ne,-1\n");
  ASSERT_EQ(corank("--format csv --key 2:n --nulls=l -o " + path("out") + " " + path("in")), 0);  // a prefix, as GNU's
  EXPECT_EQ(read_file(path("out")), "e,-1\nc,NULL\nd,\"\"\na,3\nb,\n");
  std::string err;
  EXPECT_EQ(corank("--nulls first " + path("in"), &err), 2);  // lines have no NULLs
  EXPECT_EQ(err.rfind("corank: ", 0), 0u);
  EXPECT_EQ(corank("--format u32 --null x " + path("in"), &err), 2);
}

TEST_F(Csv, UniqueKeepsTheFirstRowOfEachKey) {
  write_file(path("in"), "k,v\nb,1\na,2\nb,3\na,4\n");
  ASSERT_EQ(corank("--format csv --header -u --key k -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "k,v\na,2\nb,1\n");
}

TEST_F(Csv, CustomDelimiterAndCheck) {
  write_file(path("in"), "x;2\ny;10\nz;1\n");
  ASSERT_EQ(corank("--format csv --delimiter ';' --key 2:n -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "z;1\nx;2\ny;10\n");
  EXPECT_EQ(corank("-c --format csv --delimiter ';' --key 2:n " + path("out")), 0);
  std::string err;
  EXPECT_EQ(corank("-c --format csv --delimiter ';' --key 2:n " + path("in"), &err), 1);
  EXPECT_EQ(err, "corank: " + path("in") + ":3: disorder: z;1\n");
}

// -c names the physical line where the first row out of order starts, as a
// file's line count gives it, not the row's number: rows with quoted newlines
// span lines. The lines are those of Python's csv reader (its line_num after
// the row before, plus one): 1, 2, 4, 5, 8.
TEST_F(Csv, CheckNamesThePhysicalLine) {
  write_file(path("in"), "k,v\n\"a\nx\",1\nb,2\n\"c\ny\nz\",3\na,4\n");
  std::string err;
  EXPECT_EQ(corank("-c --format csv --header --key k " + path("in"), &err), 1);
  EXPECT_EQ(err, "corank: " + path("in") + ":8: disorder: a,4\n");
  EXPECT_EQ(corank("-c --format csv --header --key v:n:desc " + path("in"), &err), 1);
  EXPECT_EQ(err, "corank: " + path("in") + ":4: disorder: b,2\n");
  // PostgreSQL's text format: a backslash-newline is a newline in the data.
  write_file(path("txt"), "a\tx\\\ny\nb\t2\na\t3\n");
  EXPECT_EQ(corank("-c --format pgtext --key 1 " + path("txt"), &err), 1);
  EXPECT_EQ(err, "corank: " + path("txt") + ":4: disorder: a\t3\n");
}

TEST_F(Csv, UnterminatedQuoteIsAnErrorWithItsLine) {
  write_file(path("in"), "a,1\nb,2\n\"c,3\nd,4\n");
  for (const char* budget : {"", "-S 1K"}) {
    std::string err;
    EXPECT_EQ(corank(std::string("--format csv --key 2:n ") + budget + " -o " + path("out") + " " + path("in"), &err), 2);
    EXPECT_EQ(err, "corank: " + path("in") + ":3: unterminated quoted field\n");
    EXPECT_FALSE(fs::exists(path("out")));
  }
  std::string err;
  EXPECT_EQ(corank("--format csv --key nosuch --header " + path("in"), &err), 2);
  EXPECT_EQ(err.rfind("corank: ", 0), 0u);
}

// A key that names a column the header names twice would sort by a guess.
TEST_F(Csv, AKeyNamingADuplicatedColumnIsAnError) {
  write_file(path("in"), "id,name,name\n2,b,x\n1,a,y\n");
  std::string err;
  EXPECT_EQ(corank("--format csv --header --key name -o " + path("out") + " " + path("in"), &err), 2);
  EXPECT_EQ(err, "corank: invalid key: the header of " + path("in") + " names two columns 'name' (columns 2 and 3)\n");
  EXPECT_FALSE(fs::exists(path("out")));
  ASSERT_EQ(corank("--format csv --header --key id:n -o " + path("out") + " " + path("in")), 0);  // no key names it
  EXPECT_EQ(read_file(path("out")), "id,name,name\n1,a,y\n2,b,x\n");
}

// --debug: each row, then a line per key underlining its field as written
// (a quoted field inside its quotes, an empty quoted string by its quotes),
// "^ no match for key" for a NULL or a missing column, and GNU's warnings.
TEST_F(Csv, DebugMarksEachKeysField) {
  write_file(path("in"), "name,qty,note\nb,10,\"x, y\"\na,,\"said \"\"hi\"\"\"\nc,2,\nd,3,\"\"\n");
  std::string err;
  ASSERT_EQ(corank("--format csv --header --debug -k qty:n -k note " + path("in") + " > " + path("out"), &err), 0);
  EXPECT_EQ(read_file(path("out")),
            "name,qty,note\n"
            "c,2,\n"
            "  _\n"
            "    ^ no match for key\n"
            "d,3,\"\"\n"
            "  _\n"
            "    __\n"
            "b,10,\"x, y\"\n"
            "  __\n"
            "      ____\n"
            "a,,\"said \"\"hi\"\"\"\n"
            "  ^ no match for key\n"
            "    ___________\n");
  EXPECT_EQ(err,
            "corank: text ordering performed using simple byte comparison\n"
            "corank: note numbers use '.' as a decimal point in this locale\n");
  // Without keys rows compare column by column: the whole row. A tab shows as '>'.
  write_file(path("tsv"), "x\ty\n\"a\tb\"\t\n");
  ASSERT_EQ(corank("--format tsv --debug " + path("tsv") + " > " + path("out"), &err), 0);
  EXPECT_EQ(read_file(path("out")), "\"a>b\">\n______\nx>y\n___\n");
  EXPECT_EQ(err, "corank: text ordering performed using simple byte comparison\n");
  ASSERT_EQ(corank("--format tsv --debug -k 2 --null y " + path("tsv") + " > " + path("out"), &err), 0);
  // Under --null y the empty field is an empty string, before the NULL y.
  EXPECT_EQ(read_file(path("out")), "\"a>b\">\n      ^ no match for key\nx>y\n  ^ no match for key\n");
}

}  // namespace
