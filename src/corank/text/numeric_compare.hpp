#pragma once
// The value comparisons of GNU sort in the C locale: -n (decimal numbers of
// any length, compared exactly), -h (the same after an SI unit order), -g
// (strtold, conversion errors first, then NaNs, then numbers) and -M (month
// names). Keys are byte ranges; like GNU's, parsing also stops at a NUL byte.
#include <cstddef>
#include <string_view>

namespace corank::text {

// A decimal number as -n reads it: optional blanks, optional '-', digits,
// optionally '.' and digits. Leading integer zeros and trailing fraction zeros
// are dropped, and zero is never negative, so equal values have equal views.
struct DecimalNumber {
  bool negative = false;
  std::string_view integer;   // no leading zeros
  std::string_view fraction;  // no trailing zeros
  bool is_zero() const noexcept { return integer.empty() && fraction.empty(); }
};

DecimalNumber parse_decimal(std::string_view key) noexcept;
int compare_decimal(const DecimalNumber& a, const DecimalNumber& b) noexcept;
// Writes d's order-preserving code into out[0..n) (a prefix's bytes): sign
// class, integer digit count, then digits as nibbles; negative magnitudes inverted.
void encode_decimal(const DecimalNumber& d, unsigned char* out, std::size_t n);

// -h's order of a unit suffix: K (or k) 1, M 2, ... Y 8, R 9, Q 10; 0 for any other byte.
int unit_order(unsigned char c) noexcept;

// -h's unit order of a number (key after its blanks): K=1 ... Y=8, negated for
// negative numbers, 0 without a unit or for a number whose digits are all zero.
int human_unit_order(std::string_view key) noexcept;

int compare_numeric(std::string_view a, std::string_view b) noexcept;
int compare_human(std::string_view a, std::string_view b) noexcept;
int compare_general(std::string_view a, std::string_view b);
// 1..12 for a key that starts (after blanks) with JAN..DEC in any case; else 0.
int month_of(std::string_view key) noexcept;

// What -g makes of a key: a conversion error, a NaN, or a number.
struct GeneralNumber {
  enum Kind { Error, NaN, Number } kind;
  long double value;
  std::size_t length = 0;  // the bytes strtold read (0 for an error)
};
GeneralNumber parse_general(std::string_view key);
// Writes 8 bytes that order -g's values as compare_general does, where it can tell them apart.
void encode_general(const GeneralNumber& g, unsigned char* out) noexcept;
int compare_general(const GeneralNumber& a, const GeneralNumber& b);

std::string_view skip_blanks(std::string_view s) noexcept;

}  // namespace corank::text
