// Zones of particular inputs (--time-zone PATTERN=ZONE) through the corank
// program: each file's local times read in its own zone, checked against
// Python's zoneinfo, and the requests that one set of rules cannot serve
// refused with exit status 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "lines_test_util.hpp"

namespace {

using namespace corank::test::lines;

class InputZones : public Lines {
protected:
  // Writes `text` to `name`, and into "instants" the UTC instant of each of
  // its lines' first two words read in `zone` by Python's zoneinfo, a tab,
  // the line.
  void write_with_instants(const std::string& name, const std::string& zone, const std::string& text) {
    write_file(path(name), text);
    const Result r = run_shell(
        "python3 -c 'import sys, datetime, zoneinfo\n"
        "z = zoneinfo.ZoneInfo(sys.argv[1])\n"
        "for l in open(sys.argv[2]):\n"
        "  w = l.split()\n"
        "  t = datetime.datetime.strptime(w[0] + \" \" + w[1], \"%Y-%m-%d %H:%M:%S\").replace(tzinfo=z)\n"
        "  print(int(t.timestamp()), l, sep=\"\\t\", end=\"\")' " +
            zone + " " + path(name) + " >> " + path("instants"),
        path("err"));
    ASSERT_EQ(r.status, 0) << r.err;
  }

  // The reference order of every file written so far: by instant, then line.
  std::string reference() {
    const Result r = run_shell("LC_ALL=C sort -t \"$(printf '\\t')\" -k1,1n -k2 " + path("instants") +
                                   " | cut -f2- > " + path("want"),
                               path("err"));
    EXPECT_EQ(r.status, 0) << r.err;
    return read_file(path("want"));
  }
};

// Three files in three zones (one of them the default's), across New York's
// and Berlin's spring-forward weeks, where their offsets differ by 5 and 6
// hours: matched by file name, by a path pattern, and the rest by the
// default zone.
TEST_F(InputZones, EachInputReadsItsTimesInItsOwnZone) {
  write_with_instants("ny-app.log", "America/New_York",
                      "2026-03-08 01:30:00 ny a\n2026-03-08 03:30:00 ny b\n2026-03-28 20:15:00 ny c\n"
                      "2026-03-29 01:00:00 ny d\n");
  write_with_instants("tokyo.log", "Asia/Tokyo",
                      "2026-03-08 16:00:00 tk e\n2026-03-08 17:45:00 tk f\n2026-03-29 09:30:00 tk g\n");
  write_with_instants("berlin.log", "Europe/Berlin",
                      "2026-03-08 07:00:00 be h\n2026-03-08 08:20:00 be i\n2026-03-29 01:30:00 be j\n"
                      "2026-03-29 03:10:00 be k\n");
  const std::string want = reference();
  const std::string zones = "--time-zone 'ny-*=America/New_York' --time-zone '" + path("tok*.log") +
                            "=Asia/Tokyo' --time-zone Europe/Berlin";
  const std::string inputs = path("berlin.log") + " " + path("ny-app.log") + " " + path("tokyo.log");
  for (const std::string opts : {"--time", "-k1,2T", "--time -S 1K --batch-size 2", "--time --parallel 1"}) {
    SCOPED_TRACE(opts);
    const Result r = run(opts + " " + zones + " -o " + path("out") + " " + inputs);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("out")), want);
  }
  // Read in one zone, the files interleave otherwise.
  const Result one = run("--time --time-zone Europe/Berlin -o " + path("out") + " " + inputs);
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_NE(read_file(path("out")), want);
}

