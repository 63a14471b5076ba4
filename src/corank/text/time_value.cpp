// Dates become days through std::chrono's civil calendar.
#include "corank/text/time_value.hpp"

#include <chrono>

#include "corank/text/char_classes.hpp"

namespace corank::text {

namespace {

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

bool at(std::string_view s, std::size_t i, char c) noexcept { return i < s.size() && s[i] == c; }

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

std::optional<std::int64_t> parse_date(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size() && is_blank(static_cast<unsigned char>(s[i]))) ++i;
  std::size_t end = s.size();
  while (end > i && is_blank(static_cast<unsigned char>(s[end - 1]))) --end;
  const bool minus = i < end && s[i] == '-';
  if (end - i == 8 + (minus ? 1 : 0)) {
    constexpr std::string_view word = "infinity";
    bool same = true;
    for (std::size_t k = 0; k < word.size() && same; ++k)
      same = (static_cast<unsigned char>(s[i + (minus ? 1 : 0) + k]) | 0x20) == static_cast<unsigned char>(word[k]);
    if (same) return minus ? INT64_MIN : INT64_MAX;
  }
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

int compare_instants(const std::optional<Instant>& x, const std::optional<Instant>& y) noexcept {
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
