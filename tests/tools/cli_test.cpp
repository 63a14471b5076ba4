// The command-line surface of corank-gen and corank-validate: exit codes,
// messages, and that the executables agree with each other and with GNU sort.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

class Cli : public ::testing::Test {
protected:
  void SetUp() override {
    const char* bin = std::getenv("CORANK_BIN_DIR");
    if (bin == nullptr) GTEST_SKIP() << "CORANK_BIN_DIR is not set (run through ctest)";
    gen_ = std::string(bin) + "/tools/gen/corank-gen";
    validate_ = std::string(bin) + "/tools/validate/corank-validate";
    bin_path_ = std::string(bin) + "/src:" + bin + "/tools/gen:" + bin + "/tools/validate";
    dir_ = fs::temp_directory_path() / ("corank_cli_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Runs a shell command line; returns its exit status.
  static int sh(const std::string& cmd) {
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  std::string gen_, validate_;
  std::string bin_path_;  // the built corank, corank-gen and corank-validate, for PATH
  fs::path dir_;
};

TEST_F(Cli, GeneratorIsDeterministic) {
  ASSERT_EQ(sh(gen_ + " -n 20k --seed 3 -o " + path("a")), 0);
  ASSERT_EQ(sh(gen_ + " -n 20k --seed 3 > " + path("b")), 0);
  ASSERT_EQ(sh(gen_ + " -n 20k --seed 4 -o " + path("c")), 0);
  EXPECT_EQ(slurp(path("a")).size(), 2'000'000u);
  EXPECT_EQ(slurp(path("a")), slurp(path("b")));
  EXPECT_NE(slurp(path("a")), slurp(path("c")));
}

TEST_F(Cli, StartPiecesConcatenate) {
  const std::string common = " --format gensort-ascii --dist skewed --seed 9";
  ASSERT_EQ(sh(gen_ + common + " -n 30000 -o " + path("whole")), 0);
  ASSERT_EQ(sh(gen_ + common + " -n 12345 -o " + path("p0")), 0);
  ASSERT_EQ(sh(gen_ + common + " -n 17655 --start 12345 -o " + path("p1")), 0);
  EXPECT_EQ(slurp(path("whole")), slurp(path("p0")) + slurp(path("p1")));
}

TEST_F(Cli, BytesOption) {
  ASSERT_EQ(sh(gen_ + " --format u64 --bytes 1M -o " + path("u")), 0);
  EXPECT_EQ(slurp(path("u")).size(), 1u << 20);
  ASSERT_EQ(sh(gen_ + " --bytes 1M -o " + path("g")), 0);  // rounded down to whole 100-byte records
  EXPECT_EQ(slurp(path("g")).size(), 1048500u);
  EXPECT_EQ(sh(gen_ + " --bytes 1M -n 5 2>" + path("err")), 2);
  EXPECT_EQ(slurp(path("err")), "corank-gen: give -n/--records or --bytes, not both\n");
}

TEST_F(Cli, GeneratorUsageErrorsExitTwo) {
  EXPECT_EQ(sh(gen_ + " 2>/dev/null"), 2);  // no size
  EXPECT_EQ(sh(gen_ + " -n 5 --format u16 2>" + path("err")), 2);
  EXPECT_EQ(slurp(path("err")).rfind("corank-gen: unknown format 'u16'", 0), 0u);
  EXPECT_EQ(sh(gen_ + " -n 5 --dist normal 2>/dev/null"), 2);
  EXPECT_EQ(sh(gen_ + " -n 12q 2>/dev/null"), 2);
  EXPECT_EQ(sh(gen_ + " -n 5 --start 18446744073709551615 2>/dev/null"), 2);
  EXPECT_EQ(sh(gen_ + " -n 5 -o " + path("no/such/dir") + " 2>/dev/null"), 2);
  EXPECT_EQ(sh(gen_ + " --help >/dev/null"), 0);
}

TEST_F(Cli, ValidatorExitCodes) {
  ASSERT_EQ(sh(gen_ + " -n 5000 --dist sorted -o " + path("sorted")), 0);
  EXPECT_EQ(sh(validate_ + " " + path("sorted") + " >/dev/null"), 0);
  EXPECT_EQ(sh("cat " + path("sorted") + " | " + validate_ + " - >/dev/null"), 0);
  ASSERT_EQ(sh(gen_ + " -n 5000 -o " + path("random")), 0);
  EXPECT_EQ(sh(validate_ + " " + path("random") + " >" + path("out")), 1);
  EXPECT_NE(slurp(path("out")).find("INVALID"), std::string::npos);
  // Same records, other order: the input check passes, the order check fails.
  EXPECT_EQ(sh(validate_ + " --json --input " + path("sorted") + " " + path("sorted") + " >" + path("json")), 0);
  EXPECT_NE(slurp(path("json")).find("\"valid\":true"), std::string::npos);
  EXPECT_EQ(sh(validate_ + " --input " + path("random") + " " + path("sorted") + " >/dev/null"), 1);
  EXPECT_EQ(sh(validate_ + " --format fixed:7 " + path("sorted") + " 2>/dev/null"), 2);
  EXPECT_EQ(sh(validate_ + " " + path("missing") + " 2>/dev/null"), 2);
  EXPECT_EQ(sh(validate_ + " 2>/dev/null"), 2);
}

TEST_F(Cli, ValidatorRejectsAPartialRecord) {
  ASSERT_EQ(sh(gen_ + " --format u32 -n 10 -o " + path("u32")), 0);
  ASSERT_EQ(sh("head -c 37 " + path("u32") + " > " + path("cut")), 0);
  EXPECT_EQ(sh(validate_ + " --format u32 " + path("cut") + " 2>" + path("err")), 2);
  EXPECT_EQ(slurp(path("err")),
            "corank-validate: " + path("cut") + ": size 37 is not a multiple of the record size 4\n");
}

TEST_F(Cli, AsciiRecordsSortWithGnuSort) {
  if (sh("command -v sort >/dev/null") != 0) GTEST_SKIP() << "no sort(1) here";
  ASSERT_EQ(sh(gen_ + " --format gensort-ascii --dist zipf -n 20000 -o " + path("in")), 0);
  ASSERT_EQ(sh("LC_ALL=C sort " + path("in") + " > " + path("out")), 0);
  EXPECT_EQ(sh(validate_ + " --input " + path("in") + " " + path("out") + " >/dev/null"), 0);
  EXPECT_EQ(sh(validate_ + " -r " + path("out") + " >/dev/null"), 1);
}

// The commands under "Example:" in corank-validate --help run and succeed
// (with 10M records made 2000).
TEST_F(Cli, ValidatorHelpExampleRuns) {
  ASSERT_EQ(sh(validate_ + " --help > " + path("help")), 0);
  std::istringstream help(slurp(path("help")));
  std::string line;
  while (std::getline(help, line) && line != "Example:") {
  }
  int commands = 0;
  while (std::getline(help, line) && !line.empty()) {
    const std::size_t big = line.find("10M");
    if (big != std::string::npos) line.replace(big, 3, "2000");
    EXPECT_EQ(sh("cd " + dir_.string() + " && export PATH=" + bin_path_ + ":$PATH && " + line + " >/dev/null"), 0)
        << line;
    ++commands;
  }
  EXPECT_GT(commands, 0) << "no Example: in corank-validate --help";
}

}  // namespace
