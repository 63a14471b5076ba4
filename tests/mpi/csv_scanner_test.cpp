// The CSV automaton that cuts shares at row starts, without MPI: its states
// agree with the single-process reader's row starts, and maps of ranges
// compose into the state of one scan from the start.
#include "corank/mpi/csv_scanner.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "corank/mpi/partition.hpp"
#include "corank/text/csv_format.hpp"

namespace corank::mpi {
namespace {

// Row starts by CsvFormat::record_length, row after row from the start (the
// tail after the last newline is a row of its own, as at a file's end).
std::vector<bool> row_starts(const std::string& csv, char delim) {
  text::CsvOptions o;
  o.delimiter = delim;
  text::CsvFormat f(o);
  std::vector<bool> starts(csv.size() + 1, false);
  starts[0] = true;
  for (std::size_t at = 0; at < csv.size();) {
    const std::size_t n = f.record_length(csv.data() + at, csv.data() + csv.size());
    if (n == 0) break;
    starts[at += n] = true;
  }
  return starts;
}

// The state after every prefix, scanned from a row start, is RowStart exactly
// where the single-process reader starts a row: on quoted newlines and
// delimiters, doubled quotes, stray quotes inside unquoted fields, quotes after
// a closing one, byte order marks and CRLF.
TEST(MpiCsvCut, RowStartsAsTheReaderFindsThem) {
  const std::string alphabet[] = {"\"", "\"\"", ",", "\n", "\r\n", "a", "b7", "\xEF\xBB\xBF", "\xEF", ";", "\t"};
  std::mt19937 rng(5);
  for (char delim : {',', '\t', ';'}) {
    CsvScanner scanner(delim);
    for (int round = 0; round < 400; ++round) {
      std::string csv;
      const int pieces = 1 + static_cast<int>(rng() % 40);
      for (int i = 0; i < pieces; ++i) csv += alphabet[rng() % std::size(alphabet)];
      const auto starts = row_starts(csv, delim);
      // Row ends exclude the tail: a prefix's state says nothing of a row not ended.
      std::uint8_t state = CsvScanner::RowStart;
      std::size_t last_end = 0;
      for (std::size_t i = 0; i < csv.size(); ++i) {
        state = scanner.step(state, static_cast<unsigned char>(csv[i]));
        if (state == CsvScanner::RowStart) {
          EXPECT_TRUE(starts[i + 1]) << "row start at " << i + 1 << " in '" << csv << "'";
          last_end = i + 1;
        } else {
          EXPECT_FALSE(starts[i + 1] && i + 1 < csv.size()) << "missed row start at " << i + 1 << " in '" << csv << "'";
        }
      }
      for (std::size_t i = last_end + 1; i < csv.size(); ++i) EXPECT_FALSE(starts[i]) << csv;
    }
  }
}

// A range's map, composed over pieces cut anywhere, is the whole's: each rank's
// cut state comes out as a single scan from the start gives it.
TEST(MpiCsvCut, MapsComposeOverCuts) {
  const std::string alphabet[] = {"\"", "\"\"", ",", "\n", "x", "yy", "\xEF\xBB\xBF", "\"a\nb\",", "\n\"\n"};
  std::mt19937 rng(9);
  CsvScanner scanner(',');
  for (int round = 0; round < 300; ++round) {
    std::string csv;
    const int pieces = static_cast<int>(rng() % 3000);  // long enough for the scan's strides
    for (int i = 0; i < pieces; ++i) csv += alphabet[rng() % std::size(alphabet)];
    std::uint8_t whole = CsvScanner::RowStart;
    for (char c : csv) whole = scanner.step(whole, static_cast<unsigned char>(c));
    const unsigned parts = 1 + rng() % 5;
    std::uint8_t state = CsvScanner::RowStart;
    for (unsigned r = 0; r < parts; ++r) {
      const std::uint64_t b = share_begin(csv.size(), r, parts, 1), e = share_begin(csv.size(), r + 1, parts, 1);
      CsvScanner::Map m = CsvScanner::identity();
      scanner.scan(m, csv.data() + b, e - b);
      for (std::uint8_t s = 0; s < CsvScanner::kStates; ++s) {  // every start state, as one scan would
        std::uint8_t one = s;
        for (std::uint64_t i = b; i < e; ++i) one = scanner.step(one, static_cast<unsigned char>(csv[i]));
        ASSERT_EQ(m[s], one);
      }
      state = m[state];
    }
    EXPECT_EQ(state, whole);
    // The row that goes on past a cut ends where the reader ends it.
    const auto starts = row_starts(csv, ',');
    const std::size_t cut = csv.size() / 2;
    std::uint8_t at_cut = CsvScanner::RowStart;
    for (std::size_t i = 0; i < cut; ++i) at_cut = scanner.step(at_cut, static_cast<unsigned char>(csv[i]));
    std::uint8_t s = at_cut;
    const std::size_t end = at_cut == CsvScanner::RowStart ? 0 : scanner.row_end(s, csv.data() + cut, csv.size() - cut);
    EXPECT_TRUE(starts[cut + end] || cut + end == csv.size());
    for (std::size_t i = cut + 1; i < cut + end; ++i) EXPECT_FALSE(starts[i]);
  }
  EXPECT_EQ(CsvScanner::reset()[CsvScanner::Quoted], CsvScanner::RowStart);
}

}  // namespace
}  // namespace corank::mpi
