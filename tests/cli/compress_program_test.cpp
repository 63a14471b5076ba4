// --compress-program=PROG for a program corank has no codec for: spilled runs
// go through PROG and come back through `PROG -d`, as in GNU sort. The
// programs here are shell scripts that log each start and pipe through gzip,
// so a run that did not go through them would not decompress, and the log
// shows both directions ran. Errors (PROG missing, not executable, failing
// either way) exit 2 with one line and leave neither output nor temporaries.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <array>
#include <cstring>
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
using corank::test::run_shell;
using corank::test::write_file;

class CompressProgram : public corank::test::CorankTest {
protected:
  void SetUp() override {
    CorankTest::SetUp();
    // 20000 gensort records (2 MB): spilled as many runs under -S 256K.
    std::mt19937_64 rng(7);
    std::string recs(20000 * 100, '\0');
    for (auto& b : recs) b = static_cast<char>(rng());
    write_file(path("recs"), recs);
    // 3000 lines of words and numbers, spilled under -S 4K.
    std::ostringstream lines;
    for (int i = 0; i < 3000; ++i) lines << "w" << rng() % 500 << ' ' << rng() % 1000 << " line " << i << '\n';
    write_file(path("lines"), lines.str());
  }

  // An executable script at `name` running `body` (sh), with its log at name.log.
  std::string script(const std::string& name, const std::string& body) {
    const std::string p = path(name);
    write_file(p, "#!/bin/sh\n" + body);
    fs::permissions(p, fs::perms::owner_all);
    return p;
  }
  // A compressor that logs "c" or "d" for each start, then gzips or gunzips.
  std::string logging_gzip(const std::string& name = "pack") {
    return script(name, "if [ \"$1\" = -d ]; then echo d >> " + path(name) + ".log; exec gzip -dc; fi\n"
                        "[ $# -eq 0 ] || exit 9\necho c >> " + path(name) + ".log\nexec gzip -c -1\n");
  }
  // How many times the script logged `what`.
  long starts(const std::string& name, char what) {
    const std::string log = read_file(path(name) + ".log");
    return std::count(log.begin(), log.end(), what);
  }
  Result gnu(const std::string& args) { return run_shell("LC_ALL=C sort " + args, dir_ / "gnu.err"); }

  // No output, no temporary output beside it, no run left in tmp/.
  void expect_nothing_left(const std::string& out) {
    EXPECT_FALSE(fs::exists(out));
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    for (const auto& e : fs::directory_iterator(dir_))
      EXPECT_EQ(e.path().filename().string().find(".corank-"), std::string::npos) << e.path();
  }
};

TEST_F(CompressProgram, BinaryRunsGoThroughProgramAndBack) {
  const std::string prog = logging_gzip();
  ASSERT_EQ(corank("--format gensort -S 256K -T " + path("tmp") + " -o " + path("want") + " " + path("recs")), 0);
  std::string err;
  ASSERT_EQ(corank("--format gensort -S 256K -v --compress-program=" + prog + " -T " + path("tmp") + " -o " +
                       path("got") + " " + path("recs"),
                   &err),
            0)
      << err;
  EXPECT_NE(err.find("spill"), std::string::npos) << err;
  EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
  EXPECT_GE(starts("pack", 'c'), 2);
  EXPECT_EQ(starts("pack", 'd'), starts("pack", 'c'));  // every run read back once
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
}

TEST_F(CompressProgram, TextRunsGoThroughProgramAndBack) {
  const std::string prog = logging_gzip();
  corank::test::Sweep sweep;
  for (const char* opts : {"", "-k2,2n -k1,1", "-u -k1,1", "-s -k3,3"}) {
    const char* const budgets[] = {"-S 4K --parallel 1", "-S 300K --parallel 3"};
    for (std::size_t b = 0; b < std::size(budgets); ++b) {
      if (!sweep.takes(b, std::size(budgets))) continue;
      const char* budget = budgets[b];
      SCOPED_TRACE(std::string(opts) + " " + budget);
      fs::remove(path("pack.log"));
      ASSERT_EQ(gnu(std::string(opts) + " " + path("lines") + " > " + path("want")).status, 0);
      std::string err;
      ASSERT_EQ(corank(std::string(opts) + " " + budget + " -v --compress-program=" + prog + " -T " + path("tmp") +
                           " " + path("lines") + " > " + path("got"),
                       &err),
                0)
          << err;
      EXPECT_NE(err.find("spilled"), std::string::npos) << err;
      EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
      EXPECT_GE(starts("pack", 'c'), 2);
      EXPECT_EQ(starts("pack", 'd'), starts("pack", 'c'));
      EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    }
    sweep.next();
  }
}

// lz4 (tools/setup.sh installs it), a real compressor corank has no codec for.
TEST_F(CompressProgram, Lz4) {
  if (std::system("command -v lz4 > /dev/null 2>&1") != 0) GTEST_SKIP() << "lz4 is not installed";
  ASSERT_EQ(gnu(path("lines") + " > " + path("want")).status, 0);
  std::string err;
  ASSERT_EQ(corank("-S 4K -v --compress-program=lz4 -T " + path("tmp") + " " + path("lines") + " > " + path("got"), &err),
            0)
      << err;
  EXPECT_NE(err.find("spilled"), std::string::npos) << err;
  EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
  ASSERT_EQ(corank("--format gensort -S 256K --compress-program=lz4 -T " + path("tmp") + " -o " + path("got") + " " +
                       path("recs"),
                   &err),
            0)
      << err;
  ASSERT_EQ(corank("--format gensort -S 256K -T " + path("tmp") + " -o " + path("want") + " " + path("recs")), 0);
  EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
}

