// Log lines whose times a first reading gets wrong, each against its true
// order written out by hand (the instants in each comment): a number after a
// time that is not its UTC offset, an attached offset out of range, JSON
// logs whose first time-like member is not their time, stack trace lines
// that name an id or a date, CRLF and a byte order mark around positional
// keys, a CRLF file's last multi-line record, a leap second, a number in one
// file's line that another file's format would read, a stream's JSON time
// member, terminal colours.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "lines_test_util.hpp"

namespace {

using namespace corank::test::lines;

class TimePitfalls : public Lines {
protected:
  // corank ARGS on `text`: its output. Every line (every record's first)
  // read a time: none sorts first for want of one.
  std::string sorted_by(const std::string& args, const std::string& text) {
    write_file(path("in"), text);
    const Result r = run(args + " -o " + path("out") + " " + path("in"));
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_EQ(r.err.find("had no time"), std::string::npos) << args << ": " << r.err;
    return read_file(path("out"));
  }
};

// An offset attached to a time but out of range ("+99:99", "+2400", which
// Python's datetime.fromisoformat refuses) leaves the time unread, counted
// and sorted first, rather than read as if it had no offset; 09:00 UTC
// before 10:30+01:00 (09:30 UTC), and the two unread lines by their bytes.
TEST_F(TimePitfalls, AnAttachedOffsetOutOfRangeIsNoTime) {
  write_file(path("in"), "2026-01-01T10:00:00+99:99 a\n2026-01-01T09:00:00Z b\n2026-01-01T08:00:00+2400 c\n"
                         "2026-01-01T10:30:00+01:00 d\n");
  for (const char* key : {"--time", "-k1,1T"}) {
    const Result r = run(std::string(key) + " -o " + path("out") + " " + path("in"));
    ASSERT_EQ(r.status, 0) << key << ": " << r.err;
    EXPECT_NE(r.err.find("2 of 4 lines had no time"), std::string::npos) << key << ": " << r.err;
    EXPECT_EQ(read_file(path("out")), "2026-01-01T08:00:00+2400 c\n2026-01-01T10:00:00+99:99 a\n"
                                      "2026-01-01T09:00:00Z b\n2026-01-01T10:30:00+01:00 d\n")
        << key;
  }
}

// A signed number after a blank is an offset only with its minutes and a
// word's end after it; "-05" attached to the time is one even where a colon
// follows it.
TEST_F(TimePitfalls, NumbersAfterATimeAreNotItsOffset) {
  // 08:00, 09:00, 10:00 UTC: -12.5 and +14.0 are readings, not offsets.
  EXPECT_EQ(sorted_by("--time",
                      "2026-01-10 10:00:00 +14.0 C\n2026-01-10 08:00:00 -12.5 C\n2026-01-10 09:00:00 -3.0 C\n"),
            "2026-01-10 08:00:00 -12.5 C\n2026-01-10 09:00:00 -3.0 C\n2026-01-10 10:00:00 +14.0 C\n");
  // "+12 C" is a temperature: 07:00 UTC before 08:00 UTC (as an offset, 20:00 the day before).
  EXPECT_EQ(sorted_by("--time", "2026-01-10 08:00:00 +12 C\n2026-01-10 07:00:00 +0000 ref\n"),
            "2026-01-10 07:00:00 +0000 ref\n2026-01-10 08:00:00 +12 C\n");
  // z/OS is no zone: 01:50 in Berlin is 23:50 UTC the day before, before 01:00 UTC.
  EXPECT_EQ(sorted_by("--time --time-zone Europe/Berlin",
                      "2026-10-25 01:00:00+00:00 ref\n2026-10-25 01:50:00 z/OS job started\n"),
            "2026-10-25 01:50:00 z/OS job started\n2026-10-25 01:00:00+00:00 ref\n");
  // 05:15:01-05 is 10:15:01 UTC, after 09:00 UTC.
  EXPECT_EQ(sorted_by("--time", "2026-11-25T05:15:01-05: late\n2026-11-25T09:00:00Z: early\n"),
            "2026-11-25T09:00:00Z: early\n2026-11-25T05:15:01-05: late\n");
  // Offsets with their minutes after a blank still count: 11:00+01:00 is 10:00 UTC.
  EXPECT_EQ(sorted_by("--time", "2026-11-25 11:00:00 +0100: a\n2026-11-25 10:30:00 +00:00 b\n"),
            "2026-11-25 11:00:00 +0100: a\n2026-11-25 10:30:00 +00:00 b\n");
}

// The member that JSON logs name for their time wins over an earlier one
// whose value looks like a time (a duration in nanoseconds, a creation date).
TEST_F(TimePitfalls, JsonTimeMemberByItsName) {
  const std::string a = R"({"level":"info","duration_ns":1500000000,"time":"2026-11-25T11:15:01Z","msg":"a"})";
  const std::string b = R"({"level":"info","duration_ns":250000000,"time":"2026-11-25T11:15:03Z","msg":"b"})";
  const std::string c = R"({"level":"info","duration_ns":900000000,"time":"2026-11-25T11:15:02Z","msg":"c"})";
  const Result v = [&] {
    write_file(path("in"), a + "\n" + b + "\n" + c + "\n");
    return run("--time -v -o " + path("out") + " " + path("in"));
  }();
  ASSERT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(read_file(path("out")), a + "\n" + c + "\n" + b + "\n");
  EXPECT_NE(v.err.find("each read at its member \"time\""), std::string::npos) << v.err;
  const std::string x = R"({"created_at":"2020-01-01T00:00:00Z","ts":"2026-11-25T11:15:02Z","id":1})";
  const std::string y = R"({"created_at":"2019-01-01T00:00:00Z","ts":"2026-11-25T11:15:03Z","id":2})";
  const std::string z = R"({"created_at":"2021-01-01T00:00:00Z","ts":"2026-11-25T11:15:01Z","id":3})";
  EXPECT_EQ(sorted_by("--time", x + "\n" + y + "\n" + z + "\n"), z + "\n" + x + "\n" + y + "\n");
}

// An id or a date inside a stack trace's line does not start a record.
TEST_F(TimePitfalls, StackTraceLinesWithNumbersAndDatesStayWithTheirEntry) {
  const std::string error = "2026-11-25 11:15:03 ERROR insert failed\n"
                            "PSQLException: Key (id)=(1732531201) already exists.\n"
                            "\tat org.postgresql.Foo(Foo.java:1)\n"
                            "LicenseException: license expired on 2026-11-20\n";
  const std::string a = "2026-11-25 11:15:01 INFO a\n", b = "2026-11-25 11:15:02 INFO b\n";
  EXPECT_EQ(sorted_by("--multiline", error + a + b), a + b + error);
  // Lines that begin with an epoch number are entries of their own.
  EXPECT_EQ(sorted_by("--multiline", "1795605303 c\n  more of c\n1795605301 a\n1795605302 b\n"),
            "1795605301 a\n1795605302 b\n1795605303 c\n  more of c\n");
}

// A positional key that ends a CRLF line, and one after a byte order mark.
TEST_F(TimePitfalls, CrlfAndByteOrderMarkAroundPositionalKeys) {
  EXPECT_EQ(sorted_by("-k3,3T",
                      "a x 2026-11-25T11:15:03Z\r\nb x 2026-11-25T11:15:01Z\r\nc x 2026-11-25T11:15:02Z\r\n"),
            "b x 2026-11-25T11:15:01Z\r\nc x 2026-11-25T11:15:02Z\r\na x 2026-11-25T11:15:03Z\r\n");
  EXPECT_EQ(sorted_by("-k1,1T", "\xEF\xBB\xBF" "2026-11-25T11:15:03Z a\n2026-11-25T11:15:01Z b\n"),
            "2026-11-25T11:15:01Z b\n\xEF\xBB\xBF" "2026-11-25T11:15:03Z a\n");
}

// A CRLF file's last record without its line ending gets CR LF, under
// --multiline too, where no record's end is known until the line after it:
// the file's first line decides, from a pipe and from a file, whole records
// of several lines and of one.
TEST_F(TimePitfalls, CrlfLastRecordOfMultilineRecords) {
  const std::string two = "2026-11-25 10:00:02 b\r\n2026-11-25 10:00:01 a";
  for (const char* args : {"--multiline", "--time", "--multiline -S 1M"})
    EXPECT_EQ(sorted_by(args, two), "2026-11-25 10:00:01 a\r\n2026-11-25 10:00:02 b\r\n") << args;
  EXPECT_EQ(sorted_by("--multiline", "2026-11-25 10:00:02 b\r\n\tat x\r\n2026-11-25 10:00:01 a\r\n\tat y"),
            "2026-11-25 10:00:01 a\r\n\tat y\r\n2026-11-25 10:00:02 b\r\n\tat x\r\n");
  write_file(path("pipe"), two);
  const Result r = run("--multiline -o " + path("out") + " < " + path("pipe"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "2026-11-25 10:00:01 a\r\n2026-11-25 10:00:02 b\r\n");
}

// A format that only a file's last lines use (an nginx error log appended to
// a log4j one): found in a small file, whose lines are all looked at, and in
// a larger one, whose last window ends at its end. Each line is at a distinct
// second, the appended ones after all others: the input comes sorted, and
// stays so only where the appended lines' times are read (unread, they would
// sort first).
TEST_F(TimePitfalls, AFormatOfTheLastLinesAloneIsFound) {
  for (const int first : {200, 40000}) {
    std::string text;
    for (int i = 0; i < first; ++i) {
      char line[96];
      std::snprintf(line, sizeof line, "2026-11-25 %02d:%02d:%02d,000 INFO app - req %d\n", i / 3600, i / 60 % 60,
                    i % 60, i);
      text += line;
    }
    const int appended = first / 50;  // 2% of the lines
    for (int j = 0; j < appended; ++j) {
      char line[96];
      std::snprintf(line, sizeof line, "2026/11/25 23:%02d:%02d [error] 1#0: *%d upstream timed out\n", j / 60, j % 60,
                    j);
      text += line;
    }
    EXPECT_TRUE(sorted_by("--time", text) == text) << first << " lines: the appended ones not read";
  }
  // A block of another format inside the first 64 KiB of a larger file, past
  // its first 200 lines, found by the windows spread over the whole file.
  std::string text;
  const auto add = [&](const char* form, int h, int i) {
    char line[96];
    std::snprintf(line, sizeof line, form, h, i / 60 % 60, i % 60, i);
    text += line;
  };
  int i = 0;
  for (; i < 300; ++i) add("2026-11-25 %02d:%02d:%02d,000 INFO app - req %d\n", 10 + i / 3600, i);
  for (int j = 0; text.size() < 60000; ++j) add("Nov 25 %02d:%02d:%02d host app[1]: msg %d\n", 14 + j / 3600, j);
  for (int k = 0; text.size() < 200000; ++k) add("2026-11-25 %02d:%02d:%02d,000 INFO app - req %d\n", 18 + k / 3600, k);
  EXPECT_TRUE(sorted_by("--time", text) == text) << "the block inside the first 64 KiB not read";
}

// RFC 2822's zone names: 01:30 EST on 2026-11-01, the repeated hour in New
// York, is 06:30 UTC (01:30 EDT would be 05:30), after 06:00 UTC. RFC 2822
// fixes EST as -0500 (and EDT, CST, CDT, MST, MDT, PST, PDT), so under the
// default UTC too, without a warning; another abbreviation (CET) is named.
TEST_F(TimePitfalls, Rfc2822ZoneNames) {
  const std::string text = "Sun, 01 Nov 2026 01:30:00 EST a\nSun, 01 Nov 2026 06:00:00 +0000 b\n";
  const std::string want = "Sun, 01 Nov 2026 06:00:00 +0000 b\nSun, 01 Nov 2026 01:30:00 EST a\n";
  EXPECT_EQ(sorted_by("--time --time-zone America/New_York", text), want);
  write_file(path("in"), text);
  Result r = run("--time -o " + path("out") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(path("out")), want);
  // 20:00 PDT is 03:00 UTC the next day, after 02:00 UTC.
  EXPECT_EQ(sorted_by("-k1,6T", "Mon, 02 Nov 2026 20:00:00 PDT a\nTue, 03 Nov 2026 02:00:00 GMT b\n"),
            "Tue, 03 Nov 2026 02:00:00 GMT b\nMon, 02 Nov 2026 20:00:00 PDT a\n");
  write_file(path("in"), "Wed, 25 Nov 2026 11:15:01 CET a\n");
  r = run("--time -o " + path("out") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("followed by CET"), std::string::npos) << r.err;
}

// 23:59:60.5 lies between 23:59:59.9 and the next day's 00:00:00.1.
TEST_F(TimePitfalls, LeapSecondBeforeMidnight) {
  EXPECT_EQ(sorted_by("--time",
                      "2017-01-01T00:00:00.100Z after\n2016-12-31T23:59:60.500Z leap\n2016-12-31T23:59:59.900Z before\n"),
            "2016-12-31T23:59:59.900Z before\n2016-12-31T23:59:60.500Z leap\n2017-01-01T00:00:00.100Z after\n");
}

// Each file is read by its own formats however the sort runs: a stack
// trace's line in a text log that holds an epoch number stays with its entry
// beside a log of epoch times, in one chunk and through spilled runs, with
// -u, and merging (-m). Entry i of a.log is 11:15:00 + 2i s UTC, of b.log
// one second later: the records alternate.
TEST_F(TimePitfalls, ALineIsReadByItsOwnFilesFormatsOnly) {
  std::string a, b, want;
  for (int i = 0; i < 2000; ++i) {
    const int s = 2 * i;
    char entry[160], epoch[64];
    std::snprintf(entry, sizeof entry,
                  "2026-11-25 %02d:%02d:%02d INFO a%d\nKey (id)=(1795605301) already exists, attempt %d\n",
                  11 + (15 * 60 + s) / 3600, (15 * 60 + s) / 60 % 60, s % 60, i, i);
    std::snprintf(epoch, sizeof epoch, "%d b%d\n", 1795605300 + s + 1, i);
    a += entry, b += epoch, want += std::string(entry) + epoch;
  }
  write_file(path("a.log"), a);
  write_file(path("b.log"), b);
  const std::string in = path("a.log") + " " + path("b.log");
  for (const std::string opts : {"", "-S 64K", "-S 64K --parallel 1 --batch-size 2", "-u", "-m"}) {
    const Result r = run("--multiline -v -T " + path("") + " " + opts + " -o " + path("out") + " " + in);
    ASSERT_EQ(r.status, 0) << opts << ": " << r.err;
    EXPECT_TRUE(read_file(path("out")) == want) << opts << ": " << r.err;
    if (opts.starts_with("-S")) EXPECT_NE(r.err.find("groups of inputs"), std::string::npos) << r.err;
  }
}

// Standard input and a pipe are read once: their first lines, read ahead
// and handed back to the sort, name a JSON log's time member (Docker's
// "time", not the first time inside "log") and show a zone abbreviation
// that the zone never uses.
TEST_F(TimePitfalls, AStreamsFirstLinesNameItsJsonTimeMember) {
  const auto line = [](const char* log, int second) {
    return std::string(R"({"log":")") + log + R"(\n","stream":"stdout","time":"2026-10-11T21:00:0)" +
           std::to_string(second) + R"(.000000001Z"})" + "\n";
  };
  const std::string first = line("2026-10-11 23:59:00 app first", 0);
  const std::string second = line("2026-10-11 00:00:01 app second (clock reset)", 1);
  const std::string third = line("no time third", 2);
  const std::string fourth = line("2026-10-11 12:00:00 app fourth", 3);
  write_file(path("in"), fourth + first + third + second);
  const std::string bin = corank_bin() + " --time -v";
  for (const std::string& cmd : {"cat " + path("in") + " | " + bin + " -o " + path("out"),
                                 bin + " -o " + path("out") + " < " + path("in"),
                                 bin + " -o " + path("out") + " - < " + path("in")}) {
    const Result r = run_shell(cmd, path("err"));
    ASSERT_EQ(r.status, 0) << cmd << ": " << r.err;
    EXPECT_EQ(read_file(path("out")), first + second + third + fourth) << cmd;
    EXPECT_NE(r.err.find("-: JSON lines, each read at its member \"time\""), std::string::npos) << r.err;
  }
  write_file(path("sorted"), first + second + third + fourth);
  EXPECT_EQ(run_shell("cat " + path("sorted") + " | " + corank_bin() + " -c --time", path("err")).status, 0);
  const Result z = run_shell("printf '2026-10-11 22:14:15 CET a\\n' | " + corank_bin() + " --time", path("err"));
  ASSERT_EQ(z.status, 0) << z.err;
  EXPECT_NE(z.err.find("-: timestamps followed by CET"), std::string::npos) << z.err;
}

