// Expected instants were computed with Python's datetime and zoneinfo, not
// with corank: e.g. int(datetime(2026, 3, 29, 2, 30,
// tzinfo=ZoneInfo("Europe/Berlin")).timestamp()) for a skipped local time.
#include "corank/text/time_rules.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "corank/format.hpp"

namespace corank::text {
namespace {

constexpr std::int64_t k20261010T135536Z = 1791640536;
constexpr std::int64_t k20261125T111501Z = 1795605301;

Instant at(std::int64_t s, std::uint32_t ns = 0) { return Instant{s, ns}; }

TimeRules rules_in(int year, unsigned month = 12, std::string zone = "", std::string format = "") {
  TimeSettings s;
  s.zone = std::move(zone);
  s.format = std::move(format);
  s.year = year;
  s.year_month = month;
  return TimeRules(s);
}

// A key's value, read from its start.
std::optional<Instant> t(std::string_view s, const TimeRules& r = rules_in(2026)) {
  return key_instant(r, TimeExtent::start, s, {});
}
// The first timestamp anywhere in a line.
std::optional<Instant> found(std::string_view s, const TimeRules& r = rules_in(2026)) {
  return key_instant(r, TimeExtent::anywhere, s, {});
}

TEST(TimeRules, Iso8601AndRfc3339) {
  EXPECT_EQ(t("2026-10-10T13:55:36Z"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10t13:55:36z"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10 13:55:36"), at(k20261010T135536Z));  // no offset: the zone, UTC by default
  EXPECT_EQ(t("2026-10-10T15:55:36+02:00"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10T15:55:36+0200"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10T15:55:36+02"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10 15:55:36 +0200"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10T08:25:36-05:30"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10T13:55:36.123456+00:00"), at(k20261010T135536Z, 123'456'000));
  EXPECT_EQ(t("2026-10-10T13:55:36,5Z"), at(k20261010T135536Z, 500'000'000));
  EXPECT_EQ(t("2026-10-10 13:55:36,123 INFO [main]"), at(k20261010T135536Z, 123'000'000));  // log4j
  EXPECT_EQ(t("2026-10-10T13:55:36.1234567891Z"), at(k20261010T135536Z, 123'456'789));  // nine digits kept
  EXPECT_EQ(t("2026-10-10T13:55Z"), at(k20261010T135536Z - 36));
  EXPECT_EQ(t("2026-10-10"), at(k20261010T135536Z - (13 * 3600 + 55 * 60 + 36)));
  EXPECT_EQ(t("2024-02-29"), at(1709164800));
  EXPECT_EQ(t("0001-01-01"), at(-62135596800));
  EXPECT_EQ(t("1969-12-31T23:59:59Z"), at(-1));
}

TEST(TimeRules, LogFormats) {
  EXPECT_EQ(t("[10/Oct/2026:13:55:36 +0000]"), at(k20261010T135536Z));
  EXPECT_EQ(t("10/oct/2026:15:55:36 +0200"), at(k20261010T135536Z));
  EXPECT_EQ(t("[10/Oct/2026:13:55:36"), at(k20261010T135536Z));  // -k4,4 with nothing after: the zone
  EXPECT_EQ(t("  [10/Oct/2026:13:55:36 -0100]"), at(k20261010T135536Z + 3600));
  EXPECT_EQ(t("Oct 10 13:55:36"), at(k20261010T135536Z));
  EXPECT_EQ(t("Oct  1 13:55:36 host sshd[1]: x"), at(k20261010T135536Z - 9 * 86400));
  EXPECT_EQ(t("2026/11/25 11:15:01 [error] 7#7: *1 open()"), at(k20261125T111501Z));  // Go, nginx error
  EXPECT_EQ(t("[Wed Nov 25 11:15:01.123456 2026] [core:error]"), at(k20261125T111501Z, 123'456'000));  // Apache
  EXPECT_EQ(t("[Wed Nov 25 11:15:01 2026]"), at(k20261125T111501Z));
  EXPECT_EQ(t("Wed, 25 Nov 2026 12:15:01 +0100"), at(k20261125T111501Z));  // RFC 2822
  EXPECT_EQ(t("25 Nov 2026 11:15:01 GMT"), at(k20261125T111501Z));
  EXPECT_EQ(t("2026-11-25T11:15:01.003Z"), at(k20261125T111501Z, 3'000'000));  // RFC 5424's field 2
}

TEST(TimeRules, EpochNumbersByMagnitude) {
  EXPECT_EQ(t("1791640536"), at(k20261010T135536Z));
  EXPECT_EQ(t("1791640536.25"), at(k20261010T135536Z, 250'000'000));
  EXPECT_EQ(t("1791640536250"), at(k20261010T135536Z, 250'000'000));        // milliseconds
  EXPECT_EQ(t("1791640536250.5"), at(k20261010T135536Z, 250'500'000));
  EXPECT_EQ(t("1791640536250001"), at(k20261010T135536Z, 250'001'000));     // microseconds
  EXPECT_EQ(t("1791640536250001002"), at(k20261010T135536Z, 250'001'002));  // nanoseconds
  EXPECT_EQ(t("99999999999"), at(99999999999));                            // the largest in seconds
  EXPECT_EQ(t("100000000000"), at(100000000));                             // the smallest in milliseconds
  EXPECT_EQ(t("-1.5"), at(-2, 500'000'000));
  EXPECT_EQ(t("0"), at(0));
  EXPECT_EQ(t("99999999999999999999"), std::nullopt);  // past 64 bits
  // Found in running text, a number needs nine digits or more to be a time.
  EXPECT_EQ(found("took 12345678 us"), std::nullopt);
  EXPECT_EQ(found("at 1791640536250 ms"), at(k20261010T135536Z, 250'000'000));
}

TEST(TimeRules, UnparsableValues) {
  for (const char* bad : {"", "  ", "[", "hello", "2026-13-01", "2026-02-30", "2026-10-10T24:00:00",
                          "2026-10-10T13:60", "2026-10-10T13:55:36+24:00", "2026-10-10T13:55:36x",
                          "10/Foo/2026:13:55:36 +0000", "Oct 10", "1e3", "12abc", "2026/10/10", "-",
                          "2026-10-10T13:55:36+0", "Feb 30 10:00:00", "Wed Nov 25 11:15:01"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(t(bad), std::nullopt);
  }
  // A timestamp may be followed by a blank or ']', and then anything.
  EXPECT_EQ(t("2026-10-10T13:55:36Z GET /index.html"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10 13:55:36 -5 x"), at(k20261010T135536Z));  // "-5" is no offset
}

// rsyslog's and lnav's rule: a month after the reference's is in the year before.
// PostgreSQL's -infinity and infinity: before and after every instant (the
// earliest and latest years, the extreme epoch numbers included), their codes
// too; unparsable values still first.
TEST(TimeRules, InfinityAndMinusInfinityAsPostgreSqlOrdersThem) {
  const char* ascending[] = {"-infinity", "0001-01-01T00:00:00Z", "-9999999999", "2026-10-10T13:55:36Z",
                             "18446744073709551615", "9999-12-31T23:59:59.999999999-23:59", "infinity"};
  for (std::size_t i = 0; i + 1 < std::size(ascending); ++i) {
    SCOPED_TRACE(ascending[i]);
    ASSERT_TRUE(t(ascending[i]) && t(ascending[i + 1]));
    EXPECT_EQ(compare_instants(t(ascending[i]), t(ascending[i + 1])), -1);
    unsigned char a[kTimeCodeBytes], b[kTimeCodeBytes];
    encode_time(t(ascending[i]), a);
    encode_time(t(ascending[i + 1]), b);
    EXPECT_LT(std::memcmp(a, b, kTimeCodeBytes), 0);
  }
  EXPECT_EQ(compare_instants(t("junk"), t("-infinity")), -1);
  EXPECT_EQ(t("Infinity"), t(" INFINITY "));
  EXPECT_EQ(t("[-Infinity]"), t("-infinity"));
  for (const char* bad : {"+infinity", "inf", "-inf", "infinityx", "infinit", "-"}) EXPECT_EQ(t(bad), std::nullopt) << bad;
}

TEST(TimeRules, YearsOfYearlessTimestamps) {
  const TimeRules march2028 = rules_in(2028, 3);
  EXPECT_EQ(t("Dec 31 23:59:59", march2028), at(1830297599));  // 2027
  EXPECT_EQ(t("Jan  1 00:00:01", march2028), at(1830297601));  // 2028
  EXPECT_EQ(t("Feb 29 12:00:00", march2028), at(1835438400));  // 2028 is a leap year
  EXPECT_EQ(t("Mar 31 12:00:00", march2028), at(1838116800));  // the reference's month: 2028
  EXPECT_EQ(t("Apr  1 12:00:00", march2028), at(1806580800));  // after it: 2027
  EXPECT_EQ(t("Feb 29 12:00:00", rules_in(2027, 3)), std::nullopt);  // 2027 is not
  EXPECT_EQ(t("Dec 31 23:59:59", rules_in(2027)), at(1830297599));   // a year alone: every month in it
  // A year in the text wins over the reference.
  EXPECT_EQ(t("[Wed Nov 25 11:15:01 2026]", march2028), at(k20261125T111501Z));
}

TEST(TimeRules, YearReferenceArgument) {
  EXPECT_EQ(parse_year_reference("2026").year, 2026);
  EXPECT_EQ(parse_year_reference("2026").month, 12u);
  EXPECT_EQ(parse_year_reference("2027-01").month, 1u);
  EXPECT_EQ(parse_year_reference("2027-01-15").year, 2027);
  for (const char* bad : {"", "0", "10000", "x", "2026-13", "2026-1", "2026-02-30", "2026-01-01x", "-5"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_year_reference(bad), UsageError);
  }
}

// Timestamps without an offset are local times in --time-zone; those with
// one keep it. Gaps and repeated hours take the offset before the change.
TEST(TimeRules, ZonesGapsAndFolds) {
  const TimeRules berlin = rules_in(2026, 12, "Europe/Berlin");
  EXPECT_EQ(t("2026-11-25 11:15:01", berlin), at(1795601701));
  EXPECT_EQ(t("2026-07-01T12:00:00", berlin), at(1782900000));
  EXPECT_EQ(t("2026-07-01T12:00:00Z", berlin), at(1782907200));  // an offset: the zone does not apply
  EXPECT_EQ(t("1791640536", berlin), at(k20261010T135536Z));     // nor to epoch numbers
  EXPECT_EQ(t("2026-03-29 01:59:59", berlin), at(1774745999));
  EXPECT_EQ(t("2026-03-29 02:30:00", berlin), at(1774747800));  // skipped: 01:30 UTC (fold=0)
  EXPECT_EQ(t("2026-03-29 03:00:00", berlin), at(1774746000));
  EXPECT_EQ(t("2026-10-25 02:30:00", berlin), at(1792888200));  // repeated: the first, 00:30 UTC
  const TimeRules ny = rules_in(2026, 12, "America/New_York");
  EXPECT_EQ(t("Mar  8 02:30:00", ny), at(1772955000));
  EXPECT_EQ(t("Nov  1 01:30:00", ny), at(1793511000));
  EXPECT_THROW(rules_in(2026, 12, "Mars/Olympus_Mons"), UsageError);
  EXPECT_THROW(rules_in(2026, 12, "../../etc/passwd"), UsageError);
}

// Offsets with seconds, as PostgreSQL and Python's isoformat write a zone's
// local mean time (Africa/Monrovia's -00:44:30 until 1972): the times Python's
// datetime gives.
TEST(TimeRules, OffsetsWithSeconds) {
  constexpr std::int64_t k19650301T100000Z = -152632800;
  EXPECT_EQ(t("1965-03-01 09:15:30-00:44:30"), at(k19650301T100000Z));
  EXPECT_EQ(t("1965-03-01T09:15:30-00:44:30"), at(k19650301T100000Z));
  EXPECT_EQ(t("2026-01-01T00:00:00+01:19:32"), at(1767220828));
  EXPECT_EQ(t("2026-10-10T15:55:36+02:00 x"), at(k20261010T135536Z));
  // Seconds of 60 and more are the text's: the offset is +01:00.
  EXPECT_EQ(found("2024-01-01T10:00:00+01:00:60 x"), at(1704099600));
}

// --time-format's %z after a blank: required, it reads whatever offset is
// there ("+02", as PostgreSQL writes zones of numeric abbreviations);
// optional, only one with its minutes (a signed number after a time may be
// the text's).
TEST(TimeRules, ARequiredOffsetAfterABlankTakesHoursAlone) {
  const TimeRules required = rules_in(2026, 12, "", "%Y-%m-%d %H:%M:%S %z");
  EXPECT_EQ(t("2026-10-10 15:55:36 +02 x", required), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10 11:55:36 -02", required), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10 15:55:36 +0200 x", required), at(k20261010T135536Z));
  const TimeRules optional = rules_in(2026, 12, "", "%Y-%m-%d %H:%M:%S%{ %z%}");
  EXPECT_EQ(t("2026-10-10 13:55:36 +02 x", optional), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10 15:55:36 +02:00 x", optional), at(k20261010T135536Z));
}

// A column's or member's value (:time) is the timestamp alone: text after it
// (PostgreSQL's " BC", an offset not read) leaves it unread, not cut short.
TEST(TimeRules, AWholeValueIsTheTimestampAlone) {
  const TimeRules r = rules_in(2026);
  EXPECT_EQ(key_instant(r, TimeExtent::whole, "2026-10-10T13:55:36Z", {}), at(k20261010T135536Z));
  EXPECT_EQ(key_instant(r, TimeExtent::whole, " 2026-10-10 15:55:36+02 \t", {}), at(k20261010T135536Z));
  EXPECT_EQ(key_instant(r, TimeExtent::whole, "[10/Oct/2026:13:55:36 +0000] ", {}), at(k20261010T135536Z));
  EXPECT_EQ(key_instant(r, TimeExtent::whole, "10/Oct/2026:13:55:36 +0000]", {}), std::nullopt);
  EXPECT_EQ(key_instant(r, TimeExtent::whole, "infinity", {}), key_instant(r, TimeExtent::start, "infinity", {}));
  EXPECT_EQ(key_instant(r, TimeExtent::whole, " -infinity ", {}), key_instant(r, TimeExtent::start, "-infinity", {}));
  EXPECT_EQ(key_instant(r, TimeExtent::whole, "infinity later", {}), std::nullopt);
  EXPECT_NE(key_instant(r, TimeExtent::start, "infinity later", {}), std::nullopt);
  EXPECT_EQ(key_instant(r, TimeExtent::whole, "0044-03-15 12:00:00+00 BC", {}), std::nullopt);
  EXPECT_EQ(key_instant(r, TimeExtent::whole, "2026-10-10 13:55:36 INFO", {}), std::nullopt);
  EXPECT_EQ(key_instant(r, TimeExtent::whole, "2026-10-10 13:55:36+02:00:7", {}), std::nullopt);
  EXPECT_EQ(key_instant(r, TimeExtent::start, "2026-10-10 13:55:36 INFO", {}), at(k20261010T135536Z));
}

// -k4,4T on Common Log Format: the key ends before " +0100]", in field 5.
TEST(TimeRules, OffsetAfterTheKey) {
  const TimeRules r = rules_in(2026);
  EXPECT_EQ(key_instant(r, TimeExtent::start, "[25/Nov/2026:12:15:01", " +0100] \"GET /\""), at(k20261125T111501Z));
  EXPECT_EQ(key_instant(r, TimeExtent::start, " [25/Nov/2026:06:15:01", " -0500]"), at(k20261125T111501Z));
  EXPECT_EQ(key_instant(r, TimeExtent::start, "[25/Nov/2026:11:15:01", " \"GET /\""), at(k20261125T111501Z));  // none there
  // Only a format whose offset the key cut off reaches past the key.
  EXPECT_EQ(key_instant(r, TimeExtent::start, "Nov 25 11:15:01", " +0100 host"), at(k20261125T111501Z));
  std::size_t begin = 0, end = 0;
  EXPECT_TRUE(key_instant(r, TimeExtent::start, "[25/Nov/2026:12:15:01", " +0100]", &begin, &end));
  EXPECT_EQ(begin, 1u);
  EXPECT_EQ(end, 27u);  // the offset's end, past the key's 21 bytes
  // PostgreSQL's prefix by -k1,2T: the zone abbreviation in field 3.
  const TimeRules berlin = rules_in(2026, 12, "Europe/Berlin");
  constexpr std::int64_t k20261025T003000Z = 1792888200;
  EXPECT_EQ(key_instant(berlin, TimeExtent::start, "2026-10-25 02:30:00.5", " CEST [7] LOG"), at(k20261025T003000Z, 500'000'000));
  EXPECT_EQ(key_instant(berlin, TimeExtent::start, "2026-10-25 02:30:00.5", " CET [7] LOG", &begin, &end),
            at(k20261025T003000Z + 3600, 500'000'000));
  EXPECT_EQ(end, 25u);
  EXPECT_EQ(key_instant(berlin, TimeExtent::start, "2026-10-25 02:30:00.5", " ERROR x", &begin, &end),
            at(k20261025T003000Z, 500'000'000));
  EXPECT_EQ(end, 21u);
}

TEST(TimeRules, FoundAnywhereInALine) {
  EXPECT_EQ(found("127.0.0.1 - - [25/Nov/2026:12:15:01 +0100] \"GET / HTTP/1.1\" 200"), at(k20261125T111501Z));
  EXPECT_EQ(found("<34>1 2026-11-25T11:15:01Z host app - - msg"), at(k20261125T111501Z));
  EXPECT_EQ(found("level=info ts=2026-11-25T11:15:01Z msg=x"), at(k20261125T111501Z));
  EXPECT_EQ(found("{\"time\":\"2026-11-25T11:15:01Z\",\"msg\":\"x\"}"), at(k20261125T111501Z));
  EXPECT_EQ(found("no time here"), std::nullopt);
  // A word after the time that starts like an offset is no offset: the time stays.
  EXPECT_EQ(found("2026-11-25 11:15:01 Zookeeper started"), at(k20261125T111501Z));
  EXPECT_EQ(found("2026-11-25 11:15:01 UTILITY x"), at(k20261125T111501Z));
  EXPECT_EQ(found("2026-11-25 12:15:01 +0100 Zone"), at(k20261125T111501Z));
  EXPECT_EQ(found("2026-11-25 11:15:01 Z done"), at(k20261125T111501Z));
  EXPECT_EQ(found("x2026-11-25T11:15:01Z"), std::nullopt);  // not at the start of a word
  // The first timestamp in the line wins.
  EXPECT_EQ(found("Nov 25 11:15:01 host app: retry at 2027-01-01T00:00:00Z"), at(k20261125T111501Z));
  std::size_t begin = 0, end = 0;
  EXPECT_TRUE(key_instant(rules_in(2026), TimeExtent::anywhere, "ip [Wed Nov 25 11:15:01 2026] x", {}, &begin, &end));
  EXPECT_EQ(begin, 4u);
  EXPECT_EQ(end, 28u);
}

// A zone abbreviation after the time is part of it where the zone names it:
// it picks the repeated hour's instant, and the match ends after it; any
// other capital word (a level, another zone's name) is no part of it.
TEST(TimeRules, ZoneAbbreviationsTheZoneNames) {
  const TimeRules berlin = rules_in(2026, 12, "Europe/Berlin");
  constexpr std::int64_t k20261025T003000Z = 1792888200;  // 02:30 CEST; 02:30 CET is an hour later
  EXPECT_EQ(found("2026-10-25 02:30:00 CEST [1] LOG: x", berlin), at(k20261025T003000Z));
  EXPECT_EQ(found("2026-10-25 02:30:00 CET [1] LOG: x", berlin), at(k20261025T003000Z + 3600));
  EXPECT_EQ(found("Sun Oct 25 02:30:00 CET 2026 x", berlin), at(k20261025T003000Z + 3600));
  EXPECT_EQ(found("2026-10-25 02:30:00 UTC x", berlin), at(k20261025T003000Z + 7200));
  EXPECT_EQ(found("2026-10-25 02:30:00 ERROR x", berlin), at(k20261025T003000Z));  // the earlier offset
  EXPECT_EQ(found("2026-10-25 02:30:00 CET x"), at(k20261025T003000Z + 7200));      // UTC names no CET
  std::size_t begin = 0, end = 0;
  ASSERT_TRUE(key_instant(berlin, TimeExtent::anywhere, "2026-10-25 02:30:00  CET x", {}, &begin, &end));
  EXPECT_EQ(end, 24u);
  ASSERT_TRUE(key_instant(berlin, TimeExtent::anywhere, "2026-10-25 02:30:00  ERROR x", {}, &begin, &end));
  EXPECT_EQ(end, 19u);
  ASSERT_TRUE(key_instant(rules_in(2026), TimeExtent::anywhere, "2026-10-10T13:55:36Z GET /", {}, &begin, &end));
  EXPECT_EQ(end, 20u);  // no abbreviation after an offset
}

// A JSON log's time member, where the inputs showed one: before the first
// timestamp anywhere (a message's own, in local time), where its whole value
// is one; other lines as before.
TEST(TimeRules, JsonTimeMembers) {
  TimeRules r = rules_in(2026);
  r.set_json_time_members({"time", "ts"});
  const std::string_view docker = R"({"log":"2026-11-25 12:15:01 INFO up\n","stream":"stdout","time":"2026-11-25T11:15:01Z"})";
  EXPECT_EQ(found(docker), at(k20261125T111501Z + 3600));  // without the members: the message's
  EXPECT_EQ(found(docker, r), at(k20261125T111501Z));
  std::size_t begin = 0, end = 0;
  ASSERT_TRUE(key_instant(r, TimeExtent::anywhere, docker, {}, &begin, &end));
  EXPECT_EQ(docker.substr(begin, end - begin), "2026-11-25T11:15:01Z");
  EXPECT_EQ(found(R"({"ts":1795605301.25,"msg":"2026-01-01T00:00:00Z"})", r), at(k20261125T111501Z, 250'000'000));
  // Not a whole timestamp, nested, or no object: the first timestamp anywhere.
  EXPECT_EQ(found(R"({"time":"at 2026-11-25T11:15:01Z","x":"2027-01-01T00:00:00Z"})", r), at(k20261125T111501Z));
  EXPECT_EQ(found(R"({"ctx":{"time":"2027-01-01T00:00:00Z"},"at":"2026-11-25T11:15:01Z"})", r), at(1798761600));
  EXPECT_EQ(found(R"({"time":"2026-11-25T11:15:01Z")", r), at(k20261125T111501Z));  // cut short after it
  EXPECT_EQ(found("2026-11-25T11:15:01Z {\"time\":\"2027-01-01T00:00:00Z\"}", r), at(k20261125T111501Z));
  EXPECT_EQ(found(R"({"time":"12345"})", r), std::nullopt);  // a short number is no epoch
}

TEST(TimeRules, CustomFormat) {
  const TimeRules us = rules_in(2026, 12, "", "%m/%d/%Y %I:%M:%S %p");
  EXPECT_EQ(t("11/25/2026 11:15:01 AM", us), at(k20261125T111501Z));
  EXPECT_EQ(t("11/25/2026 12:15:01 AM", us), at(k20261125T111501Z - 11 * 3600));
  EXPECT_EQ(t("2026-11-25T11:15:01Z", us), std::nullopt);  // the known formats no longer apply
  EXPECT_EQ(found("job 7 done 11/25/2026 01:15:01 pm ok", us), at(k20261125T111501Z + 2 * 3600));
  EXPECT_THROW(rules_in(2026, 12, "", "%H:%M"), UsageError);  // no date
  EXPECT_THROW(rules_in(2026, 12, "", "%Y-%q"), UsageError);
}

}  // namespace
}  // namespace corank::text