// Small inputs sort in memory: PROG never runs, so even a missing one is no
// error (GNU's behaviour: PROG is only looked for when a run spills).
TEST_F(CompressProgram, NeverRunWithoutSpill) {
  const std::string prog = logging_gzip();
  write_file(path("small"), "b\na\nc\n");
  for (const std::string& p : {prog, path("missing")}) {
    SCOPED_TRACE(p);
    ASSERT_EQ(corank("--compress-program=" + p + " -o " + path("out") + " " + path("small")), 0);
    EXPECT_EQ(read_file(path("out")), "a\nb\nc\n");
    ASSERT_EQ(gnu("--compress-program=" + p + " " + path("small") + " > " + path("want")).status, 0);
    EXPECT_EQ(read_file(path("want")), "a\nb\nc\n");
  }
  EXPECT_FALSE(fs::exists(path("pack.log")));
}

// The programs corank has a codec for are not run, even when PATH has another.
TEST_F(CompressProgram, KnownNamesUseBuiltInCodec) {
  fs::create_directories(dir_ / "bin");
  logging_gzip("bin/gzip");
  std::string err;
  ASSERT_EQ(corank("--format gensort -S 256K --compress-program=gzip -T " + path("tmp") + " -o " + path("out") + " " +
                       path("recs"),
                   &err),
            0)
      << err;
  Result r = run_shell("PATH=" + path("bin") + ":$PATH " + corank::test::corank_bin() +
                           " -S 4K --compress-program=gzip -T " + path("tmp") + " " + path("lines") + " > " +
                           path("out"),
                       dir_ / "err");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(path("bin/gzip.log")));
}

// One line naming the program and why, exit 2, no output, no temporaries:
// for binary records and for lines, whichever direction fails.
TEST_F(CompressProgram, FailingProgramExitsTwo) {
  struct Case {
    const char* name;
    const char* body;
    const char* message;
  };
  const Case cases[] = {
      {"eat", "cat > /dev/null\nexit 3\n", "': terminated abnormally (exit status 3)"},
      {"quit", "exit 5\n", "': terminated abnormally (exit status 5)"},  // without reading: a broken pipe
      {"killed", "kill -9 $$\n", "': terminated abnormally (killed by signal 9"},
      {"undo", "if [ \"$1\" = -d ]; then exit 4; fi\nexec gzip -c\n", " -d': terminated abnormally (exit status 4)"},
      {"garble", "if [ \"$1\" = -d ]; then exec gzip -dc; fi\nexec cat\n", " -d': terminated abnormally"},
  };
  for (const Case& c : cases) {
    const std::string prog = script(c.name, c.body);
    const std::string want = "corank: compress program: '" + prog + c.message;
    for (const std::string& input :
         {"--format gensort -S 256K " + path("recs"), "-S 4K --parallel 1 " + path("lines"),
          "-S 300K --parallel 3 " + path("lines")}) {
      SCOPED_TRACE(std::string(c.name) + ": " + input);
      Result r = run("--compress-program=" + prog + " -T " + path("tmp") + " -o " + path("out") + " " + input);
      EXPECT_EQ(r.status, 2);
      EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
      expect_nothing_left(path("out"));
    }
  }
  // GNU sort exits 2 as well for a program that fails after reading its input.
  EXPECT_EQ(gnu("-S 4K --compress-program=" + path("eat") + " -T " + path("tmp") + " " + path("lines") +
                " > /dev/null")
                .status,
            2);
}

// A PROG that cannot be run is reported when the first run spills.
TEST_F(CompressProgram, MissingOrNotExecutableProgram) {
  write_file(path("plain"), "not a program\n");
  fs::permissions(path("plain"), fs::perms::owner_read | fs::perms::owner_write);
  const std::pair<std::string, std::string> cases[] = {
      {path("missing"), "No such file or directory"},
      {"corank-no-such-program", "No such file or directory"},
      {path("plain"), "Permission denied"},
      {path("tmp"), "Permission denied"},
  };
  for (const auto& [prog, why] : cases) {
    for (const std::string& input : {"--format gensort -S 256K " + path("recs"), "-S 4K " + path("lines")}) {
      SCOPED_TRACE(prog + ": " + input);
      Result r = run("--compress-program=" + prog + " -T " + path("tmp") + " -o " + path("out") + " " + input);
      EXPECT_EQ(r.status, 2);
      EXPECT_EQ(r.err, "corank: couldn't execute compress program: '" + prog + "': " + why + "\n");
      expect_nothing_left(path("out"));
    }
  }
}

TEST_F(CompressProgram, OneProgramOnly) {
  write_file(path("small"), "b\na\n");
  Result r = run("--compress-program=a --compress-program=b " + path("small"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "corank: multiple compress programs specified\n");
  EXPECT_EQ(gnu("--compress-program=a --compress-program=b " + path("small")).status, 2);
  EXPECT_EQ(corank("--compress-program=a --compress-program=a " + path("small") + " > /dev/null"), 0);
}

}  // namespace
