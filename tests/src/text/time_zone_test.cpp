// TimeZone::to_utc, which keeps the span of one offset around the last local
// time it looked up, against cctz's own lookup of every local time (its `pre`
// instant, the rule time_zone.hpp states): minute by minute around every
// change of offset from 1960 to 2100 in zones with summer time, a skipped day,
// summer time in winter and half-hour changes, in order, in random order and
// with two zones alternating, and at random times up to the year 3000.
#include "corank/text/time_zone.hpp"
#include "corank/text/time_pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <cctz/civil_time.h>
#include <cctz/time_zone.h>

namespace corank::text {
namespace {

const cctz::civil_second kEpoch(1970, 1, 1, 0, 0, 0);
const char* const kZones[] = {"Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia",
                              "Europe/Dublin", "America/Sao_Paulo", "Asia/Kolkata"};

std::int64_t expected(const cctz::time_zone& zone, std::int64_t local) {
  return zone.lookup(kEpoch + local).pre.time_since_epoch().count();
}

// Local times (seconds from 1970-01-01T00:00 local) each minute within three
// hours of both sides of every change from 1960 to 2100.
std::vector<std::int64_t> around_changes(const cctz::time_zone& zone) {
  std::vector<std::int64_t> locals;
  auto t = cctz::convert(cctz::civil_second(1960, 1, 1, 0, 0, 0), cctz::utc_time_zone());
  const auto end = cctz::convert(cctz::civil_second(2100, 1, 1, 0, 0, 0), cctz::utc_time_zone());
  cctz::time_zone::civil_transition tr;
  while (t < end && zone.next_transition(t, &tr)) {
    for (const cctz::civil_second side : {tr.from, tr.to})
      for (std::int64_t m = -180; m <= 180; ++m) locals.push_back((side - kEpoch) + m * 60);
    t = zone.lookup(tr.to).trans;
  }
  return locals;
}

TEST(TimeZone, EveryLocalTimeAroundEveryChangeAsCctzLooksItUp) {
  std::mt19937_64 rng(11);
  for (const char* name : kZones) {
    cctz::time_zone zone;
    ASSERT_TRUE(cctz::load_time_zone(name, &zone)) << name;
    const TimeZone tz = TimeZone::load(name);
    std::vector<std::int64_t> locals = around_changes(zone);
    if (std::string(name) != "Asia/Kolkata") EXPECT_GT(locals.size(), 1000u) << name;
    for (int pass = 0; pass < 2; ++pass) {  // in order, then shuffled
      for (const std::int64_t local : locals) {
        const std::int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
        ASSERT_EQ(tz.to_utc(days, local - days * 86400), expected(zone, local))
            << name << " " << cctz::civil_second(kEpoch + local) << " pass " << pass;
      }
      std::shuffle(locals.begin(), locals.end(), rng);
    }
  }
}

TEST(TimeZone, TwoZonesAlternatingAndFarFutureTimes) {
  cctz::time_zone berlin, lord_howe;
  ASSERT_TRUE(cctz::load_time_zone("Europe/Berlin", &berlin));
  ASSERT_TRUE(cctz::load_time_zone("Australia/Lord_Howe", &lord_howe));
  const TimeZone a = TimeZone::load("Europe/Berlin"), b = TimeZone::load("Australia/Lord_Howe");
  std::mt19937_64 rng(12);
  const std::int64_t from = cctz::civil_second(1900, 1, 1, 0, 0, 0) - kEpoch;
  const std::int64_t to = cctz::civil_second(3000, 1, 1, 0, 0, 0) - kEpoch;
  std::int64_t local = cctz::civil_second(2026, 3, 29, 0, 0, 0) - kEpoch;
  for (int i = 0; i < 200000; ++i) {
    // Mostly small steps forward, as a log's lines take; now and then a jump.
    local = i % 97 == 0 ? from + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(to - from))
                        : local + static_cast<std::int64_t>(rng() % 600);
    const std::int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
    ASSERT_EQ(a.to_utc(days, local - days * 86400), expected(berlin, local)) << cctz::civil_second(kEpoch + local);
    ASSERT_EQ(b.to_utc(days, local - days * 86400), expected(lord_howe, local)) << cctz::civil_second(kEpoch + local);
  }
}

TEST(TimeZone, ZonesLoadedAgainDoNotShareASpan) {
  // Each load is a zone of its own to the cache, even where one freed before
  // it had the same address.
  for (int i = 0; i < 50; ++i) {
    const char* name = i % 2 ? "America/New_York" : "Asia/Kolkata";
    cctz::time_zone zone;
    ASSERT_TRUE(cctz::load_time_zone(name, &zone));
    const std::int64_t local = cctz::civil_second(2026, 7, 1, 12, 0, 0) - kEpoch;
    EXPECT_EQ(TimeZone::load(name).to_utc(local / 86400, local % 86400), expected(zone, local)) << name;
  }
}

std::uint64_t abbr(std::string_view letters) { return pack_zone_abbr(letters); }

// A local time written with an abbreviation: the skipped and the repeated
// hours of Europe/Berlin's changes in 2026 read by it (independently: UTC
// instants and the offsets +1 and +2 that CET and CEST stand for), the
// others by the offset each abbreviation stands for; UTC and GMT anywhere;
// an abbreviation the zone does not use (EST, a level such as ERROR)
// changes nothing.
TEST(TimeZone, LocalTimesNamedByTheirAbbreviation) {
  const TimeZone berlin = TimeZone::load("Europe/Berlin");
  const auto days = [](int y, unsigned m, unsigned d) { return (cctz::civil_day(y, m, d) - cctz::civil_day(1970, 1, 1)); };
  const std::int64_t oct25 = days(2026, 10, 25), mar29 = days(2026, 3, 29), nov25 = days(2026, 11, 25);
  const std::int64_t t0230 = 2 * 3600 + 30 * 60;
  // Repeated: 02:30 CEST is 00:30 UTC, 02:30 CET 01:30 UTC.
  EXPECT_EQ(berlin.to_utc_named(oct25, t0230, abbr("CEST")), oct25 * 86400 + t0230 - 7200);
  EXPECT_EQ(berlin.to_utc_named(oct25, t0230, abbr("CET")), oct25 * 86400 + t0230 - 3600);
  // Skipped: 02:30 CET would be 01:30 UTC, 02:30 CEST 00:30 UTC.
  EXPECT_EQ(berlin.to_utc_named(mar29, t0230, abbr("CET")), mar29 * 86400 + t0230 - 3600);
  EXPECT_EQ(berlin.to_utc_named(mar29, t0230, abbr("CEST")), mar29 * 86400 + t0230 - 7200);
  for (const char* other : {"EST", "ERROR", "INFO"}) {
    SCOPED_TRACE(other);
    EXPECT_EQ(berlin.to_utc_named(oct25, t0230, abbr(other)), berlin.to_utc(oct25, t0230));
    EXPECT_EQ(berlin.to_utc_named(nov25, 3600, abbr(other)), nov25 * 86400 + 3600 - 3600);
  }
  // One instant, written with the zone's other abbreviation: its offset, as
  // GNU date reads it. 01:00 CEST on November 25 is 23:00 UTC the day before;
  // 12:00 CET on July 1 11:00 UTC, 12:00 CEST 10:00 UTC.
  EXPECT_EQ(berlin.to_utc_named(nov25, 3600, abbr("CEST")), nov25 * 86400 + 3600 - 7200);
  const std::int64_t jul1 = days(2026, 7, 1), noon = 12 * 3600;
  EXPECT_EQ(berlin.to_utc_named(jul1, noon, abbr("CET")), jul1 * 86400 + noon - 3600);
  EXPECT_EQ(berlin.to_utc_named(jul1, noon, abbr("CEST")), jul1 * 86400 + noon - 7200);
  EXPECT_EQ(berlin.to_utc_named(jul1, noon + 1, abbr("CET")), jul1 * 86400 + noon + 1 - 3600);  // from the cache
  EXPECT_EQ(berlin.to_utc_named(nov25, 3600, abbr("CET")), nov25 * 86400);
  const TimeZone new_york = TimeZone::load("America/New_York");
  EXPECT_EQ(new_york.to_utc_named(jul1, noon, abbr("EST")), jul1 * 86400 + noon + 5 * 3600);
  EXPECT_EQ(new_york.to_utc_named(nov25, noon, abbr("EDT")), nov25 * 86400 + noon + 4 * 3600);
  EXPECT_EQ(new_york.to_utc_named(nov25, noon, abbr("CET")), nov25 * 86400 + noon + 5 * 3600);  // not New York's
  for (const char* utc : {"UTC", "GMT"}) {
    EXPECT_EQ(berlin.to_utc_named(oct25, t0230, abbr(utc)), oct25 * 86400 + t0230);
    EXPECT_EQ(TimeZone().to_utc_named(oct25, t0230, abbr(utc)), oct25 * 86400 + t0230);
  }
  EXPECT_EQ(TimeZone().to_utc_named(oct25, t0230, abbr("CET")), oct25 * 86400 + t0230);  // UTC names no CET
}

// Some zone of the tz database uses these abbreviations, none uses the
// words logs put in the same place.
TEST(TimeZone, AnyZoneNamesZonesNotLogLevels) {
  for (const char* zone : {"CET", "CEST", "EST", "EDT", "PST", "JST", "IST", "AEDT", "MSK", "GMT", "UTC"}) {
    SCOPED_TRACE(zone);
    EXPECT_TRUE(TimeZone::any_zone_names(abbr(zone)));
  }
  for (const char* word : {"ERROR", "INFO", "WARN", "DEBUG", "GET", "POST", "LOG", "OK"}) {
    SCOPED_TRACE(word);
    EXPECT_FALSE(TimeZone::any_zone_names(abbr(word)));
  }
}

}  // namespace
}  // namespace corank::text
