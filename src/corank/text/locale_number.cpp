#include "corank/text/locale_number.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "corank/text/char_classes.hpp"

namespace corank::text {

namespace {

// The byte at i, or a NUL past the end: GNU reads keys as C strings.
unsigned char at(std::string_view s, std::size_t i) noexcept {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}

// strnumcmp compares the separator with each byte as an unsigned char,
// traverse_raw_number as a (signed) char: a separator above 0x7f, and GNU's
// "none", 128, match in one and not the other.
bool is_separator(unsigned char c, const LocaleNumbers& n) noexcept {
  return static_cast<int>(c) == n.thousands_separator;
}

bool is_separator_char(unsigned char c, const LocaleNumbers& n) noexcept {
  return static_cast<int>(static_cast<signed char>(c)) == n.thousands_separator;
}

}  // namespace

DecimalNumber parse_locale_decimal(std::string_view key, const LocaleNumbers& n, std::string& digits) {
  const std::string_view s = skip_blanks(key);
  DecimalNumber d;
  std::size_t i = 0;
  const bool minus = at(s, i) == '-';
  if (minus) ++i;
  while (at(s, i) == '0' || is_separator(at(s, i), n)) ++i;
  digits.clear();
  while (is_digit(at(s, i))) {
    digits += s[i++];
    while (is_separator(at(s, i), n)) ++i;
  }
  d.integer = digits;
  if (at(s, i) == static_cast<unsigned char>(n.decimal_point)) {
    const std::size_t start = ++i;
    while (is_digit(at(s, i))) ++i;
    std::size_t end = i;
    while (end > start && s[end - 1] == '0') --end;
    d.fraction = s.substr(start, end - start);
  }
  d.negative = minus && !d.is_zero();
  return d;
}

int compare_locale_numeric(std::string_view a, std::string_view b, const LocaleNumbers& n) {
  thread_local std::string da, db;
  return compare_decimal(parse_locale_decimal(a, n, da), parse_locale_decimal(b, n, db));
}

namespace {

// GNU's traverse_raw_number from s[i]: digits, each followed by at most one
// separator (a separator not followed by a digit ends the number before it),
// then the decimal point and digits. The largest digit (0: none) and where
// the number ends.
struct RawNumber {
  unsigned char max_digit = 0;
  std::size_t end = 0;
};

RawNumber traverse_raw_number(std::string_view s, std::size_t i, const LocaleNumbers& n) noexcept {
  RawNumber r;
  bool ends_with_separator = false;
  for (; is_digit(at(s, i)); ) {
    r.max_digit = std::max(r.max_digit, at(s, i++));
    ends_with_separator = is_separator_char(at(s, i), n);
    if (ends_with_separator) ++i;
  }
  if (ends_with_separator) {
    r.end = i - 1;
    return r;
  }
  if (at(s, i) == static_cast<unsigned char>(n.decimal_point))
    for (++i; is_digit(at(s, i)); ++i) r.max_digit = std::max(r.max_digit, at(s, i));
  r.end = i;
  return r;
}

}  // namespace

int locale_unit_order(std::string_view number, const LocaleNumbers& n) noexcept {
  const bool minus = at(number, 0) == '-';
  const RawNumber r = traverse_raw_number(number, minus, n);
  if (r.max_digit <= '0') return 0;
  const int order = unit_order(at(number, r.end));
  return minus ? -order : order;
}

int compare_locale_human(std::string_view a, std::string_view b, const LocaleNumbers& n) {
  const int oa = locale_unit_order(skip_blanks(a), n), ob = locale_unit_order(skip_blanks(b), n);
  if (oa != ob) return oa < ob ? -1 : 1;
  return compare_locale_numeric(a, b, n);
}

std::size_t locale_number_mark_end(std::string_view number, const LocaleNumbers& n, bool unit) noexcept {
  const RawNumber r = traverse_raw_number(number, at(number, 0) == '-', n);
  if (r.max_digit == 0) return 0;
  return r.end + (unit && unit_order(at(number, r.end)) != 0);
}

GeneralNumber parse_general_in(std::string_view key, locale_t loc) {
  thread_local std::string buf;
  const std::size_t nul = key.find('\0');
  buf.assign(nul == std::string_view::npos ? key : key.substr(0, nul));
  char* end = nullptr;
  const long double v = strtold_l(buf.c_str(), &end, loc);
  const auto length = static_cast<std::size_t>(end - buf.c_str());
  if (length == 0) return {GeneralNumber::Error, 0, 0};
  return {v != v ? GeneralNumber::NaN : GeneralNumber::Number, v, length};
}

int compare_general_in(std::string_view a, std::string_view b, locale_t loc) {
  const GeneralNumber x = parse_general_in(a, loc);
  const GeneralNumber y = parse_general_in(b, loc);
  return compare_general(x, y);
}

}  // namespace corank::text
