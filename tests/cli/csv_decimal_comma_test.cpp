// End-to-end tests of --decimal-separator=,: a CSV export written under a
// locale with decimal commas (Excel's under de_DE: a byte order mark, CRLF
// rows, ';' between fields, 2,5 for two and a half) sorted by its numbers.
// The reference order comes from the values the test wrote, not from any
// parsing of the text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace {

using corank::test::read_file;
using corank::test::write_file;

class CsvDecimalComma : public corank::test::CorankTest {};

struct Written {
  std::int64_t value;  // in ten-thousandths
  std::string row;     // with its CRLF
};

// A value of up to four decimals written as a German export writes it:
// -12,5 and 3 and 0,0625; `quote` puts it in quotes (needed where ',' also
// separates the fields).
Written random_row(std::mt19937& rng, std::size_t id, char delim, bool quote) {
  const std::int64_t units = static_cast<std::int64_t>(rng() % 2000000) - 1000000;  // -100 to 100
  const std::int64_t whole = units / 10000, frac = (units < 0 ? -units : units) % 10000;
  std::string text = (units < 0 && whole == 0 ? "-" : "") + std::to_string(whole);
  if (frac) {
    std::string digits = std::to_string(frac + 10000).substr(1);
    while (digits.back() == '0') digits.pop_back();
    text += "," + digits;
  }
  if (quote) text = "\"" + text + "\"";
  return {units, "r" + std::to_string(id) + delim + text + delim + text + "\r\n"};
}

TEST_F(CsvDecimalComma, NumbersSortByTheirValue) {
  std::mt19937 rng(2026);
  for (const char delim : {';', ','}) {
    const std::string head = std::string("\xEF\xBB\xBFid") + delim + "amount" + delim + "price\r\n";
    std::vector<Written> rows;
    std::string text = head;
    for (std::size_t i = 0; i < 3000; ++i) {
      rows.push_back(random_row(rng, i, delim, delim == ','));
      text += rows.back().row;
    }
    write_file(path("in"), text);
    for (const char* key : {"amount:n", "amount:decimal", "price:float", "2:n:desc", "price:float:desc"}) {
      for (const char* budget : {"", "-S 64K --parallel 2"}) {
        SCOPED_TRACE(std::string(1, delim) + " " + key + " " + budget);
        const bool desc = std::string(key).ends_with("desc");
        std::vector<Written> want = rows;  // ties keep their input order, as CSV sorts are stable
        std::stable_sort(want.begin(), want.end(), [&](const Written& a, const Written& b) {
          return desc ? a.value > b.value : a.value < b.value;
        });
        std::string expected = head;
        for (const auto& w : want) expected += w.row;
        std::string err;
        ASSERT_EQ(corank(std::string("--format csv --header --delimiter '") + delim + "' --decimal-separator=, --key " +
                             key + " " + budget + " -T " + path("tmp") + " -o " + path("out") + " " + path("in"),
                         &err),
                  0)
            << err;
        EXPECT_EQ(err, "");  // every value read as a number
        EXPECT_TRUE(read_file(path("out")) == expected);
      }
    }
  }
}

// A value with a '.' is no decimal and no float under decimal commas: it is
// counted and sorts first, as any unparsable value does; :n reads its
// leading number, as GNU's -n reads what follows.
TEST_F(CsvDecimalComma, PointsAreNoDecimalPoints) {
  write_file(path("in"), "v\n2,9\n1.5\n10\n-0,25\n2,1\n");
  std::string err;
  ASSERT_EQ(corank("--format csv --header --delimiter ';' --decimal-separator , --key v:decimal -o " + path("out") + " " + path("in"),
                   &err),
            0);
  EXPECT_EQ(read_file(path("out")), "v\n1.5\n-0,25\n2,1\n2,9\n10\n");
  EXPECT_EQ(err, "corank: 1 of 5 rows had no decimal in key 1 (v); they sort first; --debug shows them\n");
  ASSERT_EQ(corank("--format csv --header --delimiter ';' --decimal-separator , --key v:n -o " + path("out") + " " +
                   path("in")),
            0);
  EXPECT_EQ(read_file(path("out")), "v\n-0,25\n1.5\n2,1\n2,9\n10\n");
  // Without the option the commas end the numbers: 2,9 and 2,1 read as 2, in input order.
  ASSERT_EQ(corank("--format csv --header --delimiter ';' --key v:n -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "v\n-0,25\n1.5\n2,9\n2,1\n10\n");
  ASSERT_EQ(corank("--format tsv --header --decimal-separator , --key 1:float -o " + path("out") + " " + path("in"), &err), 0);
  EXPECT_EQ(read_file(path("out")), "v\n1.5\n-0,25\n2,1\n2,9\n10\n");
}

// Where the separator cannot apply, the command fails with exit 2 and one
// line: formats whose numbers are written with '.' (or LC_NUMERIC's, for
// lines), g and h keys (GNU's reading), any other separator.
TEST_F(CsvDecimalComma, MisusesAreUsageErrors) {
  write_file(path("in"), "v\n2,5\n");
  const char* const bad[] = {"--decimal-separator=,",
                             "--format jsonl --decimal-separator=,",
                             "--format pgtext --decimal-separator=,",
                             "--format u64 --decimal-separator=,",
                             "--format csv --header --decimal-separator=, --key v:g",
                             "--format csv --header --decimal-separator=, --key v -h",
                             "--format csv --decimal-separator=x"};
  for (const char* args : bad) {
    SCOPED_TRACE(args);
    std::string err;
    EXPECT_EQ(corank(std::string(args) + " " + path("in"), &err), 2);
    EXPECT_EQ(err.rfind("corank: ", 0), 0u) << err;
    EXPECT_NE(err.find("decimal-separator"), std::string::npos) << err;
  }
}

}  // namespace
