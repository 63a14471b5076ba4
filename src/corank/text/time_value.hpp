#pragma once
// Timestamps as instants: the time keys of lines (ordering letter T) and of
// CSV and JSON lines (:time) compare the instants their text names, in UTC,
// whatever offset or zone each value was written in. How text becomes an
// instant (formats, zones, years) is time_rules.hpp's; this file holds the
// instant, its order-preserving code, and dates.
//
// Unparsable values order before every instant, as GNU's -M orders unknown
// months before January.
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace corank::text {

struct Instant {
  std::int64_t seconds = 0;     // since 1970-01-01T00:00:00Z
  std::uint32_t nanoseconds = 0;  // 0 .. 999'999'999
  friend auto operator<=>(const Instant&, const Instant&) = default;
};

// Days from 1970-01-01 of a proleptic Gregorian date, or nullopt when the
// date does not exist (2026-02-30).
std::optional<std::int64_t> days_from_civil(int year, unsigned month, unsigned day) noexcept;

// A date key (:date): YYYY-MM-DD between optional blanks, as days since
// 1970-01-01; PostgreSQL's -infinity and infinity (any case) as the least and
// the greatest int64, before and after every date; nullopt when unparsable.
std::optional<std::int64_t> parse_date(std::string_view text) noexcept;

// -1, 0, 1: unparsable values first, then instants in order.
int compare_instants(const std::optional<Instant>& a, const std::optional<Instant>& b) noexcept;

// 13 order-preserving bytes: 0 for an unparsable value, else 1 followed by
// the seconds (sign bit flipped) and the nanoseconds, big-endian.
inline constexpr std::size_t kTimeCodeBytes = 13;
void encode_time(const std::optional<Instant>& t, unsigned char* out) noexcept;

}  // namespace corank::text
