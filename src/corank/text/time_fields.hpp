#pragma once
// Reading a timestamp's fields at a position of a text, for TimePattern's
// steps (time_pattern.hpp): digits, month and weekday names, fractions of a
// second, UTC offsets, zone abbreviations and epoch numbers. Each reader
// moves `i` past what it read, and leaves it where it fails.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "corank/text/char_classes.hpp"
#include "corank/text/time_pattern.hpp"

namespace corank::text::time_fields {

// The small readers, inline: a line's search calls them at most of its words.
// Letters and digits: what a timestamp must not end inside of.
inline bool is_word(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  return is_alpha(u) || is_digit(u);
}
constexpr unsigned char lower(unsigned char c) noexcept { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
inline bool digit_at(std::string_view s, std::size_t i) noexcept {
  return i < s.size() && is_digit(static_cast<unsigned char>(s[i]));
}

// Between min and max digits, as many as there are; -1 when fewer than min.
inline int read_digits(std::string_view s, std::size_t& i, int min, int max) noexcept {
  int v = 0, n = 0;
  while (n < max && digit_at(s, i)) v = v * 10 + (s[i++] - '0'), ++n;
  return n < min ? -1 : v;
}
namespace detail {

inline constexpr const char* kMonths[] = {"january", "february", "march",     "april",   "may",      "june",
                                   "july",    "august",   "september", "october", "november", "december"};
inline constexpr const char* kWeekdays[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};

// Three letters, lowered, as one number.
constexpr std::uint32_t three(unsigned char a, unsigned char b, unsigned char c) noexcept {
  return std::uint32_t{lower(a)} << 16 | std::uint32_t{lower(b)} << 8 | lower(c);
}

// Names (lower case) and each one's first three letters as three() makes
// them: a name is found by one comparison of numbers a name.
template <std::size_t N>
struct NameTable {
  const char* const (&names)[N];
  std::array<std::uint32_t, N> heads{};
  constexpr explicit NameTable(const char* const (&n)[N]) noexcept : names(n) {
    for (std::size_t k = 0; k < N; ++k)
      heads[k] = three(static_cast<unsigned char>(n[k][0]), static_cast<unsigned char>(n[k][1]),
                       static_cast<unsigned char>(n[k][2]));
  }
};
inline constexpr NameTable kMonthNames(kMonths);
inline constexpr NameTable kWeekdayNames(kWeekdays);

// One of the table's names (1-based index), by its first three letters and,
// where the text goes on with them, the rest of its letters; 0 when none.
template <std::size_t N>
inline int read_name(std::string_view s, std::size_t& i, const NameTable<N>& table) noexcept {
  if (i + 3 > s.size()) return 0;
  const std::uint32_t head = three(static_cast<unsigned char>(s[i]), static_cast<unsigned char>(s[i + 1]),
                                   static_cast<unsigned char>(s[i + 2]));
  for (std::size_t k = 0; k < N; ++k) {
    if (head != table.heads[k]) continue;
    const char* n = table.names[k];
    std::size_t j = i + 3, c = 3;
    while (n[c] && j < s.size() && lower(static_cast<unsigned char>(s[j])) == static_cast<unsigned char>(n[c]))
      ++j, ++c;
    i = n[c] ? i + 3 : j;  // the whole name, or its abbreviation
    return static_cast<int>(k) + 1;
  }
  return 0;
}

}  // namespace detail

// Whether a UTC offset read at [from, i) of s ends there: no digit follows,
// nor a decimal point or comma before one ("-12.5" is a number). After a
// blank (`spaced`: "11:15:01 +0100") it must also hold its minutes (not
// "-12" alone) and be followed by the end, a blank or punctuation that ends a
// word: a signed number or a lone "z" in the text after a time ("-12 C",
// "z/OS") is the text's.
bool offset_ends(std::string_view s, std::size_t from, std::size_t i, bool spaced) noexcept;

// Whether s holds at `from` what can only be a UTC offset, whole ("+hh:mm"
// or "+hhmm", no digit after it), whatever its values: where one is out of
// range ("+99:99", "+2400") the time it is attached to is not read, rather
// than read without it (Python's datetime.fromisoformat refuses it too).
inline bool offset_shaped(std::string_view s, std::size_t from) noexcept {
  if (from >= s.size() || (s[from] != '+' && s[from] != '-') || !digit_at(s, from + 1) || !digit_at(s, from + 2))
    return false;
  const std::size_t m = from + 3 + (from + 3 < s.size() && s[from + 3] == ':');
  return digit_at(s, m) && digit_at(s, m + 1) && !digit_at(s, m + 2);
}

// A month's name, whole or abbreviated (1-12), any case; 0 when none.
inline int read_month_name(std::string_view s, std::size_t& i) noexcept {
  return detail::read_name(s, i, detail::kMonthNames);
}
// A weekday's name, whole or abbreviated (1-7), any case; 0 when none.
inline int read_weekday_name(std::string_view s, std::size_t& i) noexcept {
  return detail::read_name(s, i, detail::kWeekdayNames);
}
// '.' or ',' and digits: nine kept, the rest read and dropped; nothing where none.
inline void read_fraction(std::string_view s, std::size_t& i, std::uint32_t& nanos) noexcept {
  if (!(i < s.size() && (s[i] == '.' || s[i] == ',') && digit_at(s, i + 1))) return;
  ++i;
  std::uint32_t scale = 100'000'000;
  nanos = 0;
  for (; digit_at(s, i); ++i, scale /= 10) nanos += static_cast<std::uint32_t>(s[i] - '0') * scale;
}
// A zone abbreviation (%Z): 2 to 6 capital letters, or a sign and 2 or 4
// digits (the tz database's +08, +0545), a word of their own, as
// LocalTime::zone_abbr packs them; 0 (i unmoved) when there are none.
std::uint64_t read_zone_abbr(std::string_view s, std::size_t& i) noexcept;
// [-]digits[.digits] as %s reads them (time_pattern.hpp).
bool read_epoch(std::string_view s, std::size_t& i, LocalTime& t, bool anchored) noexcept;

}  // namespace corank::text::time_fields
