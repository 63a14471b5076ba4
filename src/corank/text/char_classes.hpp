#pragma once
// GNU sort's character tables in the C locale. A "blank" is space, tab or
// newline: GNU counts '\n' as a field separator so that -z records that hold
// newlines split into fields the same way.
#include <array>
#include <cstdint>

namespace corank::text {

using ByteTable = std::array<bool, 256>;

constexpr bool is_blank(unsigned char c) noexcept { return c == ' ' || c == '\t' || c == '\n'; }
// isspace in the C locale: what PostgreSQL's numeric_in and float8in skip
// around a number (CR, FF and VT too).
constexpr bool is_c_space(unsigned char c) noexcept { return c == ' ' || (c >= '\t' && c <= '\r'); }
constexpr bool is_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(unsigned char c) noexcept { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
constexpr bool is_print(unsigned char c) noexcept { return c >= 0x20 && c < 0x7f; }
constexpr unsigned char to_upper(unsigned char c) noexcept {
  return c >= 'a' && c <= 'z' ? static_cast<unsigned char>(c - 32) : c;
}

// -d ignores everything but letters, digits and blanks.
inline constexpr ByteTable kNonDictionary = [] {
  ByteTable t{};
  for (int c = 0; c < 256; ++c) {
    const auto u = static_cast<unsigned char>(c);
    t[c] = !(is_alpha(u) || is_digit(u) || is_blank(u));
  }
  return t;
}();

// -i ignores what is not printable ASCII.
inline constexpr ByteTable kNonPrinting = [] {
  ByteTable t{};
  for (int c = 0; c < 256; ++c) t[c] = !is_print(static_cast<unsigned char>(c));
  return t;
}();

}  // namespace corank::text
