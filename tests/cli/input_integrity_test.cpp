// What corank reads back is what it read or wrote, or the sort fails: exit 2,
// one line naming what went wrong, no output, no temporary file left.
//  - A spilled run that reads back short: a --compress-program whose `-d`
//    returns half of what it was given, for text and binary records.
//  - Standard input and pipes: text is decompressed where the stream begins
//    with a compressed stream's whole header, and only there (a line may begin
//    "BZh5"); binary records are read as they are, whatever their first bytes.
//  - A compressed input that ends inside a record gives its sizes as they are:
//    decompressed, and compressed.
//  - A file of /proc, whose size says 0, is read to its end.
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
using corank::test::run_shell;
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
  // GNU sort's output for `args`, in the C locale.
  std::string gnu(const std::string& args) {
    EXPECT_EQ(run_shell("LC_ALL=C sort " + args + " > " + path("gnu.out"), dir_ / "gnu.err").status, 0);
    return read_file(path("gnu.out"));
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

// Lines that begin as a bzip2, gzip, xz or zstd stream's magic does, but not
// with the whole header, are lines.
TEST_F(InputIntegrity, LinesThatBeginLikeACompressedStreamAreText) {
  write_file(path("in"), std::string("BZh5 is a line\nzebra\nBZh91AY&S is not a block\n(\xb5/\xfd\x08\n\x1f\x8b\x07\n"));
  const std::string want = gnu(path("in"));
  const std::string bin = corank::test::corank_bin(), in = path("in");
  for (const std::string& cmd : {"cat " + in + " | " + bin, bin + " " + in, bin + " < " + in}) {
    SCOPED_TRACE(cmd);
    const Result r = run_shell(cmd + " > " + path("out"), dir_ / "err");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_file(path("out")) == want);
  }
}

// Text piped in compressed by gzip, bzip2, xz or zstd (empty too) is decompressed.
TEST_F(InputIntegrity, CompressedTextOnAPipeIsDecompressed) {
  std::string lines;
  for (int i = 0; i < 3000; ++i) lines += "k" + std::to_string(i * 7919 % 3001) + "\n";
  write_file(path("in"), lines);
  write_file(path("empty"), "");
  const std::string want = gnu(path("in"));
  for (const std::string tool : {"gzip", "bzip2", "xz", "zstd -q"}) {
    SCOPED_TRACE(tool);
    // A machine without one of the programs still tests the others.
    if (std::system(("command -v " + tool.substr(0, tool.find(' ')) + " > /dev/null 2>&1").c_str()) != 0) continue;
    for (const auto& [in, expected] : {std::pair{path("in"), want}, std::pair{path("empty"), std::string()}}) {
      const Result r = run_shell(std::string(tool) + " -c < " + in + " | " + corank::test::corank_bin() + " > " +
                                     path("out"),
                                 dir_ / "err");
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("out")) == expected) << in;
    }
  }
}

// A stream with a whole compressed header that does not decompress is a
// damaged one: an error that says how it was recognized.
TEST_F(InputIntegrity, ARecognizedStreamThatDoesNotDecompressIsAnError) {
  std::string junk(5000, '\0');
  std::mt19937 rng(3);
  for (auto& c : junk) c = static_cast<char>('a' + rng() % 26);
  write_file(path("junk"), "BZh91AY&SY" + junk);
  const Result r = run_shell("cat " + path("junk") + " | " + corank::test::corank_bin() + " -o " + path("out"), dir_ / "err");
  expect_refused(r, "read failed: -: corrupt or truncated bzip2 stream (recognized by its first bytes)", path("out"));
}

// Binary records through a pipe are never taken for a compressed stream:
// u64 559903 is 1f 8b 08 00 00 00 00 00 in little-endian order, a gzip header.
TEST_F(InputIntegrity, BinaryRecordsOnAPipeAreReadAsTheyAre) {
  const std::uint64_t words[] = {559903, 7, 3};
  write_file(path("in"), words, sizeof words);
  const Result r = run_shell("cat " + path("in") + " | " + corank::test::corank_bin() + " --format u64 > " + path("out"),
                             dir_ / "err");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::uint64_t sorted[] = {3, 7, 559903};
  EXPECT_EQ(read_file(path("out")), std::string(reinterpret_cast<const char*>(sorted), sizeof sorted));
  // gensort records whose first begins with a whole gzip header.
  std::string recs(3 * 100, 'x');
  recs.replace(0, 10, std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10));
  recs[100] = 'a';
  recs[200] = 'B';
  write_file(path("recs"), recs);
  const Result g = run_shell("cat " + path("recs") + " | " + corank::test::corank_bin() + " --format gensort > " +
                                 path("out"),
                             dir_ / "err");
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_EQ(read_file(path("out")), recs.substr(0, 100) + recs.substr(200, 100) + recs.substr(100, 100));
}

TEST_F(InputIntegrity, ACompressedInputEndingInsideARecordGivesItsSizes) {
  std::string recs(5000 * 100 + 7, 'y');
  write_file(path("in.dat"), recs);
  ASSERT_EQ(run_shell("gzip -c " + path("in.dat") + " > " + path("in.dat.gz"), dir_ / "err").status, 0);
  const auto stored = std::to_string(fs::file_size(path("in.dat.gz")));
  for (const char* budget : {"", "-S 64K "}) {
    SCOPED_TRACE(budget);
    expect_refused(run(std::string("--format gensort ") + budget + "-T " + path("tmp") + " -o " + path("out") + " " +
                       path("in.dat.gz")),
                   "corank: " + path("in.dat.gz") + ": size 500007 decompressed (" + stored +
                       " compressed) is not a multiple of the record size 100\n",
                   path("out"));
  }
}

TEST_F(InputIntegrity, AFileOfProcIsReadToItsEnd) {
  const std::string file = "/proc/self/limits";  // corank's and sort's alike: both inherit them
  const std::string want = gnu(file);
  ASSERT_FALSE(want.empty());
  ASSERT_EQ(corank(file + " -o " + path("out")), 0);
  EXPECT_EQ(read_file(path("out")), want);
}

}  // namespace
