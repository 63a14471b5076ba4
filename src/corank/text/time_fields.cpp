#include "corank/text/time_fields.hpp"

namespace corank::text {

namespace time_fields {

std::uint64_t read_zone_abbr(std::string_view s, std::size_t& i) noexcept {
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    // The tz database's numeric abbreviations (Asia/Singapore's +08), which
    // PostgreSQL's log prefix and `date` write: a word of their own, no
    // decimal (-12.5) and no time (+08:00 is an offset, read as one).
    std::size_t j = i + 1;
    while (digit_at(s, j) && j - i <= 5) ++j;
    const std::size_t digits = j - i - 1;
    if ((digits != 2 && digits != 4) ||
        (j < s.size() && (is_word(s[j]) || s[j] == '.' || s[j] == ',' || s[j] == ':')))
      return 0;
    const std::uint64_t packed = pack_zone_abbr(s.substr(i, j - i));
    i = j;
    return packed;
  }
  std::size_t j = i;
  while (j < s.size() && j - i < 7 && s[j] >= 'A' && s[j] <= 'Z') ++j;
  if (j - i < 2 || j - i > 6 || (j < s.size() && is_word(s[j]))) return 0;
  const std::uint64_t packed = pack_zone_abbr(s.substr(i, j - i));
  i = j;
  return packed;
}

// [-]digits[.digits], its unit chosen by the integer part's magnitude: seconds
// below 10^11 (the year 5138), milliseconds below 10^14, microseconds below
// 10^17, else nanoseconds.
bool read_epoch(std::string_view s, std::size_t& i, LocalTime& t, bool anchored) noexcept {
  const bool minus = anchored && i < s.size() && s[i] == '-';
  std::size_t j = i + minus;
  std::uint64_t v = 0;
  int n = 0;
  for (; digit_at(s, j); ++j, ++n) {
    const unsigned d = static_cast<unsigned>(s[j] - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  if (n == 0 || (!anchored && n < 9)) return false;
  int unit_digits = 0;
  if (v >= 100'000'000'000'000'000ull) unit_digits = 9;
  else if (v >= 100'000'000'000'000ull) unit_digits = 6;
  else if (v >= 100'000'000'000ull) unit_digits = 3;
  std::uint64_t unit = 1;
  for (int k = 0; k < unit_digits; ++k) unit *= 10;
  const auto whole = static_cast<std::int64_t>(v / unit);
  std::uint64_t nanos = (v % unit) * (1'000'000'000ull / unit);
  if (j < s.size() && s[j] == '.' && digit_at(s, j + 1)) {
    ++j;
    std::uint64_t scale = 1'000'000'000ull / unit / 10;
    for (; digit_at(s, j); ++j, scale /= 10) nanos += static_cast<std::uint64_t>(s[j] - '0') * scale;
  }
  t.epoch = true;
  t.epoch_seconds = whole;
  t.nanos = static_cast<std::uint32_t>(nanos);
  if (minus && nanos) t.epoch_seconds = -whole - 1, t.nanos = static_cast<std::uint32_t>(1'000'000'000ull - nanos);
  else if (minus) t.epoch_seconds = -whole;
  i = j;
  return true;
}

bool offset_ends(std::string_view s, std::size_t from, std::size_t i, bool spaced) noexcept {
  if (digit_at(s, i) || (i < s.size() && (s[i] == '.' || s[i] == ',') && digit_at(s, i + 1))) return false;
  if (!spaced) return true;
  if ((s[from] == '+' || s[from] == '-') && i - from < 5) return false;  // hours alone
  if (i == s.size()) return true;
  switch (s[i]) {
    case ' ': case '\t': case '\r': case ']': case ')': case '>': case ',': case ';': case ':': case '.': case '"':
    case '\'':
      return true;
    default: return false;
  }
}

}  // namespace time_fields

using time_fields::digit_at;
using time_fields::read_digits;

bool read_utc_offset(std::string_view s, std::size_t& i, int& offset) noexcept {
  if (i >= s.size()) return false;
  const char c = s[i];
  if (c == 'Z' || c == 'z') {
    ++i;
    offset = 0;
    return true;
  }
  if (c == 'U' || c == 'G') {
    for (const char* name : {"UTC", "GMT", "UT"}) {
      const std::string_view n(name);
      if (s.substr(i, n.size()) == n) {
        i += n.size();
        offset = 0;
        return true;
      }
    }
    return false;
  }
  if (c != '+' && c != '-') return false;
  std::size_t j = i + 1;
  const int h = read_digits(s, j, 2, 2);
  if (h < 0 || h > 23) return false;
  int m = 0, sec = 0;
  if (j < s.size() && s[j] == ':') {
    // "-05: message": a colon that no minutes follow is the text's.
    if (digit_at(s, j + 1)) {
      ++j;
      m = read_digits(s, j, 2, 2);
      // Seconds, as PostgreSQL and Python write a zone's local mean time
      // ("-00:44:30": Monrovia until 1972): two digits below 60 that no
      // third follows; anything else after the minutes is the text's.
      if (m >= 0 && j < s.size() && s[j] == ':' && digit_at(s, j + 1) && digit_at(s, j + 2) && !digit_at(s, j + 3) &&
          (s[j + 1] - '0') * 10 + (s[j + 2] - '0') < 60) {
        ++j;
        sec = read_digits(s, j, 2, 2);
      }
    }
  } else if (digit_at(s, j)) {
    m = read_digits(s, j, 2, 2);
  }
  if (m < 0 || m > 59 || sec < 0 || sec > 59) return false;
  i = j;
  offset = (h * 3600 + m * 60 + sec) * (c == '-' ? -1 : 1);
  return true;
}

}  // namespace corank::text