// The first pattern that matches decides; standard input matches none.
TEST_F(InputZones, TheFirstMatchingPatternDecidesAndStandardInputTakesTheDefault) {
  write_file(path("ny-app.log"), "2026-07-01 08:00:00 ny\n");
  const std::string zones = "--time-zone 'ny-*=America/New_York' --time-zone '*.log=Asia/Tokyo' "
                            "--time-zone Europe/Berlin";
  // 08:00 in New York is 12:00 UTC; Tokyo's 20:30 is 11:30 UTC, Berlin's 13:45 11:45 UTC.
  const Result r = run_shell("printf '2026-07-01 13:45:00 stdin\\n' | " + corank::test::corank_bin() + " --time " +
                                 zones + " -o " + path("out") + " " + path("ny-app.log") + " -",
                             path("err"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "2026-07-01 13:45:00 stdin\n2026-07-01 08:00:00 ny\n");
  write_file(path("x.log"), "2026-07-01 20:30:00 tokyo\n");
  const Result t = run("--time " + zones + " -o " + path("out") + " " + path("ny-app.log") + " " + path("x.log"));
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(read_file(path("out")), "2026-07-01 20:30:00 tokyo\n2026-07-01 08:00:00 ny\n");
}

// What one set of rules reads (--debug, CSV, JSON lines) cannot take inputs
// in different zones; a pattern without a zone, or an unknown zone, is an
// error even where no input matches. All exit 2, naming the option.
TEST_F(InputZones, ThatCannotBeHonouredAreErrors) {
  write_file(path("a.log"), "2026-07-01 08:00:00 a\n");
  write_file(path("b.log"), "2026-07-01 09:00:00 b\n");
  write_file(path("a.jsonl"), "{\"t\": \"2026-07-01 08:00:00\"}\n");
  write_file(path("b.jsonl"), "{\"t\": \"2026-07-01 09:00:00\"}\n");
  const std::string two = " " + path("a.log") + " " + path("b.log");
  const std::string differ = "inputs in different zones ('" + path("a.log") + "': Asia/Tokyo, '" + path("b.log") +
                             "': UTC): ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--time --debug --time-zone 'a.*=Asia/Tokyo'" + two, differ + "--debug reads every input in one zone"},
      {"--format csv --key 1:time --time-zone 'a.*=Asia/Tokyo'" + two, differ + "--format csv reads every input"},
      {"--format jsonl --key t:time --time-zone 'a.*=Asia/Tokyo' " + path("a.jsonl") + " " + path("b.jsonl"),
       "inputs in different zones ('" + path("a.jsonl") + "': Asia/Tokyo, '" + path("b.jsonl") + "': UTC)"},
      {"--time --time-zone '=Asia/Tokyo'" + two, "invalid --time-zone '=Asia/Tokyo': PATTERN=ZONE needs both"},
      {"--time --time-zone 'z.*='" + two, "invalid --time-zone 'z.*=': PATTERN=ZONE needs both"},
      {"--time --time-zone 'z.*=Asia/Nowhere'" + two,
       "unknown time zone 'Asia/Nowhere' (an IANA name such as Europe/Berlin, from the tz database) in --time-zone "
       "'z.*=Asia/Nowhere'"},
      {"--time --time-zone '*=UTC' --time-zone Europe/Nowhere" + two, "unknown time zone 'Europe/Nowhere'"}};
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    std::filesystem::remove(path("out"));
    const Result r = run(args + " > " + path("out"));
    EXPECT_EQ(r.status, 2);
    // The one line of the error, nothing before it (--debug's notes).
    EXPECT_TRUE(r.err.starts_with("corank: " + message)) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(read_file(path("out")), "");
  }
  // Where every input has the same zone, one set of rules serves, in that
  // zone: 08:00 in Tokyo is 23:00 UTC the day before. The default UTC and
  // a pattern's UTC are one zone.
  write_file(path("b.log"), "2026-07-01 00:30:00+00:00 b\n");
  for (const std::string opts : {"--time --debug --time-zone '*.log=Asia/Tokyo'", "--time --time-zone '*.log=Asia/Tokyo'",
                                 "-k1,2T --time-zone '*.log=Asia/Tokyo'"}) {
    SCOPED_TRACE(opts);
    const Result same = run(opts + two + " > " + path("out"));
    EXPECT_EQ(same.status, 0) << same.err;
    EXPECT_TRUE(read_file(path("out")).starts_with("2026-07-01 08:00:00 a\n")) << read_file(path("out"));
  }
  const Result utc = run("--time --debug --time-zone 'a.*=UTC'" + two + " > " + path("out"));
  EXPECT_EQ(utc.status, 0) << utc.err;
  // Without a key that reads times, zones do not matter: a column named
  // with a T, a key of lines without one.
  write_file(path("a.csv"), "Total,when\n5,2026-07-01 08:00:00\n");
  write_file(path("b.csv"), "Total,when\n3,2026-07-01 09:00:00\n");
  for (const std::string args : {"--format csv --header --key Total:n --time-zone 'a.*=Asia/Tokyo' " + path("a.csv") +
                                     " " + path("b.csv"),
                                 "-k1,1 --debug --time-zone 'a.*=Asia/Tokyo'" + two}) {
    SCOPED_TRACE(args);
    const Result r = run(args + " > " + path("out"));
    EXPECT_EQ(r.status, 0) << r.err;
  }
}

