#include "corank/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>

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
