// Hand-written: no library on Debian reads ISO 8601, Common Log Format and
// syslog timestamps together, and strptime/timegm are locale- and
// TZ-dependent and slow on keys that are parsed on every tied comparison.
// Dates become days through std::chrono's civil calendar.
#include "corank/text/time_value.hpp"

#include <chrono>

#include "corank/text/char_classes.hpp"

namespace corank::text {

namespace {

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;

// Reads exactly n digits at s[i..); -1 when they are not all there.
int fixed_digits(std::string_view s, std::size_t& i, int n) noexcept {
  if (i + static_cast<std::size_t>(n) > s.size()) return -1;
  int v = 0;
  for (int k = 0; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if (!is_digit(c)) return -1;
    v = v * 10 + (c - '0');
  }
  i += static_cast<std::size_t>(n);
  return v;
}

// One or two digits (a day of the month).
int short_number(std::string_view s, std::size_t& i) noexcept {
  if (i >= s.size() || !is_digit(static_cast<unsigned char>(s[i]))) return -1;
  int v = s[i++] - '0';
  if (i < s.size() && is_digit(static_cast<unsigned char>(s[i]))) v = v * 10 + (s[i++] - '0');
  return v;
}

bool at(std::string_view s, std::size_t i, char c) noexcept { return i < s.size() && s[i] == c; }
bool digit_at(std::string_view s, std::size_t i) noexcept {
  return i < s.size() && is_digit(static_cast<unsigned char>(s[i]));
}

// Jan..Dec in any case: 1..12, else 0.
unsigned month_name(std::string_view s, std::size_t& i) noexcept {
  static constexpr const char* kMonths[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                            "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
  if (i + 3 > s.size()) return 0;
  for (unsigned m = 0; m < 12; ++m) {
    bool same = true;
    for (int k = 0; k < 3 && same; ++k) same = to_upper(static_cast<unsigned char>(s[i + k])) == kMonths[m][k];
    if (same) {
      i += 3;
      return m + 1;
    }
  }
  return 0;
}

// HH:MM[:SS[.fraction]] (',' also starts a fraction, as ISO 8601 allows).
bool time_of_day(std::string_view s, std::size_t& i, std::int64_t& seconds, std::uint32_t& nanos) noexcept {
  const int h = fixed_digits(s, i, 2);
  if (h < 0 || h > 23 || !at(s, i++, ':')) return false;
  const int m = fixed_digits(s, i, 2);
  if (m < 0 || m > 59) return false;
  int sec = 0;
  nanos = 0;
  if (at(s, i, ':')) {
    ++i;
    sec = fixed_digits(s, i, 2);
    if (sec < 0 || sec > 60) return false;  // 60: a leap second, read as the next minute's first
    if ((at(s, i, '.') || at(s, i, ',')) && digit_at(s, i + 1)) {
      ++i;
      std::uint32_t scale = 100'000'000;
      for (; digit_at(s, i); ++i, scale /= 10) nanos += static_cast<std::uint32_t>(s[i] - '0') * scale;
    }
  }
  seconds = std::int64_t{h} * 3600 + m * 60 + sec;
  return true;
}

// A numeric UTC offset, in seconds east: +HH, +HHMM or +HH:MM, optionally
// after one blank. Leaves i alone where there is none.
std::int64_t numeric_offset(std::string_view s, std::size_t& i, bool& bad) noexcept {
  std::size_t j = i;
  if (at(s, j, ' ')) ++j;
  if (!(at(s, j, '+') || at(s, j, '-')) || !digit_at(s, j + 1)) return 0;
  const bool minus = s[j++] == '-';
  const int h = fixed_digits(s, j, 2);
  if (h < 0) return 0;  // "-5": not an offset, perhaps the next word
  int m = 0;
  if (at(s, j, ':')) ++j, m = fixed_digits(s, j, 2);
  else if (digit_at(s, j)) m = fixed_digits(s, j, 2);
  if (h > 23 || m < 0 || m > 59) {
    bad = true;
    return 0;
  }
  i = j;
  const std::int64_t off = std::int64_t{h} * 3600 + m * 60;
  return minus ? -off : off;
}

std::optional<Instant> civil_instant(int year, unsigned month, unsigned day, std::int64_t day_seconds,
                                     std::uint32_t nanos, std::int64_t offset) noexcept {
  const auto days = days_from_civil(year, month, day);
  if (!days) return std::nullopt;
  return Instant{*days * 86400 + day_seconds - offset, nanos};
}

// 2026-10-10[(T| )13:55[:36[.123]]][Z|+02:00]
std::optional<Instant> iso(std::string_view s, std::size_t& i) noexcept {
  const int y = fixed_digits(s, i, 4);
  if (y < 0 || !at(s, i++, '-')) return std::nullopt;
  const int mo = fixed_digits(s, i, 2);
  if (mo < 0 || !at(s, i++, '-')) return std::nullopt;
  const int d = fixed_digits(s, i, 2);
  if (d < 0) return std::nullopt;
  std::int64_t secs = 0, offset = 0;
  std::uint32_t nanos = 0;
  const bool t = at(s, i, 'T') || at(s, i, 't');
  if (t || (at(s, i, ' ') && digit_at(s, i + 1) && digit_at(s, i + 2) && at(s, i + 3, ':'))) {
    ++i;
    if (!time_of_day(s, i, secs, nanos)) return std::nullopt;
    if (at(s, i, 'Z') || at(s, i, 'z')) {
      ++i;
    } else {
      bool bad = false;
      offset = numeric_offset(s, i, bad);
      if (bad) return std::nullopt;
    }
  }
  return civil_instant(y, static_cast<unsigned>(mo), static_cast<unsigned>(d), secs, nanos, offset);
}

// 10/Oct/2026:13:55:36 +0000 (the offset may be missing: UTC)
std::optional<Instant> common_log(std::string_view s, std::size_t& i) noexcept {
  const int d = short_number(s, i);
  if (d < 0 || !at(s, i++, '/')) return std::nullopt;
  const unsigned mo = month_name(s, i);
  if (mo == 0 || !at(s, i++, '/')) return std::nullopt;
  const int y = fixed_digits(s, i, 4);
  if (y < 0 || !at(s, i++, ':')) return std::nullopt;
  std::int64_t secs = 0;
  std::uint32_t nanos = 0;
  if (!time_of_day(s, i, secs, nanos)) return std::nullopt;
  bool bad = false;
  const std::int64_t offset = numeric_offset(s, i, bad);
  if (bad) return std::nullopt;
  return civil_instant(y, mo, static_cast<unsigned>(d), secs, nanos, offset);
}

// Oct 10 13:55:36 (RFC 3164 pads the day with a blank: "Oct  1")
std::optional<Instant> syslog(std::string_view s, std::size_t& i, int year) noexcept {
  const unsigned mo = month_name(s, i);
  if (mo == 0 || !at(s, i, ' ')) return std::nullopt;
  while (at(s, i, ' ')) ++i;
  const int d = short_number(s, i);
  if (d < 0 || !at(s, i, ' ')) return std::nullopt;
  while (at(s, i, ' ')) ++i;
  std::int64_t secs = 0;
  std::uint32_t nanos = 0;
  if (!time_of_day(s, i, secs, nanos)) return std::nullopt;
  return civil_instant(year, mo, static_cast<unsigned>(d), secs, nanos, 0);
}

// [-]digits[.digits], its unit chosen by the integer part's magnitude.
std::optional<Instant> epoch(std::string_view s, std::size_t& i) noexcept {
  const bool minus = at(s, i, '-');
  if (minus) ++i;
  if (!digit_at(s, i)) return std::nullopt;
  std::uint64_t v = 0;
  for (; digit_at(s, i); ++i) {
    const unsigned dgt = static_cast<unsigned>(s[i] - '0');
    if (v > (UINT64_MAX - dgt) / 10) return std::nullopt;
    v = v * 10 + dgt;
  }
  int unit_digits = 0;  // of the integer part below one second
  if (v >= 100'000'000'000'000'000ull) unit_digits = 9;
  else if (v >= 100'000'000'000'000ull) unit_digits = 6;
  else if (v >= 100'000'000'000ull) unit_digits = 3;
  std::uint64_t unit = 1;
  for (int k = 0; k < unit_digits; ++k) unit *= 10;
  const auto whole = static_cast<std::int64_t>(v / unit);
  std::uint64_t nanos = (v % unit) * static_cast<std::uint64_t>(kNanosPerSecond / static_cast<std::int64_t>(unit));
  if (at(s, i, '.') && digit_at(s, i + 1)) {
    ++i;
    std::uint64_t scale = static_cast<std::uint64_t>(kNanosPerSecond) / unit / 10;
    for (; digit_at(s, i); ++i, scale /= 10) nanos += static_cast<std::uint64_t>(s[i] - '0') * scale;
  }
  Instant t{whole, static_cast<std::uint32_t>(nanos)};
  if (minus) t = nanos ? Instant{-whole - 1, static_cast<std::uint32_t>(kNanosPerSecond - nanos)} : Instant{-whole, 0};
  return t;
}

std::size_t count_digits(std::string_view s, std::size_t i) noexcept {
  std::size_t n = 0;
  while (digit_at(s, i + n)) ++n;
  return n;
}

void put_be(unsigned char* out, std::uint64_t v, int bytes) noexcept {
  for (int k = 0; k < bytes; ++k) out[k] = static_cast<unsigned char>(v >> (8 * (bytes - 1 - k)));
}

}  // namespace

std::optional<std::int64_t> days_from_civil(int year, unsigned month, unsigned day) noexcept {
  using namespace std::chrono;
  const year_month_day ymd{std::chrono::year{year}, std::chrono::month{month}, std::chrono::day{day}};
  if (!ymd.ok()) return std::nullopt;
  return sys_days{ymd}.time_since_epoch().count();
}

std::optional<Instant> parse_time(std::string_view s, int syslog_year, std::size_t* end) noexcept {
  std::size_t i = 0;
  while (i < s.size() && is_blank(static_cast<unsigned char>(s[i]))) ++i;
  if (at(s, i, '[')) ++i;
  if (i == s.size()) return std::nullopt;
  std::optional<Instant> t;
  const auto c = static_cast<unsigned char>(s[i]);
  if (is_alpha(c)) {
    t = syslog(s, i, syslog_year);
  } else if (is_digit(c)) {
    const std::size_t n = count_digits(s, i);
    if (n == 4 && at(s, i + 4, '-')) t = iso(s, i);
    else if (n <= 2 && at(s, i + n, '/')) t = common_log(s, i);
    else t = epoch(s, i);
  } else if (c == '-') {
    t = epoch(s, i);
  }
  if (!t || !(i == s.size() || is_blank(static_cast<unsigned char>(s[i])) || s[i] == ']')) return std::nullopt;
  if (end) *end = i;
  return t;
}

std::optional<std::int64_t> parse_date(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size() && is_blank(static_cast<unsigned char>(s[i]))) ++i;
  const int y = fixed_digits(s, i, 4);
  if (y < 0 || !at(s, i++, '-')) return std::nullopt;
  const int m = fixed_digits(s, i, 2);
  if (m < 0 || !at(s, i++, '-')) return std::nullopt;
  const int d = fixed_digits(s, i, 2);
  if (d < 0) return std::nullopt;
  while (i < s.size() && is_blank(static_cast<unsigned char>(s[i]))) ++i;
  if (i != s.size()) return std::nullopt;
  return days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
}

int current_utc_year() noexcept {
  static const int year = [] {
    using namespace std::chrono;
    const year_month_day today{floor<days>(system_clock::now())};
    return static_cast<int>(today.year());
  }();
  return year;
}

int compare_time(std::string_view a, std::string_view b, int syslog_year) noexcept {
  const auto x = parse_time(a, syslog_year), y = parse_time(b, syslog_year);
  if (!x || !y) return (x.has_value()) - (y.has_value());
  return *x < *y ? -1 : *x == *y ? 0 : 1;
}

void encode_time(const std::optional<Instant>& t, unsigned char* out) noexcept {
  for (std::size_t k = 0; k < kTimeCodeBytes; ++k) out[k] = 0;
  if (!t) return;
  out[0] = 1;
  put_be(out + 1, static_cast<std::uint64_t>(t->seconds) ^ (std::uint64_t{1} << 63), 8);
  put_be(out + 9, t->nanoseconds, 4);
}

}  // namespace corank::text
