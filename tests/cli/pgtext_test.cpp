// End-to-end tests of `corank --format pgtext` (PostgreSQL's COPY text
// format). The generator is the reference: it draws each field's value, writes
// it with randomly chosen escapes of COPY's (\t, \011, \x09, a backslash
// before a tab or a real newline, ...), and sorts the values it drew, so no
// parser of the format is shared with corank. tests/cli/pg_order_test.sh
// checks the format against PostgreSQL itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

using corank::test::read_file;
using corank::test::write_file;

class PgText : public corank::test::CorankTest {};

// One byte of a value, written as COPY may read it.
std::string escaped(char c, std::mt19937& rng) {
  const unsigned r = rng() % 3;
  switch (c) {
    case '\t': return r == 0 ? "\\t" : r == 1 ? "\\011" : "\\x09";
    case '\n': return r == 0 ? "\\n" : r == 1 ? "\\\n" : "\\012";  // a backslash before a real newline too
    case '\\': return "\\\\";
    case 'A': return r == 0 ? "A" : r == 1 ? "\\101" : "\\x41";
    case '"': return r == 0 ? "\"" : "\\\"";  // a backslash before an ordinary byte is that byte
    default: return std::string(1, c);
  }
}

struct Row {
  std::string raw;                   // as written, without its newline
  std::optional<std::string> note;   // nullopt: NULL (\N)
  std::optional<long> amount;
};

std::vector<Row> random_rows(std::mt19937& rng, int n) {
  static const char kBytes[] = {'a', 'b', 'A', '\t', '\n', '\\', '"', ' ', 'N', '.'};
  std::vector<Row> rows;
  for (int i = 0; i < n; ++i) {
    Row r;
    std::string note_raw = "\\N";
    if (rng() % 10) {
      std::string v, raw;
      for (int k = 0, len = static_cast<int>(rng() % 6); k < len; ++k) {
        const char c = kBytes[rng() % sizeof kBytes];
        v += c;
        raw += escaped(c, rng);
      }
      r.note = v;
      note_raw = raw;
    }
    std::string amount_raw = "\\N";
    if (rng() % 8) {
      r.amount = static_cast<long>(rng() % 200) - 100;
      amount_raw = std::to_string(*r.amount);
    }
    r.raw = std::to_string(i) + "\t" + note_raw + "\t" + amount_raw;
    rows.push_back(std::move(r));
  }
  return rows;
}

TEST_F(PgText, SortsByUnescapedValuesLikeTheGenerator) {
  std::mt19937 rng(32);
  const std::vector<Row> rows = random_rows(rng, 2500);
  std::string text = "id\tnote\tamount\n";
  for (const auto& r : rows) text += r.raw + "\n";
  write_file(path("in"), text);
  // NULLs last unless the key says; note ascending, amount descending.
  const auto by_note = [](const Row& a, const Row& b) {
    if (!a.note || !b.note) return a.note.has_value() && !b.note.has_value();
    return *a.note < *b.note;
  };
  const auto by_amount_desc_nulls_first = [](const Row& a, const Row& b) {
    if (!a.amount || !b.amount) return !a.amount.has_value() && b.amount.has_value();
    return *a.amount > *b.amount;
  };
  struct Case {
    const char* keys;
    std::function<bool(const Row&, const Row&)> less;
  };
  const Case cases[] = {
      {"--key note", by_note},
      {"--key amount:n:desc:nulls_first --key 2", [&](const Row& a, const Row& b) {
         return by_amount_desc_nulls_first(a, b) || (!by_amount_desc_nulls_first(b, a) && by_note(a, b));
       }}};
  for (const auto& c : cases) {
    std::vector<Row> want = rows;
    std::stable_sort(want.begin(), want.end(), c.less);
    std::string expected = "id\tnote\tamount\n";
    for (const auto& r : want) expected += r.raw + "\n";
    for (const char* budget : {"", "-S 8K", "-S 64K --parallel 4"}) {
      SCOPED_TRACE(std::string(c.keys) + " " + budget);
      std::string err;
      ASSERT_EQ(corank(std::string("--format pgtext --header -s ") + c.keys + " " + budget + " -T " + path("tmp") +
                           " -o " + path("out") + " " + path("in"),
                       &err),
                0)
          << err;
      EXPECT_TRUE(read_file(path("out")) == expected);  // the rows' bytes as they came
      EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
      // The note key's NULLs, counted by the generator, named on stderr.
      if (c.keys == cases[0].keys) {
        const auto nulls = std::count_if(rows.begin(), rows.end(), [](const Row& r) { return !r.note; });
        EXPECT_EQ(err, "corank: " + std::to_string(nulls) + " of 2,500 rows had a NULL or missing value in key 1 "
                       "(note); they sort last; --debug shows them\n");
      }
    }
  }
}

