// The warning for timestamps followed by another zone's abbreviation: with
// --time (the lines sampled to detect each file's formats) and with
// explicit time keys (-k1,2T: the first lines of each file), through the
// corank program.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "lines_test_util.hpp"

namespace {

using namespace corank::test::lines;

// A zone abbreviation after the timestamps that --time-zone's zone never
// uses, but some zone does (CET under the default UTC), is named once on
// stderr with the file: those times are read in the wrong zone. Log levels
// in the same place (INFO, ERROR) are no zones, and the zone they were
// written in silences it. The sort still succeeds.
TEST_F(Lines, ZoneAbbreviationsOfAnotherZoneAreNamed) {
  write_file(path("pg1.log"), "2026-01-15 10:00:00.000 CET [1] LOG:  b\n2026-01-15 09:00:00.000 CET [1] LOG:  a\n");
  write_file(path("pg2.log"), "2026-07-15 10:00:00.000 CEST [1] LOG:  d\n2026-01-15 11:00:00.000 CET [1] LOG:  c\n");
  write_file(path("app.log"), "2026-01-15 10:30:00,000 INFO x\n2026-01-15 08:30:00,000 ERROR y\n");
  Result r = run("--time -o " + path("out") + " " + path("pg1.log") + " " + path("app.log") + " " + path("pg2.log"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "corank: " + path("pg1.log") + " and 1 more: timestamps followed by CET, which --time-zone's zone UTC "
                   "never uses: read as UTC times; give --time-zone the zone they were written in\n"
                   "corank: " + path("pg2.log") + ": timestamps followed by CEST, which --time-zone's zone UTC never "
                   "uses: read as UTC times; give --time-zone the zone they were written in\n");
  r = run("--time --time-zone Europe/Berlin -o " + path("out") + " " + path("pg1.log") + " " + path("app.log") + " " +
          path("pg2.log"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(path("out")), "2026-01-15 08:30:00,000 ERROR y\n2026-01-15 09:00:00.000 CET [1] LOG:  a\n"
                                    "2026-01-15 10:00:00.000 CET [1] LOG:  b\n2026-01-15 10:30:00,000 INFO x\n"
                                    "2026-01-15 11:00:00.000 CET [1] LOG:  c\n2026-07-15 10:00:00.000 CEST [1] LOG:  d\n");
  r = run("--time --time-zone America/New_York -o " + path("out") + " " + path("app.log"));
  EXPECT_EQ(r.err, "");
  // One file (its rules found apart from the others'), and standard input,
  // whose first lines are read ahead and handed back to the sort.
  r = run("--time -o " + path("out") + " " + path("pg2.log"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "corank: " + path("pg2.log") + ": timestamps followed by CEST, which --time-zone's zone UTC never "
                   "uses: read as UTC times; give --time-zone the zone they were written in\n"
                   "corank: " + path("pg2.log") + ": timestamps followed by CET, which --time-zone's zone UTC never "
                   "uses: read as UTC times; give --time-zone the zone they were written in\n");
  r = run_shell("cat " + path("pg2.log") + " | " + corank_bin() + " --time -o " + path("out"), path("err"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "corank: -: timestamps followed by CEST, which --time-zone's zone UTC never uses: read as UTC "
                   "times; give --time-zone the zone they were written in\n"
                   "corank: -: timestamps followed by CET, which --time-zone's zone UTC never uses: read as UTC "
                   "times; give --time-zone the zone they were written in\n");
}

// The tz database's numeric abbreviations, which PostgreSQL's default log
// prefix writes for Asia/Singapore (+08): the zone that uses them reads
// them, 22:14:15 +08 being 14:14:15 UTC, before 14:30 UTC; another is
// named. A decimal reading after the time is no abbreviation.
TEST_F(Lines, NumericZoneAbbreviationsAreZonesToo) {
  const std::string sg = "2026-10-11 22:14:15.123 +08 [123] LOG:  sg\n";
  const std::string utc = "2026-10-11 14:30:00.000 UTC [9] LOG:  utc\n";
  write_file(path("pg.log"), utc + sg);
  Result r = run("--time --time-zone Asia/Singapore -o " + path("out") + " " + path("pg.log"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(path("out")), sg + utc);
  r = run("--time -o " + path("out") + " " + path("pg.log"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "corank: " + path("pg.log") + ": timestamps followed by +08, which --time-zone's zone UTC never "
                   "uses: read as UTC times; give --time-zone the zone they were written in\n");
  write_file(path("t.log"), "2026-01-10 08:00:00 -12.5 C\n2026-01-10 09:00:00 +14.0 C\n");
  r = run("--time -o " + path("out") + " " + path("t.log"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

// The same for explicit time keys: PostgreSQL's "%m" prefix split into
// fields, the abbreviation in the key (-k1,3T) or in the field after it
// (-k1,2T, read where the zone names it). Nothing for the zone that uses it,
// for keys that are not times, or for a key whose times carry none.
TEST_F(Lines, ExplicitTimeKeysNameAnotherZonesAbbreviation) {
  write_file(path("pg.log"), "2026-01-15 10:00:00.000 CET [1] LOG:  b\n2026-01-15 09:00:00.000 CET [1] LOG:  a\n");
  const std::string warning = "corank: " + path("pg.log") +
                              ": timestamps followed by CET, which --time-zone's zone UTC never uses: read as UTC "
                              "times; give --time-zone the zone they were written in\n";
  for (const char* key : {"-k1,2T", "-k1,3T"}) {
    SCOPED_TRACE(key);
    Result r = run(std::string(key) + " -o " + path("out") + " " + path("pg.log"));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, warning);
    EXPECT_EQ(read_file(path("out")), "2026-01-15 09:00:00.000 CET [1] LOG:  a\n2026-01-15 10:00:00.000 CET [1] LOG:  b\n");
    r = run(std::string(key) + " --time-zone Europe/Berlin -o " + path("out") + " " + path("pg.log"));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");
  }
  Result r = run("-k1,2 -o " + path("out") + " " + path("pg.log"));
  EXPECT_EQ(r.err, "");
  write_file(path("app.log"), "2026-01-15 10:30:00,000 INFO x\n2026-01-15 08:30:00,000 ERROR y\n");
  r = run("-k1,2T -o " + path("out") + " " + path("app.log"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

// An abbreviation of the zone that is not the one in force at that time
// stands for its own offset: a server whose clock was kept at +01:00 all
// year writes CET in July too, and a line written as CEST in November is two
// hours ahead of UTC. The reference is GNU date: a line with an abbreviation
// through its table of abbreviations (`TZ=UTC0 date -d`: CET +1, CEST +2,
// EST -5, EDT -4; under TZ=Europe/Berlin itself it refuses 12:00 CET in July
// as an invalid date), one without through `TZ=ZONE date -d`; the expected
// order is by that instant, then by the line's bytes.
TEST_F(Lines, AnAbbreviationOutOfSeasonKeepsItsOffset) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Europe/Berlin",
       "2026-07-01 12:00:00 CET a\n2026-07-01 10:30:00 UTC b\n2026-07-01 12:45:00 CEST c\n"
       "2026-07-01 11:15:00 d\n2026-11-25 01:00:00 CEST e\n2026-11-24 23:30:00 CET f\n"
       "2026-03-29 02:30:00 CET g\n2026-03-29 01:45:00 h\n2026-10-25 02:30:00 CEST i\n2026-10-25 02:30:00 CET j\n"},
      {"America/New_York",
       "2026-07-04 09:00:00 EST k\n2026-07-04 09:30:00 EDT l\n2026-07-04 09:45:00 m\n"
       "2026-12-01 09:00:00 EDT n\n2026-12-01 08:30:00 o\n"}};
  for (const auto& [zone, text] : cases) {
    SCOPED_TRACE(zone);
    write_file(path("in"), text);
    // The reference: each line's first two words (and its abbreviation, if
    // any) through GNU date, sorted by that instant, then the line.
    const Result ref = run_shell(
        "while IFS= read -r l; do set -- $l; w=\"$1 $2\"; z=" + zone + "; "
        "case $3 in [A-Z]*) w=\"$w $3\"; z=UTC0;; esac; "
        "printf '%s\\t%s\\n' \"$(TZ=$z date -d \"$w\" +%s)\" \"$l\"; done < " + path("in") +
            " | LC_ALL=C sort -t \"$(printf '\\t')\" -k1,1n -k2 | cut -f2- > " + path("want"),
        path("err"));
    ASSERT_EQ(ref.status, 0) << ref.err;
    const Result r = run("--time --time-zone " + zone + " -o " + path("out") + " " + path("in"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("out")), read_file(path("want")));
  }
}

}  // namespace
