#pragma once
// A timestamp format as a strftime-style pattern, compiled once and matched
// against text many times: both the formats corank knows (time_formats.hpp)
// and --time-format's are such patterns.
//
//   %Y year, 4 digits     %y year, 2 digits (69..99: 19yy, else 20yy)
//   %m month, 1-2 digits  %b %h %B month name, abbreviated or whole, any case
//   %d day, 1-2 digits    %e the same, after an optional blank
//   %H hour 0-23          %I hour 1-12 with %p (AM or PM, any case)
//   %M minute             %S second, 0-60 (60: a leap second, the next minute's first)
//   %a %A weekday name, abbreviated or whole (checked, not used)
//   %f an optional fraction of a second: '.' or ',' then digits (nine kept)
//   %z UTC offset: Z, +hh:mm, +hhmm, +hh (or -), UTC, GMT, UT
//   %Z zone abbreviation: 2-6 capital letters, a word of their own (CET,
//      CEST, EST), not after an offset; the time's offset where it names one
//      of the zone's, else no part of the timestamp (TimeRules)
//   %s seconds since the epoch, or milli-, micro-, nanoseconds by magnitude
//      (time_value.hpp), with an optional fraction
//   %T = %H:%M:%S   %F = %Y-%m-%d   %R = %H:%M   %% a '%'
//   %{ ... %} an optional part, taken when all of it matches (nests)
//   %[...] one byte of the set between the brackets
//   a blank matches one or more blanks; any other byte matches itself.
// Hand-written rather than strptime or cctz::parse: a key is matched at many
// positions of every line (and again in each tied comparison), so matching
// must not allocate, depend on the locale, or need the whole input to match.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace corank::text {

// The fields a match found, before a zone and a year make it an instant.
struct LocalTime {
  static constexpr int kNoYear = INT32_MIN;
  int year = kNoYear;
  int month = 0, day = 0;  // 0: not matched
  int hour = 0, minute = 0, second = 0;
  std::uint32_t nanos = 0;
  bool has_offset = false;
  int offset = 0;  // seconds east of UTC
  // %Z's letters, the first in the lowest byte (0: none), and where in the
  // text they begin.
  std::uint64_t zone_abbr = 0;
  std::size_t zone_abbr_at = 0;
  // %s: the instant itself, which no zone or year changes.
  bool epoch = false;
  std::int64_t epoch_seconds = 0;
};

// Letters of a zone abbreviation (up to 8) as LocalTime::zone_abbr holds them.
constexpr std::uint64_t pack_zone_abbr(std::string_view letters) noexcept {
  std::uint64_t p = 0;
  for (std::size_t k = 0; k < letters.size() && k < 8; ++k)
    p |= std::uint64_t{static_cast<unsigned char>(letters[k])} << (8 * k);
  return p;
}

// A UTC offset as %z reads it, at s[i] (Z, UT, UTC, GMT, +hh, +hhmm, +hh:mm,
// +hh:mm:ss, or -): seconds east of UTC in `offset`, i moved past it; false
// (i unmoved) when there is none.
bool read_utc_offset(std::string_view s, std::size_t& i, int& offset) noexcept;

class TimePattern {
public:
  // Throws UsageError naming the pattern when it is malformed or names no
  // date (a month and a day, or %s).
  explicit TimePattern(std::string_view pattern);

  // Matches at text[pos]; on success fills `out` and `end` (just past the
  // match). `anchored_epoch` allows %s a sign and any number of digits (a
  // key's whole value); otherwise %s needs 9 digits or more (a number found
  // in running text is rarely a time).
  bool match(std::string_view text, std::size_t pos, LocalTime& out, std::size_t& end,
             bool anchored_epoch) const noexcept {
    return match_from(text, pos, out, end, anchored_epoch, true);
  }
  // The same without the thread's memo of the last head matched (below): the
  // reference its tests compare match() with.
  bool match_unmemoized(std::string_view text, std::size_t pos, LocalTime& out, std::size_t& end,
                        bool anchored_epoch) const noexcept {
    return match_from(text, pos, out, end, anchored_epoch, false);
  }

