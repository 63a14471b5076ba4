#include "corank/mpi/csv_scanner.hpp"

#include <algorithm>

namespace corank::mpi {

CsvScanner::CsvScanner(char delimiter) {
  // The states as table entries (the enumerators' type is not std::uint8_t).
  constexpr std::uint8_t kFieldStart = FieldStart, kUnquoted = Unquoted, kRowStart = RowStart, kQuoted = Quoted,
                         kQuoteSeen = QuoteSeen, kBom1 = Bom1, kBom2 = Bom2;
  for (unsigned c = 0; c < 256; ++c) {
    auto unquoted = [&](unsigned ch) -> std::uint8_t {
      return ch == '\n' ? kRowStart : ch == static_cast<unsigned char>(delimiter) ? kFieldStart : kUnquoted;
    };
    auto field_start = [&](unsigned ch) -> std::uint8_t { return ch == '"' ? kQuoted : unquoted(ch); };
    std::uint8_t* t = table_[c];
    t[FieldStart] = field_start(c);
    t[Unquoted] = unquoted(c);
    // Without the whole mark the row's first byte was ordinary: the field is under way.
    t[RowStart] = c == 0xEF ? kBom1 : field_start(c);
    t[Bom1] = c == 0xBB ? kBom2 : unquoted(c);
    t[Bom2] = c == 0xBF ? kFieldStart : unquoted(c);
    t[Quoted] = c == '"' ? kQuoteSeen : kQuoted;
    // A closing quote leaves the field under way: bytes up to the delimiter are kept.
    t[QuoteSeen] = c == '"' ? kQuoted : unquoted(c);
  }
}

CsvScanner::Map CsvScanner::identity() {
  Map m;
  for (std::uint8_t s = 0; s < kStates; ++s) m[s] = s;
  return m;
}

CsvScanner::Map CsvScanner::reset() {
  Map m;
  m.fill(RowStart);
  return m;
}

void CsvScanner::scan(Map& map, const char* p, std::size_t n) const {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  // Start states soon agree on where they are (a quote or a newline settles
  // most of them): follow the distinct ones only.
  std::uint8_t cur[kStates];
  std::uint8_t of[kStates];  // start state -> index in cur
  unsigned k = 0;
  for (unsigned s = 0; s < kStates; ++s) {
    unsigned j = 0;
    while (j < k && cur[j] != map[s]) ++j;
    if (j == k) cur[k++] = map[s];
    of[s] = static_cast<std::uint8_t>(j);
  }
  constexpr std::size_t kStride = 4096;
  for (std::size_t at = 0; at < n;) {
    const std::size_t end = std::min(n, at + kStride);
    if (k == 1) {
      std::uint8_t s = cur[0];
      for (std::size_t i = at; i < end; ++i) s = table_[b[i]][s];
      cur[0] = s;
    } else {
      for (std::size_t i = at; i < end; ++i)
        for (unsigned j = 0; j < k; ++j) cur[j] = table_[b[i]][cur[j]];
      // Merge the ones that met.
      std::uint8_t merged[kStates], to[kStates];
      unsigned m = 0;
      for (unsigned j = 0; j < k; ++j) {
        unsigned i = 0;
        while (i < m && merged[i] != cur[j]) ++i;
        if (i == m) merged[m++] = cur[j];
        to[j] = static_cast<std::uint8_t>(i);
      }
      for (unsigned s = 0; s < kStates; ++s) of[s] = to[of[s]];
      std::copy(merged, merged + m, cur);
      k = m;
    }
    at = end;
  }
  for (unsigned s = 0; s < kStates; ++s) map[s] = cur[of[s]];
}

std::size_t CsvScanner::row_end(std::uint8_t& state, const char* p, std::size_t n) const {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  std::uint8_t s = state;
  for (std::size_t i = 0; i < n; ++i) {
    s = table_[b[i]][s];
    if (s == RowStart) {
      state = s;
      return i + 1;
    }
  }
  state = s;
  return n;
}

}  // namespace corank::mpi
