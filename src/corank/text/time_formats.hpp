#pragma once
// The timestamp formats corank knows, as data: each a name, a pattern
// (time_pattern.hpp) and an example, most specific first. A time key tries
// them in this order at its start; --time detects which of them each input
// file uses from a sample of its lines, as lnav does: every format is tried
// on each sampled line, anywhere in it, and the one that reads the most lines
// wins; a file that mixes formats keeps each that reads a share of them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "corank/text/time_pattern.hpp"

namespace corank::text {

struct TimeFormat {
  std::string_view name;
  TimePattern pattern;
  std::string_view example;
};

// The table, compiled once.
std::span<const TimeFormat> known_time_formats();

// The offset, in seconds east of UTC, that RFC 2822 (section 4.3) fixes for
// a zone name its dates may carry (EST -0500, EDT -0400, CST, CDT, MST, MDT,
// PST, PDT; UT and GMT are offsets already), where `pattern` is the known
// RFC 2822 format's; nullopt otherwise.
std::optional<int> rfc2822_zone_offset(const TimePattern* pattern, std::uint64_t abbr) noexcept;

// Where a format matches in a line: at the start of a word (after a byte
// that is not a letter or digit), ending before one.
struct TimeHit {
  std::size_t begin = 0, end = 0;
  LocalTime time;
  const TimePattern* pattern = nullptr;  // the one that matched
};

// Patterns to search lines for, with the bytes that can begin a match of
// any of them: a line's other positions, most of them, are passed over with
// one lookup each instead of a test of every pattern.
class TimeSearch {
public:
  TimeSearch() = default;
  explicit TimeSearch(std::vector<const TimePattern*> patterns);

  std::span<const TimePattern* const> patterns() const noexcept { return patterns_; }
  // The first match in the line: the earliest position, and at one position
  // the first pattern in the list; an epoch number only where no other
  // pattern matches. A match begins at a word's start, after a byte that is
  // no letter or digit or after a terminal's escape sequence (ECMA-48's CSI:
  // ESC [, parameters, a final byte), which the line's colours are.
  bool find_first(std::string_view line, TimeHit& hit) const noexcept;

private:
  // Whether the bytes at line[i] could begin a match of a pattern of the
  // kind (0: reading no epoch, 1: reading one), by lead_.
  bool may_begin_at(std::string_view line, std::size_t i, int kind) const noexcept;
  // The first of the kind's patterns that matches at line[i], as a word.
  bool match_at(std::string_view line, std::size_t i, int kind, TimeHit& hit) const noexcept;

  std::vector<const TimePattern*> patterns_;
  // The patterns that read no epoch [0], and those that do [1], in order.
  std::vector<const TimePattern*> kinds_[2];
  // Per kind, bit k of lead_[kind][c]: byte c may be the k-th byte of a
  // match of one of the kind's patterns (TimePattern::lead_bits). A position
  // whose next bytes no pattern of the kind could begin with is passed over
  // without trying each.
  std::array<std::uint8_t, 256> lead_[2]{};
  // Per byte: whether a pattern of each kind can begin with it, whether it
  // is a letter or digit (a match begins at a word's start), and whether it
  // is ESC, which begins a terminal's escape sequence (a colour's
  // "\x1b[32m"): the sequence is passed over, and the byte after it begins
  // a word, as a coloured log's timestamp does.
  static constexpr std::uint8_t kOtherStart = 1, kEpochStart = 2, kWord = 4, kEscape = 8;
  std::array<std::uint8_t, 256> bytes_{};
};

// A file's formats from a sample of its lines: each line is read as
// find_first over every format would read it, and the formats that read at
// least `min_share` of the lines are the file's (several where logs were
// concatenated into one file), the one that reads the most first. Empty when
// no line has a timestamp.
std::vector<int> detect_formats(std::span<const TimeFormat> formats, std::span<const std::string_view> lines,
                                double min_share = 0.01);

}  // namespace corank::text
