// End-to-end tests of the corank command on files of every kind: compressed
// inputs, outputs and temporary runs, a memory file system, an input that
// goes bad late, output targets as GNU sort writes them, and peak memory
// against -S.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "../asan_build.hpp"

using namespace corank::test::cli;

namespace {

// Reads a compressed gensort file back through corank itself: sorting sorted
// records is the identity (the io tests check the codecs against the real tools).
int decompress_with_corank(const std::string& compressed, const std::string& plain) {
  return run_corank("--format gensort -o " + plain + " " + compressed).status;
}

TEST_F(Cli, CompressedInputAndOutput) {
  auto recs = gensort_records(20000, 12);
  write_file(path("in"), recs.data(), recs.size() * 100);
  ASSERT_EQ(std::system(("gzip -c " + path("in") + " > " + path("in.gz")).c_str()), 0);
  for (const char* budget : kBudgets) {
    Result r = run_corank(std::string("--format gensort ") + budget + " -o " + path("out.zst") + " " + path("in.gz"));
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_EQ(decompress_with_corank(path("out.zst"), path("out")), 0);
    EXPECT_TRUE(read_as<Rec>(path("out")) == stable_sorted(recs)) << budget;
    // --verify re-reads the compressed output it wrote.
    r = run_corank(std::string("--format gensort --verify ") + budget + " -o " + path("out.zst") + " " + path("in.gz"));
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_EQ(decompress_with_corank(path("out.zst"), path("out")), 0);
    EXPECT_TRUE(read_as<Rec>(path("out")) == stable_sorted(recs)) << budget;
  }
  // Corrupt compressed input: a clear error, no output.
  auto gz = read_bytes(path("in.gz"));
  gz.resize(gz.size() / 2);
  write_file(path("cut.gz"), gz.data(), gz.size());
  Result r = run_corank("--format gensort -o " + path("never") + " " + path("cut.gz"));
  expect_clean_failure(*this, r, "cut.gz");
  EXPECT_FALSE(fs::exists(path("never")));
}

// On a memory file system the in-memory plans map their input instead of
// reading it and build the output straight in a shared mapping of it (records
// gathered, or words turned back into records): the same bytes as through the
// write-behind sink, and -u's shorter output cut to size. (A full file system
// there: Faults.FullMemoryFileSystemLeavesTheOldTarget.)
TEST_F(Cli, InMemorySortOnAMemoryFileSystem) {
  char tmpl[] = "/dev/shm/corank-cli-test-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr) << "a memory file system at /dev/shm";
  const fs::path shm = tmpl;
  const corank::test::RemoveOnExit remove_shm(shm);
  auto recs = gensort_records(20000, 21, 7);
  const std::string in = (shm / "in").string(), out = (shm / "out").string();
  write_file(in, recs.data(), recs.size() * 100);
  const auto want = stable_sorted(recs);
  std::vector<Rec> unique;
  for (const auto& r : want)
    if (unique.empty() || std::memcmp(unique.back().data(), r.data(), 10) != 0) unique.push_back(r);
  write_file(path("in"), recs.data(), recs.size() * 100);
  {
    // Out of the page cache, where the file system allows it: read, not mapped.
    const int fd = ::open(path("in").c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  for (const std::string& input : {in, path("in")}) {
    Result r = run_corank("--format gensort -v --verify -o " + out + " " + input);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_as<Rec>(out) == want) << input;
    EXPECT_NE(r.err.find("output: records gathered into a shared mapping"), std::string::npos) << r.err;
    if (input == in) EXPECT_NE(r.err.find("input: in memory already, mapped"), std::string::npos) << r.err;
    r = run_corank("--format gensort -u --verify -o " + out + " " + input);  // the mapping cut to what -u kept
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_as<Rec>(out) == unique) << input;
  }
  // One-key records, sorted as words: mapped in, built in place in the output.
  std::mt19937_64 rng(23);
  std::vector<std::uint64_t> words(30000);
  for (auto& w : words) w = rng() % 5000;
  write_file(in, words.data(), words.size() * 8);
  for (const char* args : {"--format u64", "--format u64 -u", "--format u32 -r"}) {
    Result r = run_corank(std::string(args) + " -v --verify -o " + out + " " + in);
    ASSERT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_NE(r.err.find("input: in memory already, mapped"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("output: records made in a shared mapping"), std::string::npos) << r.err;
    std::vector<std::uint64_t> want64 = words;
    std::sort(want64.begin(), want64.end());
    if (std::string(args) == "--format u32 -r") {
      std::vector<std::uint32_t> want32(words.size() * 2);
      std::memcpy(want32.data(), words.data(), words.size() * 8);
      std::sort(want32.begin(), want32.end(), std::greater<>());
      EXPECT_TRUE(read_as<std::uint32_t>(out) == want32) << args;
      continue;
    }
    if (std::string(args) == "--format u64 -u") want64.erase(std::unique(want64.begin(), want64.end()), want64.end());
    EXPECT_TRUE(read_as<std::uint64_t>(out) == want64) << args;
  }
}

}  // namespace

namespace {

TEST_F(Cli, CompressedTemporaryRuns) {
  for (int distinct : {256, 3}) {
    auto recs = gensort_records(20000, 21 + distinct, distinct);
    write_file(path("in"), recs.data(), recs.size() * 100);
    auto want = stable_sorted(recs);
    for (const char* budget : {"-S 2M", "-S 256K", "-S 48K"}) {
      for (const char* codec : {"--compress-temp", "--compress-temp=gzip"}) {
        Result r = run_corank(std::string("--format gensort ") + budget + " " + codec + " -T " + path("tmp") +
                              " -o " + path("out") + " " + path("in"));
        ASSERT_EQ(r.status, 0) << budget << codec << ": " << r.err;
        EXPECT_TRUE(read_as<Rec>(path("out")) == want) << budget << " " << codec << " distinct " << distinct;
      }
    }
  }
  Result u = run_corank("--format gensort -u -S 64K --compress-temp -o " + path("out") + " " + path("in"));
  ASSERT_EQ(u.status, 0) << u.err;
  // As in GNU tools, an optional argument attaches with '=' only: a bare
  // --compress-temp leaves the next word to be a file.
  Result bare = run_corank("--format gensort -S 64K -T " + path("tmp") + " -o " + path("out") + " --compress-temp " +
                           path("in"));
  ASSERT_EQ(bare.status, 0) << bare.err;
  EXPECT_EQ(read_as<Rec>(path("out")).size(), 20000u);
  EXPECT_EQ(entries(), (std::vector<std::string>{"in", "out", "tmp"}));
}

}  // namespace

namespace {

// A bad input after good ones: the error comes while runs are spilled or being
// written, in every plan. Each case exits 2 with one line naming the bad file,
// leaves no temporary output or run file and creates no output.
TEST_F(Cli, LaterBadInputFailsCleanlyInEveryPlan) {
  auto recs = gensort_records(3000, 31);
  write_file(path("good"), recs.data(), recs.size() * 100);
  std::vector<char> noise(4000);
  std::mt19937 rng(5);
  for (auto& c : noise) c = static_cast<char>(rng());
  write_file(path("rand.zst"), noise.data(), noise.size());
  ASSERT_EQ(std::system(("gzip -c " + path("good") + " > " + path("good.gz")).c_str()), 0);
  auto gz = read_bytes(path("good.gz"));
  gz.resize(gz.size() / 2);
  write_file(path("cut.gz"), gz.data(), gz.size());
  std::vector<char> odd(100 * 300 + 7, 'z');
  write_file(path("odd"), odd.data(), odd.size());
  fs::remove(path("good.gz"));

  const auto before = entries();
  for (const char* bad : {"rand.zst", "cut.gz", "odd"}) {
    for (const char* budget : {"", "-S 128K", "-S 16K", "-S 4K"}) {
      for (const std::string& inputs :
           {path("good") + " " + path(bad), path("good") + " " + path("good") + " " + path(bad),
            path(bad) + " " + path("good")}) {
        SCOPED_TRACE(std::string(budget) + " " + inputs);
        Result r = run_corank(std::string("--format gensort ") + budget + " -T " + path("tmp") + " -o " +
                              path("out") + " " + inputs);
        expect_clean_failure(*this, r, bad);
        EXPECT_EQ(entries(), before);
      }
    }
  }
}

}  // namespace

namespace {

// -o as GNU sort has it: a device or FIFO is written into, a symlink is
// followed, a hard link, the mode and the owner are kept, a writable file in
// an unwritable directory is written; the rename stays for plain files.
TEST_F(Cli, OutputTargetsAreWrittenAsGnuSortWrites) {
  std::string text, sorted;
  std::vector<std::string> lines;
  for (int i = 0; i < 2000; ++i) lines.push_back(std::to_string(i * 7919 % 2000));
  for (const auto& l : lines) text += l + "\n";
  std::sort(lines.begin(), lines.end());
  for (const auto& l : lines) sorted += l + "\n";
  write_file(path("in"), text.data(), text.size());
  auto content = [&](const std::string& p) {
    auto v = read_bytes(p);
    return std::string(v.begin(), v.end());
  };
  struct stat st {};

  Result r = run_corank("-o /dev/null " + path("in"));
  EXPECT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  expect_clean_failure(*this, run_corank("-o /dev/full " + path("in")), "/dev/full: No space left on device");
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  expect_clean_failure(*this, run_corank("--format u32 --verify -o /dev/null " + path("in")), "regular file");

  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  ASSERT_EQ(std::system(("cat " + path("fifo") + " > " + path("from-fifo") + " &").c_str()), 0);
  r = run_corank("-o " + path("fifo") + " " + path("in"));
  EXPECT_EQ(r.status, 0) << r.err;
  for (int i = 0; i < 200 && content(path("from-fifo")).size() < sorted.size(); ++i) ::usleep(10000);
  EXPECT_EQ(content(path("from-fifo")), sorted);
  ASSERT_EQ(::lstat(path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));

  write_file(path("real"), "old\n", 4);
  fs::create_symlink(path("real"), path("link"));
  r = run_corank("-o " + path("link") + " " + path("in"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("link")));
  EXPECT_EQ(content(path("real")), sorted);

  write_file(path("h1"), "old\n", 4);
  fs::create_hard_link(path("h1"), path("h2"));
  r = run_corank("-o " + path("h1") + " " + path("h1") + " " + path("in"));  // the target is an input too
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::hard_link_count(path("h1")), 2u);
  std::vector<std::string> all(lines);
  all.push_back("old");
  std::sort(all.begin(), all.end());
  std::string want_h;
  for (const auto& l : all) want_h += l + "\n";
  EXPECT_EQ(content(path("h2")), want_h);

