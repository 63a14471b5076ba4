#pragma once
// Local times in an IANA time zone as instants, through the tz database on
// this system (Google's cctz reads /usr/share/zoneinfo, or $TZDIR; see
// time_zone.cpp for why cctz).
//
// A local time that a change of offset skips (02:30 on a spring-forward day
// in Europe/Berlin) or repeats (02:30 on a fall-back day) resolves with the
// offset in force before the change: cctz's civil_lookup::pre, what Python's
// zoneinfo does with fold=0 (PEP 495). So a skipped 02:30 CET is 01:30 UTC
// (the 03:30 CEST that a clock not yet moved would show), and a repeated
// 02:30 is its first occurrence, 00:30 UTC.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace corank::text {

class TimeZone {
public:
  // UTC.
  TimeZone();
  // Throws UsageError when the tz database has no zone of that name.
  static TimeZone load(std::string_view name);
  // Whether two names are one zone of the tz database: the same name, or
  // names whose zoneinfo files hold the same rules (a link's, UTC and
  // Etc/UTC, US/Eastern and America/New_York).
  static bool same(std::string_view a, std::string_view b);

  bool is_utc() const noexcept { return !impl_; }
  const std::string& name() const noexcept { return name_; }
  // Seconds since the epoch of the local time `days` since 1970-01-01 (in
  // this zone's calendar) plus `day_seconds`.
  std::int64_t to_utc(std::int64_t days, std::int64_t day_seconds) const noexcept;
  // to_utc for a local time written with a zone abbreviation (`abbr`, as
  // LocalTime::zone_abbr packs it): the instant of the two that a skipped or
  // repeated local time has (or of the one it has) whose abbreviation in this
  // zone is `abbr`, so that "02:30 CEST" and "02:30 CET" on the night summer
  // time ends are an hour apart; UTC and GMT are offset 0 in any zone. A
  // local time with one instant written with another abbreviation of this
  // zone takes that abbreviation's offset, from the period nearest in time
  // that uses it (12:00 CET in July is 11:00 UTC, as GNU date reads it: a
  // clock kept at +01:00 all year). An abbreviation this zone does not use
  // near then is read as to_utc reads the time without one.
  std::int64_t to_utc_named(std::int64_t days, std::int64_t day_seconds, std::uint64_t abbr) const noexcept;
  // Whether `abbr` is UTC, GMT or an abbreviation this zone has used or will
  // use (its changes from 1800 to 2200).
  bool names(std::uint64_t abbr) const noexcept;
  // Whether `abbr` is UTC, GMT or one that some zone of the tz database
  // (those its zone1970.tab lists) has used between 1970 and 2038: a zone's
  // name, not a log level that looks like one (CET, EST, but not ERROR or
  // INFO). Read once, on first use.
  static bool any_zone_names(std::uint64_t abbr);
  // The local year and month (1-12) at `seconds` since the epoch.
  void year_month_at(std::int64_t seconds, int& year, unsigned& month) const noexcept;

private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;  // null: UTC, no lookups
  std::string name_ = "UTC";
};

}  // namespace corank::text
