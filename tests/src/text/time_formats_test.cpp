#include "corank/text/time_formats.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace corank::text {
namespace {

// The names of the formats detected, the one that reads the most lines first.
std::string detected(std::vector<std::string_view> lines) {
  const auto formats = known_time_formats();
  std::string names;
  for (int f : detect_formats(formats, lines, 0.2)) names += (names.empty() ? "" : " ") + std::string(formats[static_cast<std::size_t>(f)].name);
  return names.empty() ? "none" : names;
}

// Each format's example line is detected as that format, the more specific
// ones winning over those that also match a part of them.
TEST(TimeFormats, DetectsEachFormat) {
  EXPECT_EQ(detected({"2026-11-25T11:15:01.003Z web GET /", "2026-11-25T11:15:02Z web GET /"}), "iso8601");
  EXPECT_EQ(detected({"2026-11-25 11:15:01,123 INFO [main] App - started"}), "iso8601");
  EXPECT_EQ(detected({"<165>1 2026-11-25T11:15:01.003Z host app 1 ID47 - msg"}), "iso8601");
  EXPECT_EQ(detected({"10.0.0.1 - - [25/Nov/2026:12:15:01 +0100] \"GET / HTTP/1.1\" 200 5"}), "common-log");
  EXPECT_EQ(detected({"Nov 25 11:15:01 host sshd[42]: Accepted"}), "syslog");
  EXPECT_EQ(detected({"2026/11/25 11:15:01 [error] 7#7: *1 open() failed"}), "go-nginx-error");
  EXPECT_EQ(detected({"[Wed Nov 25 11:15:01.123456 2026] [core:error] [pid 1] AH00124"}), "apache-error");
  EXPECT_EQ(detected({"Date: Wed, 25 Nov 2026 11:15:01 +0100"}), "rfc2822");
  EXPECT_EQ(detected({"1795605301.123 GET /"}), "epoch");
  EXPECT_EQ(detected({"1:M 25 Nov 2026 11:15:01.123 * Ready to accept connections"}), "day-month-year");
  EXPECT_EQ(detected({"I1125 11:15:01.123456   12345 main.go:42] started", "E0105 01:02:03.000001 7 x.go:1] e"}), "klog");
  EXPECT_EQ(detected({"Wed Nov 25 11:15:01 CET 2026 backup done"}), "apache-error");
  EXPECT_EQ(detected({"2026-11-25 11:15:01.123 CET [42] LOG:  statement"}), "iso8601");
  EXPECT_EQ(detected({"no", "times", "here 42"}), "none");
  EXPECT_EQ(detected({}), "none");
}

// The format of most lines comes first; another one is kept where it reads a
// share of the lines (logs concatenated into one file), else dropped.
TEST(TimeFormats, MostLinesWinAndMixedFilesKeepEach) {
  EXPECT_EQ(detected({"1795605301 boot", "Nov 25 11:15:01 h a", "Nov 25 11:15:02 h b"}), "syslog epoch");
  std::vector<std::string_view> mixed(10, "Nov 25 11:15:01 h a");
  mixed.insert(mixed.end(), 4, "[Wed Nov 25 11:15:01 2026] [core:error] x");
  EXPECT_EQ(detected(mixed), "syslog apache-error");  // syslog's pattern inside Apache's lines does not hide them
  mixed.push_back("2026-11-25T11:15:01Z x");
  EXPECT_EQ(detected(mixed), "syslog apache-error");  // 1 in 15: below the share asked for
  // A number counts as a time only where the line has no other timestamp.
  EXPECT_EQ(detected({"req 1795605301999 at 2026-11-25T11:15:01Z", "req 1795605302999 at 2026-11-25T11:15:02Z"}),
            "iso8601");
}

TEST(TimeFormats, FindFirstTakesTheEarliestPosition) {
  const auto formats = known_time_formats();
  std::vector<const TimePattern*> all;
  for (const auto& f : formats) all.push_back(&f.pattern);
  TimeHit hit;
  ASSERT_TRUE(find_first(all, "id=1795605301 at 2026-11-25T11:15:01Z", hit));
  EXPECT_EQ(hit.begin, 17u);  // not the epoch number before it
  ASSERT_TRUE(find_first(all, "id=1795605301 at noon", hit));
  EXPECT_EQ(hit.begin, 3u);  // a number, where nothing else is
  ASSERT_TRUE(find_first(all, "[Wed Nov 25 11:15:01 2026] x", hit));
  EXPECT_EQ(hit.begin, 1u);  // Apache's, not syslog's within it
  EXPECT_EQ(hit.time.year, 2026);
  EXPECT_FALSE(find_first(all, "", hit));
}

}  // namespace
}  // namespace corank::text
