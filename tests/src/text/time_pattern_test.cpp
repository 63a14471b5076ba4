#include "corank/text/time_pattern.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/text/time_formats.hpp"

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
  // So are the hour and minute read before the part's seconds fail, also
  // where the part that read them is nested in it, and a field whose own
  // step fails (an hour of 99) is never written.
  ASSERT_TRUE(TimePattern("%F%{ %H:%M:%S%}").match("2026-11-25 11:15", 0, t, end, true));
  EXPECT_EQ(t.hour, 0);
  EXPECT_EQ(t.minute, 0);
  EXPECT_EQ(end, 10u);
  ASSERT_TRUE(TimePattern("%F%{ %{%H:%}%M:%S%}").match("2026-11-25 11:15", 0, t, end, true));
  EXPECT_EQ(t.hour, 0);
  EXPECT_EQ(t.minute, 0);
  ASSERT_TRUE(TimePattern("%F%{ %H%}").match("2026-11-25 99", 0, t, end, true));
  EXPECT_EQ(t.hour, 0);
  EXPECT_EQ(end, 10u);
  ASSERT_TRUE(TimePattern("%F%{ %{%Z%}%H%}").match("2026-11-25 CET 9", 0, t, end, true));
  EXPECT_EQ(t.zone_abbr, 0u);  // "CET" read in the nested part, then "9" is no hour after it
}

// %Z: capital letters that are a word of their own, packed a byte each.
TEST(TimePattern, ZoneAbbreviations) {
  const TimePattern p("%F %T%{ %Z%}");
  LocalTime t;
  std::size_t end = 0;
  ASSERT_TRUE(p.match("2026-10-25 02:30:00 CEST LOG: x", 0, t, end, true));
  EXPECT_EQ(end, 24u);
  EXPECT_EQ(t.zone_abbr, std::uint64_t{'C'} | std::uint64_t{'E'} << 8 | std::uint64_t{'S'} << 16 |
                             std::uint64_t{'T'} << 24);
  EXPECT_FALSE(t.has_offset);
  for (const char* no : {"2026-10-25 02:30:00 cet", "2026-10-25 02:30:00 CET1", "2026-10-25 02:30:00 C",
                         "2026-10-25 02:30:00 ABCDEFG", "2026-10-25 02:30:00 CETx"}) {
    SCOPED_TRACE(no);
    ASSERT_TRUE(p.match(no, 0, t, end, true));
    EXPECT_EQ(t.zone_abbr, 0u);
    EXPECT_EQ(end, 19u);
  }
  // date(1)'s output: the abbreviation before the year.
  ASSERT_TRUE(TimePattern("%a %b %e %T%{ %Z%} %Y").match("Sun Oct 25 02:30:00 CET 2026", 0, t, end, true));
  EXPECT_EQ(t.year, 2026);
  EXPECT_EQ(t.zone_abbr, std::uint64_t{'C'} | std::uint64_t{'E'} << 8 | std::uint64_t{'T'} << 16);
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

// The lead bytes reject only where match() fails: every match of mutated
// timestamps (each known format's and --time-format-like patterns', cut,
// bytes changed, inserted, dropped) is one that may_match_at allows.
TEST(TimePattern, LeadBytesNeverRejectAMatch) {
  std::vector<TimePattern> patterns;
  std::vector<std::string> texts;
  for (const TimeFormat& f : known_time_formats()) patterns.push_back(f.pattern);
  for (const char* p : {"%{%a, %}%e %b %Y %T %z", "%I:%M %p %d.%m.%y", "%[[(]%F%{%[Tt ]%R%}%[)x]", "%A %B %d %H%M%S"})
    patterns.emplace_back(p);
  for (const char* t : {"2026-11-25T11:15:01.123+01:00", "2026-11-25 11:15:01,123 x", "Wed, 25 Nov 2026 11:15:01 +0100",
                        "25/Nov/2026:11:15:01 +0100]", "2026/11/25 11:15:01", "Wed Nov 25 11:15:01.123456 2026",
                        "Nov  5 11:15:01 h", "1795605301.123", "-17956053", "11:15 pm 25.11.26", "[2026-11-25 11:15]",
                        "Wednesday November 25 111501", "25 November 2026 11:15:01 UTC", "Sat, 1 Feb 2025 01:02 GMT"})
    texts.emplace_back(t);
  std::mt19937 rng(31);
  const std::string bytes = "0123456789 -:/.,+TZUGMCtz[]()APapmNovWed\t";
  for (int round = 0; round < 20000; ++round) {
    std::string s = texts[rng() % texts.size()];
    for (int edits = rng() % 4; edits > 0; --edits) {
      const std::size_t at = rng() % (s.size() + 1);
      const char b = bytes[rng() % bytes.size()];
      switch (rng() % 4) {
        case 0: if (at < s.size()) s[at] = b; break;
        case 1: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), b); break;
        case 2: if (at < s.size()) s.erase(at, 1); break;
        default: s.resize(at); break;
      }
    }
    for (const TimePattern& p : patterns)
      for (std::size_t i = 0; i < s.size(); ++i) {
        LocalTime t;
        std::size_t end = 0;
        for (bool anchored : {false, true})
          if (p.match(s, i, t, end, anchored)) {
            ASSERT_TRUE(p.may_match_at(s, i)) << p.text() << " at " << i << " of '" << s << "'";
            ASSERT_TRUE(p.can_start_with(static_cast<unsigned char>(s[i])));
          }
      }
  }
}