// A '"' is an ordinary byte: the row TSV refuses as an unterminated quote.
TEST_F(PgText, QuotesAreOrdinaryBytes) {
  write_file(path("in"), "id\tnote\n1\t\"unclosed\n2\tb\n");
  std::string err;
  ASSERT_EQ(corank("--format pgtext --header --key note -o " + path("out") + " " + path("in"), &err), 0) << err;
  EXPECT_EQ(read_file(path("out")), "id\tnote\n1\t\"unclosed\n2\tb\n");
  EXPECT_EQ(corank("--format tsv --header --key note " + path("in"), &err), 2);
}

TEST_F(PgText, NullStringAndEmptyFields) {
  write_file(path("in"), "a\t\\N\nb\t\nc\tx\nd\t\\\\N\n");
  ASSERT_EQ(corank("--format pgtext --key 2 -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "b\t\nd\t\\\\N\nc\tx\na\t\\N\n");  // "" < "\N" (text) < "x" < NULL
  ASSERT_EQ(corank("--format pgtext --key 2 --null '' --nulls first -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "b\t\na\t\\N\nd\t\\\\N\nc\tx\n");  // now \N is the text N (before \ and x)
}

// COPY stops at \. (and fails on one inside a row): sorted among the rows it
// would cut the load short, so it is refused, naming its line.
TEST_F(PgText, EndOfDataMarkerIsAnError) {
  write_file(path("in"), "b\t1\na\\\nstill a\t2\n\\.\n");
  std::string err;
  EXPECT_EQ(corank("--format pgtext --key 1 -o " + path("out") + " " + path("in"), &err), 2);
  EXPECT_EQ(err, "corank: " + path("in") +
                     ":4: \\. is COPY's end-of-data marker (COPY stops reading there): no row may hold one\n");
  EXPECT_FALSE(fs::exists(path("out")));
  EXPECT_EQ(corank("--format pgtext --delimiter x " + path("in"), &err), 2);  // COPY refuses it as a delimiter
  EXPECT_EQ(err.rfind("corank: invalid --delimiter 'x'", 0), 0u);
}

// --debug: a key's field underlined as written (its escapes too); \N and a
// missing column have no match.
TEST_F(PgText, DebugMarksEachKeysField) {
  write_file(path("in"), "b\tx\\ty\na\t\\N\nc\t\\N\n");
  ASSERT_EQ(corank("--format pgtext --debug -k 2 " + path("in") + " > " + path("out")), 0);
  EXPECT_EQ(read_file(path("out")), "b>x\\ty\n  ____\na>\\N\n  ^ no match for key\nc>\\N\n  ^ no match for key\n");
}

TEST_F(PgText, CheckAndDelimiter) {
  write_file(path("in"), "k|v\nb|2\na|1\n");
  std::string err;
  EXPECT_EQ(corank("-c --format pgtext --header --delimiter '|' --key v:n " + path("in"), &err), 1);
  EXPECT_EQ(err, "corank: " + path("in") + ":3: disorder: a|1\n");
  EXPECT_EQ(corank("-c --format pgtext --header --delimiter '|' --key k:desc " + path("in")), 0);
}

}  // namespace
