#pragma once
// Timestamps as instants: the time keys of lines (ordering letter T) and of
// CSV and JSON lines (:time) compare the instants their text names, in UTC,
// whatever offset each value was written with.
//
// Accepted, after blanks and an optional '[' (the key's start):
//   ISO 8601 / RFC 3339  2026-10-10T13:55:36.123456+02:00, a 'Z' or no offset
//                        (UTC), ' ' instead of 'T', minutes without seconds,
//                        or the date alone (midnight UTC);
//   Common Log Format    10/Oct/2026:13:55:36 +0000;
//   syslog (RFC 3164)    Oct 10 13:55:36, in a year given by the caller;
//   epoch numbers        [-]digits[.digits], in seconds while |integer part|
//                        < 10^11, milliseconds below 10^14, microseconds
//                        below 10^17, else nanoseconds (10^11 seconds lie in
//                        the year 5138; 10^11 milliseconds in 1973).
// A numeric offset (+HH:MM, +HHMM, +HH) may follow one blank; fractions keep
// nine digits. The timestamp must end the key or be followed by a blank or
// ']'. Anything else is unparsable: time keys order it before every instant,
// as GNU's -M orders unknown months before January.
#include <compare>
#include <cstdint>
#include <optional>
#include <string_view>

namespace corank::text {

struct Instant {
  std::int64_t seconds = 0;     // since 1970-01-01T00:00:00Z
  std::uint32_t nanoseconds = 0;  // 0 .. 999'999'999
  friend auto operator<=>(const Instant&, const Instant&) = default;
};

// The instant `text` names, or nullopt. `syslog_year` is the year of syslog
// timestamps, which carry none. `end`, where given, receives the index just
// past the timestamp (for --debug's marks).
std::optional<Instant> parse_time(std::string_view text, int syslog_year, std::size_t* end = nullptr) noexcept;

// Days from 1970-01-01 of a proleptic Gregorian date, or nullopt when the
// date does not exist (2026-02-30).
std::optional<std::int64_t> days_from_civil(int year, unsigned month, unsigned day) noexcept;

// A date key (:date): YYYY-MM-DD between optional blanks, as days since
// 1970-01-01; nullopt when unparsable.
std::optional<std::int64_t> parse_date(std::string_view text) noexcept;

// The current year in UTC: the default syslog year.
int current_utc_year() noexcept;

// -1, 0, 1: unparsable values first, then instants in order.
int compare_time(std::string_view a, std::string_view b, int syslog_year) noexcept;

// 13 order-preserving bytes: 0 for an unparsable value, else 1 followed by
// the seconds (sign bit flipped) and the nanoseconds, big-endian.
inline constexpr std::size_t kTimeCodeBytes = 13;
void encode_time(const std::optional<Instant>& t, unsigned char* out) noexcept;

}  // namespace corank::text
