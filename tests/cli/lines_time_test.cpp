// End-to-end tests of time keys on lines: -k...T keys and --time on log
// lines of many formats and zones, the years of yearless timestamps, multi-line
// records, and the counts of lines without a time.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lines_test_util.hpp"

namespace {

using namespace corank::test::lines;

// n distinct seconds, 7 apart, in an order the generator picks.
template <class Rng>
std::vector<int> shuffled_seconds(std::size_t n, Rng& rng) {
  std::vector<int> seconds(n);
  for (std::size_t i = 0; i < n; ++i) seconds[i] = static_cast<int>(i) * 7;
  std::shuffle(seconds.begin(), seconds.end(), rng);
  return seconds;
}

TEST_F(Lines, TimeKeysOrderLogLinesByInstant) {
  std::mt19937_64 rng(10);
  struct Line {
    std::int64_t utc;
    std::string text;
  };
  std::vector<Line> lines;
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    const std::int64_t utc = 1791640536 + static_cast<std::int64_t>(rng() % 30000);
    const int offset = (static_cast<int>(rng() % 113) - 56) * 15;
    const std::int64_t local = utc + offset * 60;
    const auto day = std::chrono::floor<std::chrono::days>(std::chrono::sys_seconds{std::chrono::seconds{local}});
    const std::chrono::year_month_day ymd{day};
    const std::int64_t sec = local - day.time_since_epoch().count() * 86400;
    char buf[160];
    std::snprintf(buf, sizeof buf, "10.1.%d.%d - - [%02u/Oct/%d:%02d:%02d:%02d %c%02d%02d] \"GET /%d HTTP/1.1\" 200 %d",
                  static_cast<int>(rng() % 256), static_cast<int>(rng() % 256), static_cast<unsigned>(ymd.day()),
                  static_cast<int>(ymd.year()), static_cast<int>(sec / 3600), static_cast<int>(sec / 60 % 60),
                  static_cast<int>(sec % 60), offset < 0 ? '-' : '+', std::abs(offset) / 60, std::abs(offset) % 60, i,
                  static_cast<int>(rng() % 9000));
    lines.push_back({utc, buf});
    text += std::string(buf) + "\n";
  }
  write_file(path("in"), text);
  for (const char* opts : {"-s -k4,5T", "-s -k4,5rT"}) {
    const bool reverse = std::string(opts).find('r') != std::string::npos;
    std::vector<Line> want = lines;
    std::stable_sort(want.begin(), want.end(),
                     [&](const Line& a, const Line& b) { return reverse ? a.utc > b.utc : a.utc < b.utc; });
    std::string expected;
    for (const auto& l : want) expected += l.text + "\n";
    for (const char* budget : {"", "-S 16K --parallel 1", "-S 64K --parallel 3"}) {
      SCOPED_TRACE(std::string(opts) + " " + budget);
      Result r = run(std::string(opts) + " " + budget + " -T " + path("tmp") + " -o " + path("out") + " " + path("in"));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("out")) == expected);
    }
  }
}

