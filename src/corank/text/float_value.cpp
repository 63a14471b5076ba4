// std::from_chars, not strtod: strtod reads the decimal point of the current
// locale, and float8 text always uses '.'.
#include "corank/text/float_value.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "corank/text/char_classes.hpp"

namespace corank::text {

namespace {

bool starts_with_hex_prefix(std::string_view s) noexcept {
  return s.size() >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x';
}

// -0 as 0 and every NaN as one NaN above +Infinity: float8's equalities.
std::uint64_t order_bits(double v) noexcept {
  if (std::isnan(v)) return ~std::uint64_t{0};
  if (v == 0) v = 0;
  const auto bits = std::bit_cast<std::uint64_t>(v);
  return bits >> 63 ? ~bits : bits | std::uint64_t{1} << 63;
}

}  // namespace

std::optional<double> parse_float8(std::string_view s) noexcept {
  while (!s.empty() && is_c_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && is_c_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  const bool minus = !s.empty() && s.front() == '-';
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  // from_chars takes no sign of its own here (a second one is refused) and a
  // hexadecimal float without its 0x.
  if (s.empty() || s.front() == '-' || s.front() == '+') return std::nullopt;
  const bool hex = starts_with_hex_prefix(s);
  if (hex) s.remove_prefix(2);
  double v = 0;
  const auto [end, ec] =
      std::from_chars(s.data(), s.data() + s.size(), v, hex ? std::chars_format::hex : std::chars_format::general);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return minus ? -v : v;
}

std::optional<double> parse_float8(std::string_view s, char point) {
  if (point == '.') return parse_float8(s);
  const std::size_t at = s.find(point);
  if (s.find('.') != std::string_view::npos) return std::nullopt;
  if (at == std::string_view::npos) return parse_float8(s);
  // from_chars reads only '.': the text copied with its separator as one.
  char small[64];
  std::string large;
  char* p = small;
  if (s.size() > sizeof small) {
    large.assign(s);
    p = large.data();
  } else {
    std::memcpy(small, s.data(), s.size());
  }
  p[at] = '.';
  return parse_float8(std::string_view(p, s.size()));
}

int compare_float8(const std::optional<double>& a, const std::optional<double>& b) noexcept {
  if (!a || !b) return a.has_value() - b.has_value();
  const std::uint64_t x = order_bits(*a), y = order_bits(*b);
  return (x > y) - (x < y);
}

void encode_float8(const std::optional<double>& v, unsigned char* out) noexcept {
  for (std::size_t k = 0; k < kFloatCodeBytes; ++k) out[k] = 0;
  if (!v) return;
  out[0] = 1;
  const std::uint64_t bits = order_bits(*v);
  for (int k = 0; k < 8; ++k) out[1 + k] = static_cast<unsigned char>(bits >> (56 - 8 * k));
}

}  // namespace corank::text
