#include "corank/text/numeric_compare.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "corank/text/char_classes.hpp"

namespace corank::text {

namespace {

// The key up to its first NUL: GNU compares these keys as C strings.
std::string_view c_string(std::string_view s) noexcept {
  if (s.empty()) return s;  // an empty view may have no data
  const void* nul = std::memchr(s.data(), '\0', s.size());
  return nul ? s.substr(0, static_cast<std::size_t>(static_cast<const char*>(nul) - s.data())) : s;
}

int sign(int v) noexcept { return (v > 0) - (v < 0); }

}  // namespace

std::string_view skip_blanks(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size() && is_blank(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

DecimalNumber parse_decimal(std::string_view key) noexcept {
  std::string_view s = skip_blanks(key);
  DecimalNumber n;
  std::size_t i = 0;
  const bool minus = i < s.size() && s[i] == '-';
  if (minus) ++i;
  while (i < s.size() && s[i] == '0') ++i;
  std::size_t start = i;
  while (i < s.size() && is_digit(static_cast<unsigned char>(s[i]))) ++i;
  n.integer = s.substr(start, i - start);
  if (i < s.size() && s[i] == '.') {
    start = ++i;
    while (i < s.size() && is_digit(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t end = i;
    while (end > start && s[end - 1] == '0') --end;
    n.fraction = s.substr(start, end - start);
  }
  n.negative = minus && !n.is_zero();
  return n;
}

int compare_decimal(const DecimalNumber& a, const DecimalNumber& b) noexcept {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int c;
  if (a.integer.size() != b.integer.size())
    c = a.integer.size() < b.integer.size() ? -1 : 1;
  else if ((c = sign(a.integer.compare(b.integer))) == 0)
    c = sign(a.fraction.compare(b.fraction));  // trailing zeros are gone: plain string order
  return a.negative ? -c : c;
}

void encode_decimal(const DecimalNumber& d, unsigned char* out, std::size_t n) {
  std::memset(out, 0, n);
  if (d.is_zero()) {
    out[0] = 0x40;
    return;
  }
  out[0] = d.negative ? 0x20 : 0x60;
  const std::uint64_t count = d.integer.size();
  // A saturated count could hide which number is longer, so then the digits
  // stay zero and equal prefixes defer to the full comparison.
  const bool saturated = count >= 0xFFFFFF;
  const std::uint64_t c = saturated ? 0xFFFFFF : count;
  if (n >= 4) out[1] = c >> 16 & 0xFF, out[2] = c >> 8 & 0xFF, out[3] = c & 0xFF;
  if (!saturated) {
    std::size_t nib = 0;
    const std::size_t max_nibbles = n > 4 ? 2 * (n - 4) : 0;
    auto put = [&](char digit) {
      if (nib >= max_nibbles) return;
      const unsigned v = static_cast<unsigned>(digit - '0');
      out[4 + nib / 2] |= static_cast<unsigned char>(nib % 2 ? v : v << 4);
      ++nib;
    };
    for (char ch : d.integer) put(ch);
    for (char ch : d.fraction) put(ch);
  }
  if (d.negative)
    for (std::size_t i = 1; i < n; ++i) out[i] = static_cast<unsigned char>(~out[i]);
}

int unit_order(unsigned char c) noexcept {
  switch (c) {
    case 'K': case 'k': return 1;
    case 'M': return 2;
    case 'G': return 3;
    case 'T': return 4;
    case 'P': return 5;
    case 'E': return 6;
    case 'Z': return 7;
    case 'Y': return 8;
    case 'R': return 9;   // ronna and quetta, as in coreutils 9.4
    case 'Q': return 10;
    default: return 0;
  }
}

int human_unit_order(std::string_view key) noexcept {
  std::string_view s = c_string(key);
  std::size_t i = 0;
  const bool minus = i < s.size() && s[i] == '-';
  if (minus) ++i;
  bool nonzero = false;
  while (i < s.size() && is_digit(static_cast<unsigned char>(s[i]))) nonzero |= s[i++] != '0';
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(static_cast<unsigned char>(s[i]))) nonzero |= s[i++] != '0';
  }
  if (!nonzero || i == s.size()) return 0;
  const int order = unit_order(static_cast<unsigned char>(s[i]));
  return minus ? -order : order;
}

int compare_numeric(std::string_view a, std::string_view b) noexcept {
  return compare_decimal(parse_decimal(a), parse_decimal(b));
}

int compare_human(std::string_view a, std::string_view b) noexcept {
  const int oa = human_unit_order(skip_blanks(a)), ob = human_unit_order(skip_blanks(b));
  if (oa != ob) return oa < ob ? -1 : 1;
  return compare_numeric(a, b);
}

GeneralNumber parse_general(std::string_view key) {
  // strtold needs a terminated string; keys are short, so a reused buffer does.
  thread_local std::string buf;
  buf.assign(c_string(key));
  char* end = nullptr;
  const long double v = std::strtold(buf.c_str(), &end);
  const auto length = static_cast<std::size_t>(end - buf.c_str());
  if (length == 0) return {GeneralNumber::Error, 0, 0};
  return {v != v ? GeneralNumber::NaN : GeneralNumber::Number, v, length};
}

int compare_general(std::string_view a, std::string_view b) { return compare_general(parse_general(a), parse_general(b)); }

int compare_general(const GeneralNumber& x, const GeneralNumber& y) {
  if (x.kind != y.kind) return x.kind < y.kind ? -1 : 1;
  if (x.kind == GeneralNumber::Error) return 0;
  if (x.kind == GeneralNumber::Number) return (x.value > y.value) - (x.value < y.value);
  // Two NaNs: GNU orders them by their printed form ("-nan" before "nan").
  char pa[64], pb[64];
  std::snprintf(pa, sizeof pa, "%Lf", x.value);
  std::snprintf(pb, sizeof pb, "%Lf", y.value);
  return sign(std::strcmp(pa, pb));
}

void encode_general(const GeneralNumber& g, unsigned char* out) noexcept {
  // Conversion errors 0, NaNs 1 (their order is left to the full comparison),
  // numbers by the IEEE total order of the nearest double, which never
  // reverses two long doubles; -0 and +0 share a code because they compare equal.
  std::uint64_t code = g.kind == GeneralNumber::Error ? 0 : 1;
  if (g.kind == GeneralNumber::Number) {
    double d = static_cast<double>(g.value);
    if (d == 0) d = 0;
    const auto bits = std::bit_cast<std::uint64_t>(d);
    code = bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
  }
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(code >> (56 - 8 * i));
}

int month_of(std::string_view key) noexcept {
  static constexpr const char* kMonths[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                            "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
  std::string_view s = skip_blanks(key);
  if (s.size() < 3) return 0;
  const char m[3] = {static_cast<char>(to_upper(static_cast<unsigned char>(s[0]))),
                     static_cast<char>(to_upper(static_cast<unsigned char>(s[1]))),
                     static_cast<char>(to_upper(static_cast<unsigned char>(s[2])))};
  for (int i = 0; i < 12; ++i)
    if (std::memcmp(m, kMonths[i], 3) == 0) return i + 1;
  return 0;
}

}  // namespace corank::text