// A timestamp right after a terminal's colour (ESC [ 32 m) begins a word:
// coloured logs sort by their times, and their stack traces stay with their
// entries. 22:14:14 before 22:14:15 before 22:14:16; 11:15:01 before
// 11:15:02; epoch 1795605301 before 1795605302.
TEST_F(TimePitfalls, TimestampsAfterATerminalsColoursAreFound) {
  const std::string a = "\x1b[32m2026-10-11 22:14:15.003\x1b[0m INFO a\n";
  const std::string b = "\x1b[31m2026-10-11 22:14:14.003\x1b[0m ERROR b\n\tat x.y(Z.java:1)\n";
  const std::string c = "\x1b[32m2026-10-11 22:14:16.003\x1b[0m INFO c\n";
  EXPECT_EQ(sorted_by("--multiline", a + b + c), b + a + c);
  EXPECT_EQ(sorted_by("--time", "\x1b[0mNov 25 11:15:02 h b\n\x1b[0mNov 25 11:15:01 h a\n"),
            "\x1b[0mNov 25 11:15:01 h a\n\x1b[0mNov 25 11:15:02 h b\n");
  EXPECT_EQ(sorted_by("--time", "\x1b[1;31m1795605302\x1b[0m b\n\x1b[1;31m1795605301\x1b[0m a\n"),
            "\x1b[1;31m1795605301\x1b[0m a\n\x1b[1;31m1795605302\x1b[0m b\n");
  EXPECT_EQ(sorted_by("--time --time-format '%Y-%m-%d %T%f'", a + c + "\x1b[31m2026-10-11 22:14:14.003\x1b[0m b\n"),
            "\x1b[31m2026-10-11 22:14:14.003\x1b[0m b\n" + a + c);
  // A stray ESC before a bracketed time begins no sequence that swallows it.
  EXPECT_EQ(sorted_by("--time", "\x1b[2026-01-01 12:00:02] b\n\x1b[2026-01-01 12:00:01] a\n"),
            "\x1b[2026-01-01 12:00:01] a\n\x1b[2026-01-01 12:00:02] b\n");
}

