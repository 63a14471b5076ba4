// corank's command line against GNU sort's: --files0-from's lists, usage
// errors (exit 2, one line, corank's name) and GNU's messages for a bad
// command line word for word, -S's sizes as GNU reads them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "lines_test_util.hpp"

namespace {

using namespace corank::test::lines;

TEST_F(Lines, Files0From) {
  write_file(path("a"), "3\n1\n");
  write_file(path("b"), "2\n");
  write_file(path("list"), path("a") + '\0' + path("b") + '\0');
  Result r = run("--files0-from=" + path("list") + " -o " + path("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "1\n2\n3\n");
  EXPECT_EQ(run("--files0-from=" + path("list") + " " + path("a")).status, 2);
  // As GNU's: "-" among the names, from any file, and a list that cannot be
  // read are errors (exit 2, one line each, GNU's words).
  write_file(path("dash"), path("a") + '\0' + "-" + '\0');
  fs::create_directories(path("dir"));
  for (const std::string& list : {path("dash"), path("dir")}) {
    const Result bad = run("--files0-from=" + list + " -o " + path("out") + " < " + path("b"));
    EXPECT_EQ(bad.status, 2) << list;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    EXPECT_EQ(gnu("--files0-from=" + list + " < " + path("b") + " > /dev/null").status, 2) << list;
  }
  EXPECT_NE(run("--files0-from=" + path("dash")).err.find("no file name of '-' allowed"), std::string::npos);
  EXPECT_NE(run("--files0-from=" + path("dir")).err.find("cannot read file names from '" + path("dir") + "'"),
            std::string::npos);
  // One that does not open is GNU's "open failed".
  EXPECT_EQ(run("--files0-from=" + path("a") + "/x").err,
            "corank: open failed: " + path("a") + "/x: Not a directory\n");
  EXPECT_EQ(gnu("--files0-from=" + path("a") + "/x").err, "sort: open failed: " + path("a") + "/x: Not a directory\n");
}

TEST_F(Lines, UsageErrorsExitTwoWithOneLine) {
  write_file(path("in"), "x\n");
  // GNU rejects these too (exit 2); corank also refuses -R, which it does not implement,
  // and the options of the binary formats.
  for (const char* opts : {"-k0", "-k1.0", "-k1,0", "-kx", "-k1,1z", "-nM", "-dn", "-k1,1nV", "-t ab"}) {
    SCOPED_TRACE(opts);
    EXPECT_EQ(gnu(std::string(opts) + " " + path("in") + " > /dev/null").status, 2);
  }
  for (const char* opts : {"-k0", "-k1.0", "-k1,0", "-kx", "-k1,1z", "-nM", "-dn", "-k1,1nV", "-t ab",
                           "-Rn", "-k4,5nT", "-k1,1TV", "-k1,1RT", "--sort=bogus", "--batch-size=1", "+1 -2x",
                           "--format gensort -n", "--format u32 -k2,2", "--verify", "--gpu=yes",
                           "--compress-temp=lz4", "--compress-program=a --compress-program=b"}) {
    SCOPED_TRACE(opts);
    Result r = run(std::string(opts) + " " + path("in") + " -o " + path("out"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("corank: ", 0), 0u) << r.err;
    EXPECT_FALSE(fs::exists(path("out")));
  }
  Result missing = run(path("missing") + " -o " + path("out"));
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("missing"), std::string::npos);
  EXPECT_FALSE(fs::exists(path("out")));
}

// A bad command line gets GNU sort's message, word for word (getopt's and
// sort's own), with corank's name. (Not -S 1Q: coreutils 9.4 knows the Q
// suffix and calls it too large; 9.1 calls it an invalid suffix, as corank does.)
TEST_F(Lines, BadCommandLinesGetGnusMessages) {
  write_file(path("in"), "x\n");
  for (const char* opts : {"--bogus", "-x", "-k", "-k1.x", "-k1,x", "-k0", "+1 -2x", "+1 -x", "--sort=bogus",
                           "-S x", "--parallel=x", "--parallel=0", "-t ab", "-t ''", "-t a -t b",
                           "-c -C", "-o a -o b", "-nM", "-k1,1Rn", "--check=bogus",
                           "--random-source=a --random-source=b", "--batch-size=x", "--sort", "-S 16E", "-S 1Z",
                           "-S 1p", "-S 99999999999999999999", "-S 100000000000%"}) {
    SCOPED_TRACE(opts);
    Result g = gnu(std::string(opts) + " " + path("in") + " > /dev/null");
    Result r = run(std::string(opts) + " " + path("in") + " > /dev/null");
    ASSERT_NE(g.status, 0);
    EXPECT_EQ(r.status, 2);  // GNU exits 1 after a bad --sort or --check value; corank's errors are all 2
    std::string want = g.err;
    auto replace_all = [&](const std::string& from, const std::string& to) {
      for (std::size_t at = 0; (at = want.find(from, at)) != std::string::npos; at += to.size()) want.replace(at, from.size(), to);
    };
    replace_all("\nsort: ", "\ncorank: ");
    replace_all("Try 'sort --help'", "Try 'corank --help'");
    if (want.starts_with("sort: ")) want.replace(0, 4, "corank");
    replace_all("  - 'random'\n", "  - 'random'\n  - 'time'\n");  // --sort's one word of corank's own
    EXPECT_EQ(r.err, want);
  }
  // Sizes that GNU reads as xstrtoumax does: blanks and a plus sign first;
  // a minus sign or a blank before the suffix are errors for both.
  for (const char* size : {" 1K", "+1K", " +64K", "\t2M"}) {
    const std::string opts = "-S '" + std::string(size) + "' " + path("in");
    EXPECT_EQ(gnu(opts + " > /dev/null").status, 0) << size;
    EXPECT_EQ(run(opts + " > /dev/null").status, 0) << size;
  }
  for (const char* size : {"-1K", "1 K", "+"}) {
    const std::string opts = "-S '" + std::string(size) + "' " + path("in");
    EXPECT_EQ(gnu(opts + " > /dev/null").status, 2) << size;
    EXPECT_EQ(run(opts + " > /dev/null").status, 2) << size;
  }
}

// Solaris's -y [digits], which GNU accepts and ignores: a separate argument
// that is not all digits is an operand; -y last wants its argument.
TEST_F(Lines, SolarisYIsIgnoredAsGnuIgnoresIt) {
  write_file(path("in"), "b\na\n");
  for (const std::string& args : {"-y " + path("in"), "-y 100 " + path("in"), "-y0 " + path("in"), "-y '' " + path("in")}) {
    const Result g = gnu(args + " > " + path("want"));
    const Result r = run(args + " > " + path("got"));
    EXPECT_EQ(g.status, 0) << args;
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_EQ(read_file(path("got")), read_file(path("want"))) << args;
  }
  EXPECT_EQ(gnu(path("in") + " -y > /dev/null").status, 2);
  EXPECT_EQ(run(path("in") + " -y > /dev/null").status, 2);
}

}  // namespace
