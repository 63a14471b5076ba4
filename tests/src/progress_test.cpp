#include "corank/progress.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace corank {
namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s.push_back(static_cast<char>(c));
  return s;
}

TEST(Progress, AShorterLineBlanksWhatTheLongerOneLeft) {
  EXPECT_EQ(redraw_sequence("ETA 0:05", 0), "\rETA 0:05");
  EXPECT_EQ(redraw_sequence("ETA 0:05", 10), "\rETA 0:05  ");
  EXPECT_EQ(redraw_sequence("ETA 10:05", 3), "\rETA 10:05");
}

// Every redraw starts with a carriage return and is at least as wide as the
// drawing it covers, so that a shorter line leaves no stale characters.
TEST(Progress, EachRedrawCoversThePreviousLine) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p(true, f);
    p.phase("sort", 1000);
    p.advance(999);  // at most one drawing per 200 ms; finish() draws the last
    p.finish();
    p.phase("merge", 0);  // no total: a shorter line without the bar
    p.advance(1);
    p.finish();
  }
  const std::string out = contents(f);
  std::fclose(f);
  std::size_t lines = 0;
  for (std::size_t start = 0; start < out.size();) {
    std::size_t end = out.find('\n', start);
    ASSERT_NE(end, std::string::npos) << "each phase's line ends: " << out;
    const std::string line = out.substr(start, end - start);
    ++lines;
    std::size_t widest = 0, at = 0;
    while ((at = line.find('\r', at)) != std::string::npos) {
      const std::size_t next = line.find('\r', at + 1);
      const std::size_t w = (next == std::string::npos ? line.size() : next) - at - 1;
      EXPECT_GE(w, widest) << line;
      widest = std::max(widest, w);
      at = next == std::string::npos ? line.size() : next;
    }
    EXPECT_GT(widest, 0u);
    start = end + 1;
  }
  EXPECT_EQ(lines, 2u);
  EXPECT_NE(out.find("ETA"), std::string::npos) << out;
  EXPECT_NE(out.find("100%"), std::string::npos) << out;
}

// Figures a drawing may show: totals unknown, small and huge, nothing moved
// yet, halfway, done, and an ETA of days.
std::vector<ProgressFigures> sample_figures() {
  std::vector<ProgressFigures> out;
  const std::uint64_t tib = std::uint64_t{1} << 40;
  for (std::string_view phase : {"sort", "merge", "a-long-phase-name"})
    for (std::uint64_t total : {std::uint64_t{0}, std::uint64_t{1000}, 700 * tib})
      for (std::uint64_t done : {std::uint64_t{0}, total / 2, total, std::uint64_t{999}})
        for (double seconds : {0.0, 0.5, 1e6}) out.push_back({phase, done, total, seconds});
  return out;
}

TEST(Progress, EveryLineIsNarrowerThanItsTerminal) {
  for (const ProgressFigures& f : sample_figures())
    for (std::size_t columns = 2; columns <= 160; ++columns) {
      const std::string line = progress_line(f, columns);
      ASSERT_LT(line.size(), columns) << line;
      ASSERT_FALSE(line.empty());
      // The phase is the last part to go, cut only where it alone is too wide.
      if (columns > f.phase.size() + 5) EXPECT_NE(line.find(f.phase), std::string::npos) << columns << ": " << line;
    }
}

// What is shown, from the widest terminals to the narrowest.
TEST(Progress, NarrowerTerminalsShowLess) {
  const ProgressFigures f{"sort", 600 << 20, 1000 << 20, 3.0};
  EXPECT_EQ(progress_line(f, 120),
            "corank: sort     [##############..........]  60% 600.0 MiB/1000.0 MiB 200.0 MiB/s ETA 0:02");
  EXPECT_EQ(progress_line(f, 80), "corank: sort     [######....]  60% 600.0 MiB/1000.0 MiB 200.0 MiB/s ETA 0:02");
  EXPECT_EQ(progress_line(f, 60), "corank: sort      60% 600.0 MiB/1000.0 MiB ETA 0:02");
  EXPECT_EQ(progress_line(f, 50), "corank: sort      60% ETA 0:02");
  EXPECT_EQ(progress_line(f, 40), "corank: sort      60% ETA 0:02");
  EXPECT_EQ(progress_line(f, 30), "corank: sort  60% ETA 0:02");
  EXPECT_EQ(progress_line(f, 20), "sort  60% ETA 0:02");
  EXPECT_EQ(progress_line(f, 10), "sort  60%");
  EXPECT_EQ(progress_line(f, 5), "sort");
  const ProgressFigures unknown{"merge", 3 << 20, 0, 1.0};
  EXPECT_EQ(progress_line(unknown, 80), "corank: merge    3.0 MiB 3.0 MiB/s");
  EXPECT_EQ(progress_line(unknown, 30), "corank: merge    3.0 MiB");
  EXPECT_EQ(progress_line(unknown, 20), "merge 3.0 MiB");
}

// A phase keeps its layout while its figures change (no bar that comes and
// goes), as long as the ETA stays under an hour.
TEST(Progress, APhaseKeepsItsLayout) {
  for (std::size_t columns : {40, 50, 60, 70, 80, 100}) {
    std::vector<std::size_t> shape;
    for (std::uint64_t done = 0; done <= 1000; done += 50) {
      const std::string line = progress_line({"merge", done << 20, std::uint64_t{1000} << 20, 30.0}, columns);
      auto has = [&line](const char* part) { return std::size_t{line.find(part) != std::string::npos}; };
      const std::vector<std::size_t> parts{has("corank:"), line.find(']'), has("/1000.0 MiB"), has("B/s"), has("ETA")};
      if (shape.empty()) shape = parts;
      EXPECT_EQ(parts, shape) << columns << ": " << line;
    }
  }
}

// Without a terminal, $COLUMNS, else 80.
TEST(Progress, TheWidthWithoutATerminal) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  const char* saved = std::getenv("COLUMNS");
  const std::string keep = saved ? saved : "";
  ::setenv("COLUMNS", "57", 1);
  EXPECT_EQ(terminal_columns(::fileno(f)), 57u);
  for (const char* bad : {"", "abc", "0", "12x", "-3"}) {
    ::setenv("COLUMNS", bad, 1);
    EXPECT_EQ(terminal_columns(::fileno(f)), 80u) << bad;
  }
  ::unsetenv("COLUMNS");
  EXPECT_EQ(terminal_columns(::fileno(f)), 80u);
  if (saved) ::setenv("COLUMNS", keep.c_str(), 1);
  std::fclose(f);
}

TEST(Progress, ADisabledDisplayWritesNothing) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p(false, f);
    p.phase("sort", 10);
    p.advance(10);
    p.finish();
  }
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}

}  // namespace
}  // namespace corank
