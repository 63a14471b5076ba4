#pragma once
// Where CSV/TSV rows start, for cutting a byte range at a row boundary when a
// quoted field may hold newlines. CsvFormat::record_length reads a row as a
// small automaton over its bytes; its state before a byte is one of
//   RowStart   a row starts here (a byte order mark may follow),
//   Bom1, Bom2 after the first one or two bytes of a byte order mark,
//   FieldStart out of quotes, at a field's start (a quote opens a quoted field),
//   Unquoted   out of quotes, within a field (a quote is an ordinary byte),
//   Quoted     within a quoted field (newlines and delimiters are data),
//   QuoteSeen  just after a quote within a quoted field: a second quote makes
//              the pair one quote ("" of RFC 4180), anything else closes it.
// A newline read in FieldStart or Unquoted (or in a state that falls back to
// them) ends the row: the state after it is RowStart. So a byte offset is a
// row start exactly when the state there is RowStart.
//
// A range of bytes maps each state at its start to the state at its end; a
// rank computes this map for its range alone (every start state at once), the
// ranks gather the maps, and each composes those of the ranks before it, from
// RowStart at a file's start, into the exact state at its cut: no rank reads
// another's bytes, and stray quotes inside unquoted fields, doubled quotes and
// byte order marks are read exactly as the single-process reader reads them
// (unlike counting quotes, which only RFC 4180's strict form satisfies).
#include <array>
#include <cstddef>
#include <cstdint>

namespace corank::mpi {

class CsvScanner {
public:
  enum State : std::uint8_t { RowStart, Bom1, Bom2, FieldStart, Unquoted, Quoted, QuoteSeen, kStates };
  using Map = std::array<std::uint8_t, kStates>;  // state at a range's start -> state at its end

  explicit CsvScanner(char delimiter);
  static Map identity();
  // Every state a file's start resets to RowStart.
  static Map reset();
  // Extends `map` over the bytes [p, p + n).
  void scan(Map& map, const char* p, std::size_t n) const;
  // From `state` at p: the offset just past the newline that ends the row, or
  // n when the row goes on past [p, p + n) (then `state` is the state at n).
  std::size_t row_end(std::uint8_t& state, const char* p, std::size_t n) const;
  std::uint8_t step(std::uint8_t state, unsigned char c) const { return table_[c][state]; }

private:
  std::uint8_t table_[256][kStates];
};

}  // namespace corank::mpi
