#pragma once
// Double-precision values as PostgreSQL's float8 (and DuckDB's DOUBLE) reads
// and orders them: CSV's and JSON lines' :float. A value is rounded to the
// nearest double, so 0.1 and 0.1000000000000000000001 are equal (unlike under
// :decimal); -0 equals 0; the order is -Infinity < numbers < Infinity < NaN,
// and NaN equals NaN. Values float8in refuses (text, 1e400, 1e-400) are
// unparsable, ordered before every number as :decimal orders them.
#include <cstddef>
#include <optional>
#include <string_view>

namespace corank::text {

// What float8in (with glibc's strtod) accepts, between blanks: [+|-] then
// digits with a decimal point and exponent, a hexadecimal float (0x1p-3), inf,
// infinity or nan (nan(chars) too), in any case. nullopt when unparsable or
// out of a double's range (overflow, or underflow to zero).
std::optional<double> parse_float8(std::string_view text) noexcept;
// The same with `point` for the decimal point (',' where --decimal-separator
// says so): a '.' in the text then makes it unparsable. Throws std::bad_alloc
// (a value longer than 64 bytes is copied to be read).
std::optional<double> parse_float8(std::string_view text, char point);

// -1, 0, 1: unparsable first, then in float8's order.
int compare_float8(const std::optional<double>& a, const std::optional<double>& b) noexcept;

// 9 order-preserving bytes: 0 for an unparsable value, else 1 followed by
// the double's order-preserving bits, big-endian.
inline constexpr std::size_t kFloatCodeBytes = 9;
void encode_float8(const std::optional<double>& v, unsigned char* out) noexcept;

}  // namespace corank::text