  write_file(path("mode"), "old\n", 4);
  ASSERT_EQ(::chmod(path("mode").c_str(), 0640), 0);
  r = run_corank("-o " + path("mode") + " " + path("in"));
  EXPECT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(::stat(path("mode").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(content(path("mode")), sorted);

  // A new file: 0666 less the umask.
  ASSERT_EQ(std::system(("umask 077 && " + corank_bin() + " -o " + path("new077") + " " + path("in")).c_str()), 0);
  ASSERT_EQ(::stat(path("new077").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  for (const auto& e : entries()) EXPECT_EQ(e.find(".corank-"), std::string::npos) << e;  // no temporary left
}

// As root: the owner of the target is kept, and a user who may write the
// file but not its directory gets it written (in place), as with GNU sort.
TEST_F(Cli, OutputOwnerAndUnwritableDirectory) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to change owners";
  if (std::system("command -v setpriv > /dev/null") != 0) GTEST_SKIP() << "needs setpriv (util-linux)";
  write_file(path("in"), "b\na\n", 4);
  write_file(path("owned"), "old\n", 4);
  ASSERT_EQ(::chown(path("owned").c_str(), 65534, 65534), 0);
  Result r = run_corank("-o " + path("owned") + " " + path("in"));
  EXPECT_EQ(r.status, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(path("owned").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 65534u);
  EXPECT_EQ(read_bytes(path("owned")), std::vector<char>({'a', '\n', 'b', '\n'}));

  // nobody may write ro/f but not ro/. The binary is copied where nobody may run it.
  fs::create_directories(path("ro"));
  write_file(path("ro/f"), "old\n", 4);
  ASSERT_EQ(::chmod(path("ro/f").c_str(), 0666), 0);
  ASSERT_EQ(::chmod(path("ro").c_str(), 0555), 0);
  ASSERT_EQ(::chmod(path("in").c_str(), 0644), 0);
  fs::copy_file(corank_bin(), path("corank"));
  ASSERT_EQ(::chmod(path("corank").c_str(), 0755), 0);
  ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);
  const std::string cmd = "setpriv --reuid=65534 --regid=65534 --clear-groups " + path("corank") + " -o " +
                          path("ro/f") + " " + path("in") + " 2>" + path("err");
  EXPECT_EQ(std::system(cmd.c_str()), 0) << read_bytes(path("err")).data();
  EXPECT_EQ(read_bytes(path("ro/f")), std::vector<char>({'a', '\n', 'b', '\n'}));
  ASSERT_EQ(::chmod(path("ro").c_str(), 0755), 0);
}

}  // namespace

namespace {

// Runs corank with argv (no shell) and returns its peak resident memory in
// bytes (wait4's ru_maxrss), or -1 when it did not exit 0.
long long peak_rss_of(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  std::string bin = corank_bin();
  argv.push_back(bin.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage ru {};
  if (::wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return static_cast<long long>(ru.ru_maxrss) * 1024;
}

// -S counts everything the sort holds (arrays, engine buffers, the process's
// own memory): peak RSS stays within 10% of the budget, for binary records in
// memory and spilled, words-only records and text lines.
TEST_F(Cli, PeakMemoryStaysWithinTheBudget) {
#ifdef CORANK_TEST_ASAN
  GTEST_SKIP() << "under AddressSanitizer its shadow memory and quarantine are resident too";
#endif
  {
    // In a scope: a child's ru_maxrss starts from the RSS of the process that
    // forked it, so the test's own copy of the data is freed first.
    auto recs = gensort_records(400000, 21);  // 40 MB
    write_file(path("g"), recs.data(), recs.size() * sizeof(Rec));
    std::vector<std::uint64_t> words(5000000);  // 40 MB
    std::mt19937_64 rng(3);
    for (auto& w : words) w = rng();
    write_file(path("u"), words.data(), words.size() * 8);
    std::string text;
    for (std::size_t i = 0; i < 600000; ++i) text += std::to_string(rng()) + " line " + std::to_string(i) + "\n";
    write_file(path("t"), text.data(), text.size());
  }
  struct Case {
    const char* budget;
    std::vector<std::string> args;
  };
  const std::vector<Case> cases = {
      {"64M", {"--format", "gensort", path("g")}},  // in memory
      {"24M", {"--format", "gensort", path("g")}},  // spilled
      {"64M", {"--format", "u64", path("u")}},      // in memory
      {"24M", {"--format", "u64", path("u")}},      // spilled
      // Text on two threads: with more, its run formation still overshoots
      // small budgets (a known gap, see BENCHMARKS.md, "Peak memory against -S").
      {"24M", {"--parallel", "2", path("t")}},       // text, spilled
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"-S", c.budget, "-T", path("tmp"), "-o", path("out")};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const long long rss = peak_rss_of(args);
    const long long budget = std::stoll(c.budget) << 20;
    ASSERT_GT(rss, 0) << "-S " << c.budget << " " << c.args[0];
    EXPECT_LE(rss, budget + budget / 10) << "-S " << c.budget << " " << c.args[0] << ": peak RSS " << rss;
  }
}

}  // namespace