  // Whether the whole text is one match (an epoch of nine digits or more):
  // a JSON member's value.
  bool matches_whole(std::string_view text, LocalTime& out) const noexcept {
    std::size_t end = 0;
    return may_match_at(text, 0) && match(text, 0, out, end, false) && end == text.size();
  }
  // Whether a match can start with byte c (for searching a line).
  bool can_start_with(unsigned char c) const noexcept { return lead_[c] & 1; }
  // Bit k: byte c may be a match's k-th byte (k < kLeadBytes), as
  // may_match_at tests it.
  std::uint8_t lead_bits(unsigned char c) const noexcept { return lead_[c]; }
  // Whether a match at text[pos] is possible as far as its first kLeadBytes
  // bytes tell: false only where match() would fail. Searching a line tries
  // most of its words and rejects them here, without matching (an address's
  // numbers before Common Log Format's time, say).
  bool may_match_at(std::string_view text, std::size_t pos) const noexcept {
    const std::size_t n = text.size() - pos < kLeadBytes ? text.size() - pos : kLeadBytes;
    for (std::size_t k = 0; k < n; ++k)
      if (!((lead_[static_cast<unsigned char>(text[pos + k])] >> k) & 1)) return false;
    return true;
  }
  static constexpr std::size_t kLeadBytes = 8;
  // Whether the pattern reads a year, a UTC offset (%z, or %s).
  bool has_year() const noexcept { return has_year_; }
  bool has_offset() const noexcept { return has_offset_; }
  // Whether it reads an epoch number (%s): a number found in running text is
  // a time only where no other timestamp is in the line.
  bool reads_epoch() const noexcept { return epoch_; }
  // Whether it ends in an optional UTC offset that a key may have cut off
  // (Common Log Format's " +0100]" in the field after -k4,4's).
  bool ends_with_optional_offset() const noexcept { return trailing_offset_; }
  // Whether it ends in an optional zone abbreviation (%{ %Z%}): PostgreSQL's
  // " CET" in the field after -k1,2's.
  bool ends_with_optional_zone() const noexcept { return trailing_zone_; }
  const std::string& text() const noexcept { return text_; }

  enum class Op : std::uint8_t {
    Literal, Blanks, Set, Year4, Year2, Month, MonthName, Day, DaySpaced, Hour, Hour12, AmPm, Minute, Second,
    Weekday, Fraction, Offset, ZoneName, Epoch, GroupBegin, GroupEnd
  };
  struct Step {
    Op op;
    std::uint8_t byte = 0;    // Literal: the byte; GroupBegin: 1 where the part keeps its state as it
                              // opens (mark_whole_groups); Offset: 1 after a blank ("11:15:01 +0100")
    std::uint16_t arg = 0;    // Set: index into sets_; GroupBegin: the index of its GroupEnd;
                              // Offset: 1 where it ends the pattern (a word of its own)
  };

private:
  void compile(std::string_view pattern);
  void mark_whole_groups();
  void compute_lead_bytes();
  void find_head();
  bool match_from(std::string_view text, std::size_t pos, LocalTime& out, std::size_t& end, bool anchored_epoch,
                  bool memo) const noexcept;

  // The pattern's head: its steps [0, head_steps_) at the top level, fields
  // of fixed reach (no fraction, offset, zone or epoch) that lines written
  // in the same minute or second share (a date and a time to the minute or
  // second). Each thread keeps the bytes its last match of the head looked
  // at and the state after it; a match whose text begins with those bytes
  // starts after the head (time_pattern.cpp). 0: no head.
  std::size_t head_steps_ = 0;
  // This pattern among all compiled in the process (a copy keeps it: it
  // matches alike): what a thread's memo names, where an address could name
  // a later pattern in the same place.
  std::uint64_t id_ = 0;

  std::string text_;
  std::vector<Step> steps_;
  // Each %[...] as the 256 bits of the bytes it takes: a lookup, not a search.
  struct ByteSet {
    std::uint64_t bits[4] = {};
    bool has(unsigned char c) const noexcept { return (bits[c >> 6] >> (c & 63)) & 1; }
    void add(unsigned char c) noexcept { bits[c >> 6] |= std::uint64_t{1} << (c & 63); }
  };
  std::vector<ByteSet> sets_;
  // Bit k of lead_[c]: byte c may be a match's k-th byte (k < kLeadBytes),
  // or the match may have ended before it.
  std::uint8_t lead_[256] = {};
  bool has_year_ = false, has_offset_ = false, trailing_offset_ = false, trailing_zone_ = false, epoch_ = false;
};

}  // namespace corank::text
