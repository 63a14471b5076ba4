#pragma once
// GNU sort's -n, -h and -g under a locale: numbers with the locale's decimal
// point and thousands separator (gnulib's strnumcmp, GNU's
// traverse_raw_number), and strtold in the locale. The C locale's versions
// are numeric_compare.hpp's.
#include <locale.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "corank/text/line_locale.hpp"
#include "corank/text/numeric_compare.hpp"

namespace corank::text {

// -n's number (after the key's blanks): an optional '-', then digits among
// which, and after each of which, thousands separators are skipped (leading
// zeros and separators dropped), then the decimal point and digits. The
// integer's digits are gathered into `digits`, which backs the result.
DecimalNumber parse_locale_decimal(std::string_view key, const LocaleNumbers& numbers, std::string& digits);
int compare_locale_numeric(std::string_view a, std::string_view b, const LocaleNumbers& numbers);

// -h's unit order of a number (the key after its blanks), with GNU's reading
// of separators (one after each digit; a number that ends in one has no unit).
int locale_unit_order(std::string_view number, const LocaleNumbers& numbers) noexcept;
int compare_locale_human(std::string_view a, std::string_view b, const LocaleNumbers& numbers);
// --debug's mark of -n (or with `unit`, -h): where the number read from
// `number` (the key after its blanks) ends, its unit included; 0 without digits.
std::size_t locale_number_mark_end(std::string_view number, const LocaleNumbers& numbers, bool unit) noexcept;

// -g: strtold_l in `loc`, which reads its decimal point.
GeneralNumber parse_general_in(std::string_view key, locale_t loc);
int compare_general_in(std::string_view a, std::string_view b, locale_t loc);

}  // namespace corank::text