// --sort=time is the global T; --time-year dates syslog lines, which name no
// year: Feb 29 exists in 2024 only, so in 2025 it is unparsable and first.
// Without -k it finds the timestamp anywhere in the line.
TEST_F(Lines, SortTimeAndTheSyslogYear) {
  write_file(path("in"), "Mar  1 00:00:00 host c\nFeb 29 12:00:00 host b\nJan 31 23:59:59 host a\n");
  Result r = run("--sort=time --time-year 2024 -o " + path("out") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "Jan 31 23:59:59 host a\nFeb 29 12:00:00 host b\nMar  1 00:00:00 host c\n");
  r = run("-k1,3T --time-year=2025 -o " + path("out") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "Feb 29 12:00:00 host b\nJan 31 23:59:59 host a\nMar  1 00:00:00 host c\n");
  // With no -k, the whole line's timestamp wherever it is, as --time: after
  // an access log's client address. 11:00 UTC, 11:30 UTC, 12:00 UTC.
  write_file(path("access"), "10.0.0.2 - - [25/Nov/2026:12:00:00 +0000] \"GET /b\" 200 1\n"
                             "10.0.0.1 - - [25/Nov/2026:12:30:00 +0100] \"GET /a\" 200 1\n"
                             "10.0.0.3 - - [25/Nov/2026:06:00:00 -0500] \"GET /c\" 200 1\n");
  r = run("--sort=time -o " + path("out") + " " + path("access"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(path("out")), "10.0.0.3 - - [25/Nov/2026:06:00:00 -0500] \"GET /c\" 200 1\n"
                                    "10.0.0.1 - - [25/Nov/2026:12:30:00 +0100] \"GET /a\" 200 1\n"
                                    "10.0.0.2 - - [25/Nov/2026:12:00:00 +0000] \"GET /b\" 200 1\n");
  for (const char* bad : {"--time-year 0", "--time-year 10000", "--time-year x", "--sort=tim -n"}) {
    SCOPED_TRACE(bad);
    r = run(std::string(bad) + " " + path("in"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("corank: ", 0), 0u) << r.err;
  }
}

// Docker's JSON log lines: the order of their "time" members (UTC), not of
// the timestamps the application wrote into its messages in local time
// (UTC+1, no offset given), which --time would otherwise find first; a file
// of ECS lines ("@timestamp") in the same sort, and lines read whole through
// runs too.
TEST_F(Lines, TimeOfJsonLogsFromTheirTimeMember) {
  std::mt19937_64 rng(34);
  const std::vector<int> seconds = shuffled_seconds(1500, rng);
  std::vector<std::pair<int, std::string>> lines;
  std::string docker, ecs;
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    const int s = seconds[i];  // after 2026-11-25 00:00:00 UTC
    char utc[40], local[40], line[200];
    std::snprintf(utc, sizeof utc, "2026-11-25T%02d:%02d:%02d.%09dZ", s / 3600, s / 60 % 60, s % 60, static_cast<int>(i));
    std::snprintf(local, sizeof local, "2026-11-25 %02d:%02d:%02d", s / 3600 + 1, s / 60 % 60, s % 60);
    if (i % 3 == 2) {
      std::snprintf(line, sizeof line, R"({"@timestamp":"%s","log.level":"info","message":"job %zu at %s"})", utc, i, local);
      ecs += std::string(line) + "\n";
    } else {
      std::snprintf(line, sizeof line, R"({"log":"%s INFO job %zu\n","stream":"stdout","time":"%s"})",
                    i % 3 ? local : "-", i, utc);
      docker += std::string(line) + "\n";
    }
    lines.emplace_back(s, line);
  }
  write_file(path("docker.log"), docker);
  write_file(path("ecs.log"), ecs);
  std::sort(lines.begin(), lines.end());
  std::string want;
  for (const auto& l : lines) want += l.second + "\n";
  for (const char* budget : {"", "-S 64K --parallel 2"}) {
    SCOPED_TRACE(budget);
    const Result r = run(std::string("--time -v ") + budget + " -T " + path("tmp") + " -o " + path("out") + " " +
                         path("docker.log") + " " + path("ecs.log"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("out")), want);
    EXPECT_NE(r.err.find("each read at its member \"time\""), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("each read at its member \"@timestamp\""), std::string::npos) << r.err;
  }
}

// --time -r (and --multiline -r) is newest first; a -k key with its own
// ordering letter keeps -r to the last-resort comparison, as GNU's keys do.
TEST_F(Lines, TimeReversedIsNewestFirst) {
  write_file(path("in"), "Nov 25 10:00:02 h b\n2026-11-25T10:00:03Z c\n[25/Nov/2026:11:00:01 +0100] a\n");
  auto sorted = [&](const std::string& args) {
    const Result r = run(args + " -o " + path("out"));
    EXPECT_EQ(r.status, 0) << r.err;
    return read_file(path("out"));
  };
  EXPECT_EQ(sorted("--time -r --time-year 2026 " + path("in")),
            "2026-11-25T10:00:03Z c\nNov 25 10:00:02 h b\n[25/Nov/2026:11:00:01 +0100] a\n");
  EXPECT_EQ(sorted("-k T -r --time-year 2026 " + path("in")),
            "[25/Nov/2026:11:00:01 +0100] a\nNov 25 10:00:02 h b\n2026-11-25T10:00:03Z c\n");
  write_file(path("java"), "2026-11-25 10:00:01 a\n  at x\n2026-11-25 10:00:03 c\n  at y\n2026-11-25 10:00:02 b\n");
  EXPECT_EQ(sorted("--multiline -r " + path("java")),
            "2026-11-25 10:00:03 c\n  at y\n2026-11-25 10:00:02 b\n2026-11-25 10:00:01 a\n  at x\n");
}

// The issue's cases: yearless lines dated from the file's modification time
// (March 2028: December is 2027's, Feb 29 exists), --time finding CLF
// timestamps and their offsets, -k4,4T taking the offset from field 5.
TEST_F(Lines, TimeKeysOfLogs) {
  auto sorted = [&](const std::string& opts, const std::string& file) {
    const Result r = run(opts + " -o " + path("out") + " " + path(file));
    EXPECT_EQ(r.status, 0) << r.err;
    return read_file(path("out"));
  };
  write_file(path("in"), "Feb 29 12:00:00 h leap\nJan  1 00:00:01 h new\nDec 31 23:59:59 h old\n");
  ASSERT_EQ(std::system(("touch -d '2028-03-01 12:00:00' " + path("in")).c_str()), 0);
  EXPECT_EQ(sorted("-k1,3T", "in"), "Dec 31 23:59:59 h old\nJan  1 00:00:01 h new\nFeb 29 12:00:00 h leap\n");
  // 2027: no Feb 29, unparsable and first.
  EXPECT_EQ(sorted("-k1,3T --time-year 2027", "in"), "Feb 29 12:00:00 h leap\nJan  1 00:00:01 h new\nDec 31 23:59:59 h old\n");
  // 11:00 UTC, then 12:30 UTC: the reverse of their local times' order.
  write_file(path("clf"), "2 - - [25/Nov/2026:07:30:00 -0500] b\n1 - - [25/Nov/2026:12:00:00 +0100] a\n");
  for (const char* key : {"-k4,4T", "-k4,5T", "--time", "-k T"}) {
    SCOPED_TRACE(key);
    EXPECT_EQ(sorted(key, "clf"), "1 - - [25/Nov/2026:12:00:00 +0100] a\n2 - - [25/Nov/2026:07:30:00 -0500] b\n");
  }
  // 02:30 does not exist in Berlin on 2026-03-29: as 01:30 UTC, after 01:00 UTC.
  write_file(path("gap"), "a 2026-03-29 02:30:00\nb 2026-03-29T01:00:00Z\n");
  EXPECT_EQ(sorted("--time --time-zone Europe/Berlin", "gap"), "b 2026-03-29T01:00:00Z\na 2026-03-29 02:30:00\n");
  // UTC: 02:30 UTC; Los Angeles: 09:30 UTC; Tokyo: 17:30 UTC the day before.
  EXPECT_EQ(sorted("--time", "gap"), "b 2026-03-29T01:00:00Z\na 2026-03-29 02:30:00\n");
  EXPECT_EQ(sorted("--time --time-zone America/Los_Angeles", "gap"), "b 2026-03-29T01:00:00Z\na 2026-03-29 02:30:00\n");
  EXPECT_EQ(sorted("--time --time-zone Asia/Tokyo", "gap"), "a 2026-03-29 02:30:00\nb 2026-03-29T01:00:00Z\n");
  // 02:30 comes twice in Berlin on 2026-10-25: the first, 00:30 UTC, before 01:00 UTC.
  write_file(path("fold"), "b 2026-10-25T01:00:00Z\na 2026-10-25 02:30:00\n");
  EXPECT_EQ(sorted("--time --time-zone Europe/Berlin", "fold"), "a 2026-10-25 02:30:00\nb 2026-10-25T01:00:00Z\n");
  // A format that reads neither: unparsable both, by the last-resort comparison.
  EXPECT_EQ(sorted("--time --time-format '%d.%m.%Y %H:%M'", "gap"), "a 2026-03-29 02:30:00\nb 2026-03-29T01:00:00Z\n");
  for (const char* bad : {"--time --time-zone Mars/Base", "--time --time-format %H:%M", "--format csv --time",
                          "-k1T --time-year 2026-13", "--time-zone Europe/Berlin --format u64"}) {
    SCOPED_TRACE(bad);
    const Result r = run(std::string(bad) + " " + path("gap"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("corank: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// --multiline: entries with stack traces of 0-3 lines, out of order, in two
// files each starting with text that has no timestamp. The reference order is
// the generator's: by the instant each entry was written (all distinct), its
// trace after it, both heads first in input order. Through one chunk, and
// through many runs and merge passes (records across chunk and run ends).
TEST_F(Lines, MultilineRecordsMoveWhole) {
  std::mt19937 rng(17);
  const std::vector<int> seconds = shuffled_seconds(1500, rng);
  std::vector<std::pair<int, std::string>> records;
  std::string files[2] = {"JVM warming up\nsecond head line\n", "other head\n"};
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    const int s = seconds[i];
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "2026-03-%02d %02d:%02d:%02d", 1 + s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
    std::string rec = std::string(stamp) + " ERROR request " + std::to_string(i) + "\n";
    for (int k = static_cast<int>(rng() % 4); k > 0; --k)
      rec += "\tat com.example.Svc.call(Svc.java:" + std::to_string(rng() % 900) + ")\n";
    records.emplace_back(s, rec);
    files[i % 2] += rec;
  }
  write_file(path("a"), files[0]);
  write_file(path("b"), files[1]);
  std::sort(records.begin(), records.end());
  std::string want = "JVM warming up\nsecond head line\nother head\n";
  for (const auto& r : records) want += r.second;
  for (const std::string budget : {"", "-S 16K --parallel 1 --batch-size 2", "-S 24K --parallel 3"}) {
    SCOPED_TRACE(budget);
    const Result r = run("--multiline " + budget + " -T " + path("tmp") + " --stats " + path("stats") + " -o " +
                         path("out") + " " + path("a") + " " + path("b"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_file(path("out")) == want);
    EXPECT_NE(read_file(path("stats")).find("\"records_in\": " + std::to_string(records.size() + 2) + ","),
              std::string::npos);
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    if (!budget.empty()) EXPECT_EQ(read_file(path("stats")).find("\"spilled_runs\": 0,"), std::string::npos);
  }
  // -c reads records: the output is in order; line by line it is not.
  EXPECT_EQ(run("--multiline -c " + path("out")).status, 0);
  EXPECT_EQ(run("--time -c " + path("out")).status, 1);
  // A disorder names the line its record starts on, the last record's too,
  // in one line: the record's first, marked as having more.
  write_file(path("late"), "head\n2026-01-02 10:00:00 b\n\tat x\n2026-01-01 10:00:00 a\n\tat y\n");
  Result late = run("--multiline -c " + path("late"));
  EXPECT_EQ(late.status, 1);
  EXPECT_EQ(late.err, "corank: " + path("late") + ":4: disorder: 2026-01-01 10:00:00 a ...\n");
  write_file(path("late"), "2026-01-02 10:00:00 b\n\tat x\n2026-01-03 10:00:00 c\n2026-01-01 10:00:00 a\n\tat y\n"
                           "2026-01-04 10:00:00 d\n");
  late = run("--multiline -c " + path("late"));
  EXPECT_NE(late.err.find(path("late") + ":4: disorder: 2026-01-01 10:00:00 a"), std::string::npos) << late.err;
  // -u keeps the first record of each key (each instant under --time) with
  // its trace, and drops the others' traces with them.
  write_file(path("dup"), "2026-01-02 10:00:00 E boom\n\tat x(1)\n2026-01-01 09:00:00 I ok\n"
                          "2026-01-02 10:00:00 E boom\n\tat x(1)\n2026-01-02 10:00:00 E boom\n\tat x(2)\n");
  ASSERT_EQ(run("--multiline -u -k1,2 -o " + path("out") + " " + path("dup")).status, 0);
  EXPECT_EQ(read_file(path("out")), "2026-01-01 09:00:00 I ok\n2026-01-02 10:00:00 E boom\n\tat x(1)\n");
  ASSERT_EQ(run("--multiline -u -o " + path("out") + " " + path("dup")).status, 0);
  EXPECT_EQ(read_file(path("out")), "2026-01-01 09:00:00 I ok\n2026-01-02 10:00:00 E boom\n\tat x(1)\n");
  // A last line without its newline joins its record.
  write_file(path("tail"), "2026-01-02 10:00:00 b\n\tat y\n2026-01-01 10:00:00 a\n\tat z");
  ASSERT_EQ(run("--multiline -o " + path("out") + " " + path("tail")).status, 0);
  EXPECT_EQ(read_file(path("out")), "2026-01-01 10:00:00 a\n\tat z\n2026-01-02 10:00:00 b\n\tat y\n");
  for (const char* bad : {"--multiline -z", "--multiline --format csv"}) {
    const Result r = run(std::string(bad) + " " + path("tail"));
    EXPECT_EQ(r.status, 2) << bad;
  }
}

// Lines in which a time key finds no time are counted, over every chunk and
// thread, and named in one line on stderr and in --stats; the sort succeeds.
// The reference count is the generator's: every seventh line has no time.
TEST_F(Lines, UnreadTimesCountedOnStderrAndInStats) {
  std::string in;
  for (int i = 0; i < 1000; ++i)
    in += i % 7 == 0 ? "\tat Frame.call(Frame.java:" + std::to_string(i) + ")\n"
                     : "2026-03-01T10:" + std::to_string(10 + i % 50) + ":00Z event " + std::to_string(i) + "\n";
  write_file(path("in"), in);
  for (const std::string opts : {"--time", "--time -S 8K --parallel 3", "-k1,1T -k3,3n"}) {
    SCOPED_TRACE(opts);
    const Result r = run(opts + " -T " + path("tmp") + " --stats " + path("stats") + " -o " + path("out") + " " + path("in"));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "corank: 143 of 1,000 lines had no time in key 1; they sort first; --debug shows them\n");
    EXPECT_NE(read_file(path("stats")).find(R"("key_values": [{"key":1,"name":"","type":"time","unread":143,)"),
              std::string::npos)
        << read_file(path("stats"));
  }
  Result r = run("-k Tr -o " + path("out") + " " + path("in"));
  EXPECT_EQ(r.err, "corank: 143 of 1,000 lines had no time in key 1; they sort last; --debug shows them\n");
  r = run("-k3,3n -k1,1T -o " + path("out") + " " + path("in"));
  EXPECT_EQ(r.err, "corank: 143 of 1,000 lines had no time in key 2; they sort first; --debug shows them\n");
  // Nothing to say: every line has a time, or no key is a time key.
  write_file(path("timed"), "2026-03-01T10:00:00Z a\n2026-02-01T10:00:00Z b\n");
  EXPECT_EQ(run("--time -o " + path("out") + " " + path("timed")).err, "");
  EXPECT_EQ(run("-k1,1 -o " + path("out") + " " + path("in")).err, "");
}

// Yearless lines take their year from their own file's modification time:
// March 2024 dates Dec 31 in 2023 and lets Feb 29 exist; December 2026 dates
// its Jan 2 in 2026. (By the newest file alone, Dec 31 would be 2026's and
// Feb 29 would not exist.) -u holds across files of different years, and -m
// merges files so dated.
TEST_F(Lines, YearlessLinesDatedByTheirOwnFile) {
  write_file(path("a"), "Feb 29 12:00:00 h a-leap\nDec 31 23:00:00 h a-old\n");
  write_file(path("b"), "Dec 30 10:00:00 h b-dec\nJan  2 00:00:00 h b-jan\n");
  write_file(path("c"), "Jan  2 00:00:00 h b-jan\n");
  ASSERT_EQ(std::system(("touch -d '2024-03-05 12:00:00' " + path("a")).c_str()), 0);
  ASSERT_EQ(std::system(("touch -d '2026-12-31 12:00:00' " + path("b")).c_str()), 0);
  ASSERT_EQ(std::system(("touch -d '2026-06-01 12:00:00' " + path("c")).c_str()), 0);
  const std::string want =
      "Dec 31 23:00:00 h a-old\nFeb 29 12:00:00 h a-leap\nJan  2 00:00:00 h b-jan\nDec 30 10:00:00 h b-dec\n";
  for (const std::string opts : {"-k1,3T", "--time", "--time -S 4K --parallel 1"}) {
    SCOPED_TRACE(opts);
    Result r = run(opts + " -T " + path("tmp") + " -o " + path("out") + " " + path("b") + " " + path("a"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("out")), want);
    r = run(opts + " -u -T " + path("tmp") + " -o " + path("out") + " " + path("c") + " " + path("b") + " " + path("a"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("out")), want);
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
  }
  // -m of the files, each sorted by its own year (rotated logs merged), and
  // of one of them compressed: each read by its own rules too.
  write_file(path("a2"), "Dec 31 23:00:00 h a-old\nFeb 29 12:00:00 h a-leap\n");
  write_file(path("b2"), "Jan  2 00:00:00 h b-jan\nDec 30 10:00:00 h b-dec\n");
  ASSERT_EQ(std::system(("touch -d '2024-03-05 12:00:00' " + path("a2")).c_str()), 0);
  ASSERT_EQ(std::system(("touch -d '2026-12-31 12:00:00' " + path("b2")).c_str()), 0);
  for (const std::string opts : {"-m -k1,3T", "-m --time", "-m --time -u"}) {
    SCOPED_TRACE(opts);
    const Result r = run(opts + " --stats " + path("stats") + " -o " + path("out") + " " + path("b2") + " " + path("a2"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("out")), want);
    EXPECT_NE(read_file(path("stats")).find("\"mode\": \"merge\""), std::string::npos) << read_file(path("stats"));
  }
  ASSERT_EQ(std::system(("gzip -k " + path("b2")).c_str()), 0);
  ASSERT_EQ(std::system(("touch -d '2026-12-31 12:00:00' " + path("b2.gz")).c_str()), 0);
  const Result r = run("-m --time -o " + path("out") + " " + path("a2") + " " + path("b2.gz"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), want);
}

// Instants written by GNU date, for tests whose reference order is date's:
// the epochs, sorted and distinct, in `file` as `date -f` reads them; then
// date's line for each in `zone` with `form`, between `before` and `after`,
// tagged " e=" and the epoch (11 digits, so that tags sort as numbers);
// shuffled into one text.
struct DatedLines {
  std::vector<std::int64_t> epochs;
  std::string text;
};
DatedLines dated_lines(std::vector<std::int64_t> epochs, const std::string& file, const std::string& zone,
                       const std::string& form, const std::string& before, const std::string& after,
                       std::mt19937_64& rng) {
  std::sort(epochs.begin(), epochs.end());
  epochs.erase(std::unique(epochs.begin(), epochs.end()), epochs.end());
  std::string at;
  for (const std::int64_t e : epochs) at += "@" + std::to_string(e) + "\n";
  write_file(file, at);
  const std::string dates = command_output("TZ=" + zone + " date -f " + file + " '+" + form + "'");
  std::vector<std::string> lines;
  std::size_t k = 0;
  for (std::size_t b = 0, e; (e = dates.find('\n', b)) != std::string::npos && k < epochs.size(); b = e + 1, ++k)
    lines.push_back(before + dates.substr(b, e - b) + after + " e=" + std::to_string(10'000'000'000LL + epochs[k]));
  std::shuffle(lines.begin(), lines.end(), rng);
  DatedLines d{std::move(epochs), {}};
  if (lines.size() != d.epochs.size()) return d;  // date wrote too few: the caller's size check fails
  for (const std::string& l : lines) d.text += l + "\n";
  return d;
}

// The tags of a sorted output's lines, in its order.
std::vector<std::string> tags_in(const std::string& out) {
  std::vector<std::string> tags;
  for (std::size_t b = 0, e; (e = out.find('\n', b)) != std::string::npos; b = e + 1)
    tags.push_back(out.substr(out.find("e=", b) + 2, 11));
  return tags;
}

// Timestamps with a zone abbreviation, as GNU date writes them (date(1)'s
// own form, and PostgreSQL's log prefix %m) in two zones, every ten minutes
// within three hours of each change of 2025 and 2026 and at random times
// between: sorted by --time in that zone, their instants (each line's e=)
// come out in order; the repeated hour of autumn, written once with the
// summer abbreviation and once with the winter one, included.
TEST_F(Lines, ZoneAbbreviationsOrderTheRepeatedHour) {
  std::mt19937_64 rng(30);
  std::vector<std::int64_t> epochs;
  for (const std::int64_t change : {1743296400LL, 1761440400LL, 1774746000LL, 1792890000LL,   // Europe
                                    1741503600LL, 1762063200LL, 1772953200LL, 1793512800LL})  // America
    for (std::int64_t m = -180; m <= 180; m += 10) epochs.push_back(change + m * 60 + static_cast<std::int64_t>(rng() % 600));
  for (int i = 0; i < 300; ++i) epochs.push_back(1735689600 + static_cast<std::int64_t>(rng() % (2 * 365 * 86400)));
  for (const char* zone : {"Europe/Berlin", "America/New_York"})
    for (const char* form : {"%a %b %e %T %Z %Y", "%F %T.%3N %Z"}) {
      SCOPED_TRACE(std::string(zone) + " " + form);
      const DatedLines d = dated_lines(epochs, path("epochs"), zone, form, "", " LOG:", rng);
      ASSERT_FALSE(d.text.empty());
      write_file(path("in"), d.text);
      const Result r = run(std::string("--time --time-zone ") + zone + " -o " + path("out") + " " + path("in"));
      ASSERT_EQ(r.status, 0) << r.err;
      const std::vector<std::string> got = tags_in(read_file(path("out")));
      ASSERT_EQ(got.size(), d.epochs.size());
      EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
    }
}

// Kubernetes' klog lines (yearless: --time-year dates them) and Redis's day
// month year, as GNU date writes them from random instants of 2026: sorted by
// --time, their instants (each line's e=) come out in order.
TEST_F(Lines, KlogAndRedisLinesInTheirInstantsOrder) {
  std::mt19937_64 rng(31);
  std::vector<std::int64_t> epochs;
  for (int i = 0; i < 400; ++i) epochs.push_back(1767225600 + static_cast<std::int64_t>(rng() % (364 * 86400)));
  struct Form {
    const char* date, *before, *after;
  };
  for (const Form form : {Form{"I%m%d %H:%M:%S.%6N", "", "   4242 main.go:42] synced"},
                          Form{"%e %b %Y %H:%M:%S.%3N", "1:M ", " * DB saved on disk"}}) {
    SCOPED_TRACE(form.date);
    const DatedLines d = dated_lines(epochs, path("epochs"), "UTC", form.date, form.before, form.after, rng);
    ASSERT_FALSE(d.text.empty());
    write_file(path("in"), d.text);
    const Result r = run("--time --time-year 2026 -o " + path("out") + " " + path("in"));
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<std::string> got = tags_in(read_file(path("out")));
    ASSERT_EQ(got.size(), d.epochs.size());
    EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
  }
}

}  // namespace