// A match that starts from the thread's memo of the head (the bytes the
// last match's head looked at) finds what a match from the first step finds:
// texts each made from the one before (a log's next line: the same minute
// or second, another fraction or zone, other words after; or bytes changed
// inside the head, just past it, anywhere), matched at their start and at a
// later word, through the memo and without it.
TEST(TimePattern, HeadMemoMatchesAsTheFullMatch) {
  std::vector<TimePattern> patterns;
  for (const TimeFormat& f : known_time_formats()) patterns.push_back(f.pattern);
  for (const char* p : {"%{%a, %}%e %b %Y %T %z", "%I:%M %p %d.%m.%y", "%[[(]%F%{%[Tt ]%R%}%[)x]", "%A %B %d %H%M%S",
                        "%Y%m%d %H%M%S", "%b %d %Y", "%F %T%f %Z"})
    patterns.emplace_back(p);
  const std::vector<std::string> seeds = {
      "2026-11-25T11:15:01.123+01:00 a", "2026-11-25 11:15:01,123 INFO x", "Wed, 25 Nov 2026 11:15:01 +0100 m",
      "25/Nov/2026:11:15:01 +0100] \"GET", "2026/11/25 11:15:01 [error]", "Wed Nov 25 11:15:01.123456 2026] [core",
      "Nov  5 11:15:01 host sshd", "Mar 29 09:00:34 March", "11:15 pm 25.11.26", "[2026-11-25 11:15] z",
      "Wednesday November 25 111501 q", "20261125 111501 r", "2026-11-25 11:15:01.5 CET x", "Sun Mar 29 09:00:34 2026",
      "I1125 11:15:01.123456 1 main.go", "(2026-11-25 11:15) z", "1795605301.123 x", "25 Nov 2026 11:15:01.123 * Ready"};
  const std::string bytes = "0123456789 -:/.,+TZUGMCtz[]()APapmNovWedarch\t";
  std::mt19937 rng(47);
  auto same = [](const LocalTime& a, const LocalTime& b) {
    return a.year == b.year && a.month == b.month && a.day == b.day && a.hour == b.hour && a.minute == b.minute &&
           a.second == b.second && a.nanos == b.nanos && a.has_offset == b.has_offset && a.offset == b.offset &&
           a.zone_abbr == b.zone_abbr && a.zone_abbr_at == b.zone_abbr_at && a.epoch == b.epoch &&
           a.epoch_seconds == b.epoch_seconds;
  };
  std::size_t memo_matches = 0;
  for (const TimePattern& p : patterns) {
    // The seeds this pattern matches at their start or after their first word.
    std::vector<std::string> own;
    for (const std::string& seed : seeds) {
      LocalTime t;
      std::size_t end = 0;
      if (p.match_unmemoized(seed, 0, t, end, false) || p.match_unmemoized(seed, 1, t, end, false) ||
          p.match_unmemoized(seed, seed.find(' ') + 1, t, end, false))
        own.push_back(seed);
    }
    ASSERT_FALSE(own.empty()) << p.text();
    std::string s = own[0];
    for (int round = 0; round < 12000; ++round) {
      if (rng() % 6 == 0) s = own[rng() % own.size()];
      for (int edits = rng() % 3; edits > 0; --edits) {
        // Mostly near the head's end (the 10th to 25th byte), else anywhere.
        const std::size_t at = rng() % 2 ? 10 + rng() % 16 : rng() % (s.size() + 1);
        const char b = bytes[rng() % bytes.size()];
        switch (rng() % 5) {
          case 0: case 1: if (at < s.size()) s[at] = b; break;
          case 2: if (at <= s.size()) s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), b); break;
          case 3: if (at < s.size()) s.erase(at, 1); break;
          default: if (at < s.size()) s.resize(at); break;
        }
      }
      for (std::size_t pos : {std::size_t{0}, std::size_t{1}, s.find(' ') + 1}) {
        if (pos > s.size()) continue;
        LocalTime a, b;
        std::size_t ea = 0, eb = 0;
        const bool ok = p.match(s, pos, a, ea, false);
        ASSERT_EQ(ok, p.match_unmemoized(s, pos, b, eb, false)) << p.text() << " at " << pos << " of '" << s << "'";
        if (!ok) continue;
        ++memo_matches;
        ASSERT_EQ(ea, eb) << p.text() << " at " << pos << " of '" << s << "'";
        ASSERT_TRUE(same(a, b)) << p.text() << " at " << pos << " of '" << s << "'";
      }
    }
  }
  EXPECT_GT(memo_matches, 20000u);  // the texts match often enough to test something

  // A name read on past its abbreviation: "Marc" of "Marcy" is March's "Mar",
  // "March" all of it.
  const TimePattern name_last("%e %b");
  for (const char* t : {"5 Marcy", "5 March", "5 Marcy", "5 Mar", "5 March"}) {
    LocalTime a, b;
    std::size_t ea = 0, eb = 0;
    ASSERT_TRUE(name_last.match(t, 0, a, ea, false)) << t;
    ASSERT_TRUE(name_last.match_unmemoized(t, 0, b, eb, false)) << t;
    EXPECT_EQ(ea, eb) << t;
  }
}

TEST(TimePattern, LeadBytesRejectWhatCannotStart) {
  const TimePattern clf("%d/%b/%Y:%T%f%{ %z%}");
  const std::string_view line = "10.105.172.3 - - [24/Nov/2026:05:00:00 +0900] \"GET /\"";
  for (std::size_t i : {0u, 3u, 7u, 11u}) EXPECT_FALSE(clf.may_match_at(line, i)) << i;  // the address's numbers
  EXPECT_TRUE(clf.may_match_at(line, 18));
  const TimePattern iso("%F%[Tt ]%R");
  EXPECT_FALSE(iso.may_match_at("<165>1 2026-03-29T07:00", 1));  // "165>": no year
  EXPECT_TRUE(iso.may_match_at("<165>1 2026-03-29T07:00", 7));
  EXPECT_TRUE(iso.may_match_at("2026", 0));  // too short to tell: match() decides
  EXPECT_FALSE(TimePattern("%b %e %T").may_match_at("Nov:", 0));
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
