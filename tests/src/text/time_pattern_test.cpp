#include "corank/text/time_pattern.hpp"

#include <gtest/gtest.h>

#include "corank/format.hpp"

namespace corank::text {
namespace {

struct Matched {
  bool ok = false;
  LocalTime t;
  std::size_t end = 0;
};

Matched match(std::string_view pattern, std::string_view text) {
  Matched m;
  m.ok = TimePattern(pattern).match(text, 0, m.t, m.end, true);
  return m;
}

TEST(TimePattern, FieldsAndNames) {
  const Matched m = match("%a, %e %B %Y %T%f %z", "Wednesday, 5 november 2026 07:08:09.5 -0130");
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.t.year, 2026);
  EXPECT_EQ(m.t.month, 11);
  EXPECT_EQ(m.t.day, 5);
  EXPECT_EQ(m.t.hour, 7);
  EXPECT_EQ(m.t.minute, 8);
  EXPECT_EQ(m.t.second, 9);
  EXPECT_EQ(m.t.nanos, 500'000'000u);
  EXPECT_TRUE(m.t.has_offset);
  EXPECT_EQ(m.t.offset, -(3600 + 30 * 60));
  EXPECT_EQ(m.end, 43u);
  const Matched y = match("%d.%m.%y", "31.12.69");
  EXPECT_EQ(y.t.year, 1969);
  EXPECT_EQ(match("%d.%m.%y", "01.01.68").t.year, 2068);
  EXPECT_EQ(match("%b %e", "Nov  5").t.day, 5);  // syslog's blank-padded day
  EXPECT_EQ(match("%b %e", "Nov 5").t.day, 5);
  EXPECT_EQ(match("%I %p %m/%d", "12 am 1/2").t.hour, 0);
  EXPECT_EQ(match("%I %p %m/%d", "12 PM 1/2").t.hour, 12);
  EXPECT_EQ(match("%b %d", "Nov 25").t.year, LocalTime::kNoYear);
}

TEST(TimePattern, OptionalPartsAndSets) {
  const TimePattern p("%F%[Tt ]%R%{:%S%{.%f%}%}%{%z%}");
  LocalTime t;
  std::size_t end = 0;
  ASSERT_TRUE(p.match("2026-11-25 11:15Z", 0, t, end, true));
  EXPECT_EQ(end, 17u);
  EXPECT_TRUE(t.has_offset);
  ASSERT_TRUE(p.match("2026-11-25T11:15:0", 0, t, end, true));  // ":0" is no seconds: left out
  EXPECT_EQ(end, 16u);
  EXPECT_EQ(t.second, 0);
  EXPECT_FALSE(p.match("2026-11-25_11:15", 0, t, end, true));
  // A failed part leaves no trace: the offset read inside it is undone.
  ASSERT_TRUE(TimePattern("%F%{ %z:%}").match("2026-11-25 +0100", 0, t, end, true));
  EXPECT_FALSE(t.has_offset);
  EXPECT_EQ(end, 10u);
}

TEST(TimePattern, FirstBytes) {
  const TimePattern p("%{%a, %}%e %b %Y %T %z");
  EXPECT_TRUE(p.can_start_with('W'));
  EXPECT_TRUE(p.can_start_with('2'));
  EXPECT_TRUE(p.can_start_with(' '));
  EXPECT_FALSE(p.can_start_with('['));
  EXPECT_TRUE(TimePattern("[%F").can_start_with('['));
  EXPECT_FALSE(TimePattern("[%F").can_start_with('2'));
}

TEST(TimePattern, Malformed) {
  for (const char* bad : {"%H:%M:%S", "%Y-%m", "%F%", "%F%q", "%F%{", "%F%}", "%F%[]", "%F%[ab", ""}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(TimePattern{bad}, UsageError);
  }
  EXPECT_THROW(TimePattern(std::string(300, 'x') + "%F"), UsageError);  // too long
  std::string deep = "%F";
  for (int i = 0; i < 9; ++i) deep += "%{";
  for (int i = 0; i < 9; ++i) deep += "%}";
  EXPECT_THROW(TimePattern{deep}, UsageError);
}

}  // namespace
}  // namespace corank::text
