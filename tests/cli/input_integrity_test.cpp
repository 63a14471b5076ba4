// What corank reads back is what it read or wrote, or the sort fails: exit 2,
// one line naming what went wrong, no output, no temporary file left.
//  - A spilled run that reads back short: a --compress-program whose `-d`
//    returns half of what it was given, for text and binary records.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

using corank::test::read_file;
using corank::test::Result;
using corank::test::write_file;

class InputIntegrity : public corank::test::CorankTest {
protected:
  // An executable script at `name` running `body` (sh).
  std::string script(const std::string& name, const std::string& body) {
    const std::string p = path(name);
    write_file(p, "#!/bin/sh\n" + body);
    fs::permissions(p, fs::perms::owner_all);
    return p;
  }
  // Exit 2 with exactly one line, which contains `what`; no output, nothing left in tmp/.
  void expect_refused(const Result& r, const std::string& what, const std::string& out) {
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("corank: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    for (const auto& e : fs::directory_iterator(dir_))
      EXPECT_EQ(e.path().filename().string().find(".corank-"), std::string::npos) << e.path();
  }
};

// PROG -d decompresses, then gives back the first half of the bytes and
// exits 0: only counting what comes back can tell.
TEST_F(InputIntegrity, ARunThatAProgramGivesBackHalfOfIsRefused) {
  const std::string half = script(
      "half", "if [ \"$1\" = -d ]; then t=" + path("d") + ".$$; gzip -dc > \"$t\"; n=$(stat -c %s \"$t\");\n"
              "  head -c $((n / 2)) \"$t\"; rm -f \"$t\"; exit 0; fi\nexec gzip -c -1\n");
  std::mt19937_64 rng(11);
  std::stringstream lines;
  for (int i = 0; i < 1500; ++i) lines << "w" << rng() % 1000 << " line " << i << '\n';
  write_file(path("lines"), lines.str());
  std::string recs(4000 * 100, '\0');
  for (auto& b : recs) b = static_cast<char>(rng());
  write_file(path("recs"), recs);
  for (const char* args : {"-S 200K", "-S 200K -u -k1,1", "--format gensort -S 1M"}) {
    SCOPED_TRACE(args);
    const std::string in = std::string(args).find("gensort") != std::string::npos ? path("recs") : path("lines");
    expect_refused(run(std::string(args) + " --compress-program=" + half + " -T " + path("tmp") + " -o " +
                       path("out") + " " + in),
                   "read failed: temporary file: run ended early", path("out"));
  }
  // The same program giving back everything: the sort goes through.
  const std::string whole = script("whole", "if [ \"$1\" = -d ]; then exec gzip -dc; fi\nexec gzip -c -1\n");
  ASSERT_EQ(corank("-S 200K --compress-program=" + whole + " -T " + path("tmp") + " -o " + path("out") + " " +
                   path("lines")),
            0);
  std::vector<std::string> want;
  for (std::string line; std::getline(lines, line);) want.push_back(line + '\n');
  std::sort(want.begin(), want.end());
  std::string sorted;
  for (const auto& l : want) sorted += l;
  EXPECT_TRUE(read_file(path("out")) == sorted);
}

}  // namespace
