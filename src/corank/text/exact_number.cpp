#include "corank/text/exact_number.hpp"

#include <algorithm>
#include <cstring>

#include "corank/text/char_classes.hpp"

namespace corank::text {

namespace {

// Exponents beyond +-2^62 are clamped: such numbers are larger (or smaller)
// than anything real data holds, and the clamp keeps the sums from overflowing.
constexpr std::int64_t kExponentLimit = std::int64_t{1} << 62;

std::int64_t clamp_exponent(std::int64_t v) noexcept { return std::clamp(v, -kExponentLimit, kExponentLimit); }

bool digit_at(std::string_view s, std::size_t i) noexcept {
  return i < s.size() && is_digit(static_cast<unsigned char>(s[i]));
}

bool same_letters(std::string_view s, std::string_view lower) noexcept {
  if (s.size() != lower.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) | 0x20) != static_cast<unsigned char>(lower[i])) return false;
  return true;
}

// NaN, [+|-]Infinity or [+|-]inf, in any case, between blanks: the spellings
// PostgreSQL's numeric_in accepts (it refuses a signed NaN); Zero otherwise.
ExactNumber::Sign special_value(std::string_view s) noexcept {
  while (!s.empty() && is_c_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && is_c_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (same_letters(s, "nan")) return ExactNumber::NaN;
  const bool minus = !s.empty() && s.front() == '-';
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  if (same_letters(s, "infinity") || same_letters(s, "inf"))
    return minus ? ExactNumber::NegativeInfinity : ExactNumber::PositiveInfinity;
  return ExactNumber::Zero;
}

// The i-th significant digit of v (head, then tail).
char digit(const ExactNumber& v, std::size_t i) noexcept {
  return i < v.head.size() ? v.head[i] : v.tail[i - v.head.size()];
}

}  // namespace

ExactNumber parse_exact_number(std::string_view s, char point) noexcept {
  ExactNumber v;
  std::size_t i = 0;
  while (i < s.size() && is_c_space(static_cast<unsigned char>(s[i]))) ++i;
  const bool minus = i < s.size() && s[i] == '-';
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  const std::size_t int_begin = i;
  while (digit_at(s, i)) ++i;
  std::string_view integer = s.substr(int_begin, i - int_begin), fraction;
  if (i < s.size() && s[i] == point) {
    const std::size_t frac_begin = ++i;
    while (digit_at(s, i)) ++i;
    fraction = s.substr(frac_begin, i - frac_begin);
  }
  const bool any_digit = !integer.empty() || !fraction.empty();
  std::int64_t exp = 0;
  if (any_digit && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    const bool exp_minus = j < s.size() && s[j] == '-';
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    if (digit_at(s, j)) {
      // Saturates at the limit before the multiplication could overflow.
      for (; digit_at(s, j); ++j)
        exp = exp > (kExponentLimit - 9) / 10 ? kExponentLimit : std::min(exp * 10 + (s[j] - '0'), kExponentLimit);
      if (exp_minus) exp = -exp;
      i = j;
    }
  }
  std::size_t rest = i;
  while (rest < s.size() && is_c_space(static_cast<unsigned char>(s[rest]))) ++rest;
  v.whole = any_digit && rest == s.size();
  if (!any_digit) {
    v.sign = special_value(s);
    v.whole = v.sign != ExactNumber::Zero;
    return v;
  }

  while (!integer.empty() && integer.front() == '0') integer.remove_prefix(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  if (!integer.empty()) {
    v.exponent = clamp_exponent(static_cast<std::int64_t>(std::min<std::size_t>(integer.size(), kExponentLimit)) + exp);
    if (fraction.empty())
      while (integer.back() == '0') integer.remove_suffix(1);  // 1000 is 0.1e4: digits "1"
    v.head = integer;
    v.tail = fraction;
  } else {
    std::size_t zeros = 0;
    while (zeros < fraction.size() && fraction[zeros] == '0') ++zeros;
    if (zeros == fraction.size()) return v;  // zero (never negative)
    v.exponent = clamp_exponent(exp - static_cast<std::int64_t>(std::min<std::size_t>(zeros, kExponentLimit)));
    v.head = fraction.substr(zeros);
  }
  v.sign = minus ? ExactNumber::Negative : ExactNumber::Positive;
  return v;
}

int compare_exact(const ExactNumber& a, const ExactNumber& b) noexcept {
  if (a.sign != b.sign) return a.sign < b.sign ? -1 : 1;
  if (a.sign != ExactNumber::Negative && a.sign != ExactNumber::Positive) return 0;  // no digits to compare
  int c = 0;
  if (a.exponent != b.exponent) {
    c = a.exponent < b.exponent ? -1 : 1;
  } else {
    const std::size_t na = a.head.size() + a.tail.size(), nb = b.head.size() + b.tail.size();
    for (std::size_t i = 0; i < na && i < nb && c == 0; ++i) {
      const char x = digit(a, i), y = digit(b, i);
      if (x != y) c = x < y ? -1 : 1;
    }
    if (c == 0) c = (na > nb) - (na < nb);  // no trailing zeros: more digits, larger
  }
  return a.sign == ExactNumber::Negative ? -c : c;
}

void encode_exact(const ExactNumber& v, unsigned char first, unsigned char* out, std::size_t n) noexcept {
  std::memset(out, 0, n);
  out[0] = static_cast<unsigned char>(first + v.sign);
  if (v.sign != ExactNumber::Negative && v.sign != ExactNumber::Positive) return;
  const std::uint64_t e = static_cast<std::uint64_t>(v.exponent) ^ (std::uint64_t{1} << 63);
  for (int k = 0; k < 8; ++k) out[1 + k] = static_cast<unsigned char>(e >> (56 - 8 * k));
  const std::size_t digits = v.head.size() + v.tail.size();
  const std::size_t nibbles = std::min(digits, 2 * (n - 9));
  for (std::size_t i = 0; i < nibbles; ++i) {
    const auto d = static_cast<unsigned char>(digit(v, i) - '0');
    out[9 + i / 2] |= static_cast<unsigned char>(i % 2 ? d : d << 4);
  }
  if (v.sign == ExactNumber::Negative)
    for (std::size_t k = 1; k < n; ++k) out[k] = static_cast<unsigned char>(~out[k]);
}

}  // namespace corank::text
