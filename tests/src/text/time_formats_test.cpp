#include "corank/text/time_formats.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <random>
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

std::vector<const TimePattern*> every_format() {
  std::vector<const TimePattern*> all;
  for (const auto& f : known_time_formats()) all.push_back(&f.pattern);
  return all;
}

TEST(TimeFormats, FindFirstTakesTheEarliestPosition) {
  const TimeSearch all(every_format());
  TimeHit hit;
  ASSERT_TRUE(all.find_first("id=1795605301 at 2026-11-25T11:15:01Z", hit));
  EXPECT_EQ(hit.begin, 17u);  // not the epoch number before it
  ASSERT_TRUE(all.find_first("id=1795605301 at noon", hit));
  EXPECT_EQ(hit.begin, 3u);  // a number, where nothing else is
  ASSERT_TRUE(all.find_first("[Wed Nov 25 11:15:01 2026] x", hit));
  EXPECT_EQ(hit.begin, 1u);  // Apache's, not syslog's within it
  EXPECT_EQ(hit.time.year, 2026);
  EXPECT_FALSE(all.find_first("", hit));
}

// The search passes over the positions where no pattern can begin: what it
// finds is what trying every pattern at every word's start finds (written
// out here as the rule says, not as the search does it), for lines of every
// format, their pieces, and noise between.
TEST(TimeFormats, SearchFindsWhatTryingEveryPositionFinds) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  auto reference = [&](const std::vector<const TimePattern*>& patterns, std::string_view line, TimeHit& hit) {
    for (const bool epochs : {false, true})
      for (std::size_t i = 0; i < line.size(); ++i) {
        if (i > 0 && word(line[i - 1])) continue;
        for (const TimePattern* p : patterns) {
          std::size_t end = 0;
          if (p->reads_epoch() != epochs || !p->match(line, i, hit.time, end, false)) continue;
          if (end < line.size() && word(line[end])) continue;
          hit.begin = i, hit.end = end, hit.pattern = p;
          return true;
        }
      }
    return false;
  };
  std::vector<std::string> pieces;
  for (const auto& f : known_time_formats())
    for (std::size_t at = 0, comma; at < f.example.size(); at = comma + 2) {
      comma = f.example.find(", ", at);
      if (comma == std::string_view::npos) comma = f.example.size();
      pieces.emplace_back(f.example.substr(at, comma - at));
    }
  const std::vector<std::string> noise = {"", " ", "x", "[", "-", "10.0.0.1 - - [", "id=42 ", "<165>1 ", "\tat a.b(C.java:12) ",
                                          "Nov", "2026", "25/", "I", "CET "};
  const auto all = every_format();
  std::mt19937_64 random(7);
  std::size_t found = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line;
    for (int k = 0, n = static_cast<int>(random() % 4); k < n; ++k) {
      line += random() % 2 ? noise[random() % noise.size()] : pieces[random() % pieces.size()];
      if (random() % 3 == 0 && !line.empty()) line.erase(random() % line.size(), 1 + random() % 3);
    }
    // A few patterns or all of them, as a file's detected formats are.
    std::vector<const TimePattern*> patterns;
    for (const TimePattern* p : all)
      if (round % 2 == 0 || random() % 3 == 0) patterns.push_back(p);
    TimeHit got, want;
    const bool g = TimeSearch(patterns).find_first(line, got), w = reference(patterns, line, want);
    ASSERT_EQ(g, w) << line;
    if (!w) continue;
    ++found;
    EXPECT_EQ(got.begin, want.begin) << line;
    EXPECT_EQ(got.end, want.end) << line;
    EXPECT_EQ(got.pattern, want.pattern) << line;
  }
  EXPECT_GT(found, 2000u);  // the lines hold timestamps often enough to test the finding
}

}  // namespace
}  // namespace corank::text