// Records of one instant in files of different formats keep the inputs'
// order under -s, and -u keeps the first input's, however the sort runs: a
// (ISO), b (its epoch, 2026-11-25T11:15:01Z), c (ISO) at one instant.
TEST_F(TimePitfalls, TiesAcrossFilesOfOtherFormatsKeepTheInputsOrder) {
  write_file(path("a"), "2026-11-25T11:15:01Z a\n");
  write_file(path("b"), "1795605301 b\n");
  write_file(path("c"), "2026-11-25T11:15:01Z c\n");
  const std::string in = " -o " + path("out") + " " + path("a") + " " + path("b") + " " + path("c");
  for (const std::string opts : {"-s", "-s -m", "-s -S 64K"}) {
    const Result r = run("--time " + opts + in);
    ASSERT_EQ(r.status, 0) << opts << ": " << r.err;
    EXPECT_EQ(read_file(path("out")), "2026-11-25T11:15:01Z a\n1795605301 b\n2026-11-25T11:15:01Z c\n") << opts;
  }
  for (const std::string opts : {"-u", "-u -m"}) {
    const Result r = run("--time " + opts + " -o " + path("out") + " " + path("b") + " " + path("a") + " " + path("c"));
    ASSERT_EQ(r.status, 0) << opts << ": " << r.err;
    EXPECT_EQ(read_file(path("out")), "1795605301 b\n") << opts;
  }
}

}  // namespace
