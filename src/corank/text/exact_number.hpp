#pragma once
// Decimal numbers with an exponent, compared exactly (no rounding to a
// double): CSV's and JSON lines' :n and :decimal. A number is read as a sign,
// its significant digits and the position of its decimal point, so 1e3,
// 1000 and 1000.0 are equal and 123456789012345678901 < 123456789012345678902.
// PostgreSQL's numeric also holds NaN and +-Infinity, and orders them
// -Infinity < numbers < Infinity < NaN, with NaN equal to NaN; so does this.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace corank::text {

struct ExactNumber {
  // The classes of values in their order; only Negative and Positive have digits.
  enum Sign : std::uint8_t { NegativeInfinity, Negative, Zero, Positive, PositiveInfinity, NaN };
  Sign sign = Zero;
  // The significant digits are head followed by tail (no leading or trailing
  // zeros), and the value is 0.<digits> * 10^exponent.
  std::string_view head, tail;
  std::int64_t exponent = 0;
  // The whole text was one number between optional blanks (:decimal's rule).
  bool whole = false;
};

// Reads [blanks][+|-]digits[.digits][(e|E)[+|-]digits] from the start of
// `text`, `point` for the '.' (',' where --decimal-separator says so); text
// with no digits there reads as zero (as GNU's -n reads it).
// A whole value (between blanks) that PostgreSQL's numeric reads as NaN or
// infinity is one: NaN, [+|-]Infinity, [+|-]inf, in any case. Only a whole
// value: "information" is text, which reads as zero.
ExactNumber parse_exact_number(std::string_view text, char point = '.') noexcept;

// -1, 0, 1 by value.
int compare_exact(const ExactNumber& a, const ExactNumber& b) noexcept;

// Writes an order-preserving code of n bytes (n >= 10) for a number to out:
// the class, the exponent, then the digits as far as they fit. `first` is the
// first byte's code for -Infinity (the other classes follow it, up to
// first + 5 for NaN), so that a caller can order other things before every
// number.
void encode_exact(const ExactNumber& v, unsigned char first, unsigned char* out, std::size_t n) noexcept;

}  // namespace corank::text