// -c reads its one input in the zone its name gives; --stats names the
// patterns and each input's zone.
TEST_F(InputZones, CheckAndStatsFollowThePatterns) {
  write_file(path("ny.log"), "2026-07-01 11:00:00+01:00 first\n2026-07-01 08:00:00 ny\n");
  // 08:00 in New York is 12:00 UTC, after 10:00 UTC; read in UTC, before it.
  EXPECT_EQ(run("-c --time --time-zone 'ny*=America/New_York' " + path("ny.log")).status, 0);
  EXPECT_EQ(run("-c --time " + path("ny.log")).status, 1);
  // A pattern with a '/' matches the path, its '*' within one directory.
  EXPECT_EQ(run("-c --time --time-zone '" + path("") + "*.log=America/New_York' " + path("ny.log")).status, 0);
  EXPECT_EQ(run("-c --time --time-zone '/*.log=America/New_York' " + path("ny.log")).status, 1);
  write_file(path("utc.log"), "2026-07-01 09:00:00 utc\n");
  const Result r = run("--time --time-zone 'ny*=America/New_York' --stats=" + path("stats.json") + " -o " +
                       path("out") + " " + path("ny.log") + " " + path("utc.log"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string stats = read_file(path("stats.json"));
  EXPECT_NE(stats.find("\"input_time_zones\":[{\"pattern\":\"ny*\",\"zone\":\"America/New_York\"}]"),
            std::string::npos)
      << stats;
  EXPECT_NE(stats.find("\"time_zone_of_inputs\": [\"America/New_York\",\"UTC\"]"), std::string::npos) << stats;
}

// A pattern with a '/' names the path's last parts, however the path is
// written (relative, with "./", absolute); '*' takes no leading '.'; a
// pattern that names no input draws a warning; two names of one zone (a
// link of the tz database) are one zone, where one set of rules reads all.
TEST_F(InputZones, PatternsNameFilesAsTheShellDoesAndLinksNameOneZone) {
  std::filesystem::create_directories(path("d2"));
  // 08:00 in New York is 12:00 UTC: after 11:00 UTC in New York, before it in UTC.
  write_file(path("d2/ny.log"), "2026-07-01 08:00:00 ny\n");
  write_file(path("d2/.ny.log"), "2026-07-01 08:00:00 hidden\n");
  write_file(path("utc.log"), "2026-07-01 11:00:00+00:00 utc\n");
  const std::string cd =
      "cd " + path("") + " && " + std::filesystem::absolute(corank::test::corank_bin()).string() + " --time ";
  for (const std::string& in : {std::string("d2/ny.log"), std::string("./d2/ny.log"), path("d2/ny.log")})
    for (const std::string pattern : {"d2/*.log", "./d2/ny.log", "ny.log", "*/*.log"}) {
      SCOPED_TRACE(in + " " + pattern);
      const Result r =
          run_shell(cd + "--time-zone '" + pattern + "=America/New_York' " + in + " utc.log > out", path("err"));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(read_file(path("out")), "2026-07-01 11:00:00+00:00 utc\n2026-07-01 08:00:00 ny\n");
      EXPECT_EQ(r.err, "");
    }
  const Result hidden = run_shell(cd + "--time-zone '*ny.log=America/New_York' d2/.ny.log utc.log > out", path("err"));
  ASSERT_EQ(hidden.status, 0) << hidden.err;
  EXPECT_EQ(read_file(path("out")), "2026-07-01 08:00:00 hidden\n2026-07-01 11:00:00+00:00 utc\n");
  EXPECT_EQ(hidden.err, "corank: --time-zone '*ny.log=America/New_York' names no input file: its zone reads none\n");
  const Result typo = run_shell(cd + "--time-zone TZ=America/New_York d2/ny.log utc.log > out", path("err"));
  ASSERT_EQ(typo.status, 0) << typo.err;
  EXPECT_EQ(read_file(path("out")), "2026-07-01 08:00:00 ny\n2026-07-01 11:00:00+00:00 utc\n");
  EXPECT_NE(typo.err.find("--time-zone 'TZ=America/New_York' names no input file"), std::string::npos) << typo.err;
  // UTC is a link to Etc/UTC: a CSV sort (one set of rules) takes both.
  write_file(path("a.csv"), "when,v\n2026-07-01 09:00:00,a\n");
  write_file(path("b.csv"), "when,v\n2026-07-01 08:00:00,b\n");
  const Result csv = run("--format csv --header --key when:time --time-zone 'a.*=UTC' --time-zone Etc/UTC " +
                         path("a.csv") + " " + path("b.csv") + " > " + path("out"));
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(read_file(path("out")), "when,v\n2026-07-01 08:00:00,b\n2026-07-01 09:00:00,a\n");
}

// -m merges sorted inputs each read in its zone (06:30 in New York is 10:30
// UTC, 13:00 in Berlin 11:00 UTC), equal instants (12:00 in New York and
// 18:00 in Berlin, 16:00 UTC) ordered by their lines; -u keeps the first of
// them in input order, the Berlin file's; names from --files0-from take their
// patterns as operands do.
TEST_F(InputZones, MergeUniqueAndFilesFromReadEachInputInItsZone) {
  write_file(path("ny.log"), "2026-07-01 06:30:00 ny\n2026-07-01 12:00:00 same\n");
  write_file(path("be.log"), "2026-07-01 13:00:00 be\n2026-07-01 18:00:00 same\n");
  const std::string zones = "--time-zone 'ny*=America/New_York' --time-zone 'be*=Europe/Berlin' ";
  const std::string inputs = path("be.log") + " " + path("ny.log");
  const Result m = run("-m --time " + zones + inputs + " > " + path("out"));
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(read_file(path("out")),
            "2026-07-01 06:30:00 ny\n2026-07-01 13:00:00 be\n2026-07-01 12:00:00 same\n2026-07-01 18:00:00 same\n");
  for (const std::string opts : {"-u --time", "-u -m --time", "-u --time -S 1K --batch-size 2"}) {
    SCOPED_TRACE(opts);
    const Result u = run(opts + " " + zones + inputs + " > " + path("out"));
    ASSERT_EQ(u.status, 0) << u.err;
    EXPECT_EQ(read_file(path("out")), "2026-07-01 06:30:00 ny\n2026-07-01 13:00:00 be\n2026-07-01 18:00:00 same\n");
  }
  const Result names = run_shell("printf '%s\\0%s\\0' " + inputs + " > " + path("names"), path("err"));
  ASSERT_EQ(names.status, 0) << names.err;
  const Result f = run("--time " + zones + "--files0-from=" + path("names") + " > " + path("out"));
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_EQ(read_file(path("out")),
            "2026-07-01 06:30:00 ny\n2026-07-01 13:00:00 be\n2026-07-01 12:00:00 same\n2026-07-01 18:00:00 same\n");
}

}  // namespace
