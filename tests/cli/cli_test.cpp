// End-to-end tests of the corank command: real files, real processes, every
// plan (one run, several runs in memory, many spilled runs), every error path.
// References are computed here with std::stable_sort on plain C++ values.
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

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

using corank::test::corank_bin;
using corank::test::read_bytes;
using corank::test::Result;
using corank::test::run_corank;
using corank::test::write_file;

class Cli : public corank::test::CorankTest {
protected:
  // Files left in dir (temporary output names start with '.').
  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    for (auto& e : fs::directory_iterator(dir_ / "tmp")) v.push_back("tmp/" + e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
};

using Rec = std::array<unsigned char, 100>;

std::vector<Rec> gensort_records(std::size_t n, std::uint32_t seed, int distinct_first_bytes = 256) {
  std::mt19937_64 rng(seed);
  std::vector<Rec> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto& b : v[i]) b = static_cast<unsigned char>(rng());
    v[i][0] = static_cast<unsigned char>(v[i][0] % distinct_first_bytes);
    if (distinct_first_bytes < 256) std::memset(v[i].data() + 1, 'k', 9);  // many equal keys
    std::snprintf(reinterpret_cast<char*>(v[i].data() + 12), 20, "%019zu", i);  // record identity
  }
  return v;
}

std::vector<Rec> stable_sorted(std::vector<Rec> v, bool reverse = false) {
  std::stable_sort(v.begin(), v.end(), [&](const Rec& a, const Rec& b) {
    int c = std::memcmp(a.data(), b.data(), 10);
    return reverse ? c > 0 : c < 0;
  });
  return v;
}

template <class T>
std::vector<T> read_as(const fs::path& p) {
  auto bytes = read_bytes(p);
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

// Budgets that force one in-memory plan, and external plans with a few, many
// and very many spilled runs.
const char* const kBudgets[] = {"", "-S 2M", "-S 256K", "-S 48K"};

TEST_F(Cli, GensortEveryBudgetMatchesStableSort) {
  for (int distinct : {256, 3}) {  // uniform and duplicate-heavy keys
    auto recs = gensort_records(20000, 11 + distinct, distinct);
    write_file(path("in"), recs.data(), recs.size() * 100);
    auto want = stable_sorted(recs);
    for (const char* budget : kBudgets) {
      Result r = run_corank(std::string("--format gensort ") + budget + " -T " + path("tmp") + " -o " + path("out") +
                            " " + path("in"));
      ASSERT_EQ(r.status, 0) << budget << ": " << r.err;
      auto got = read_as<Rec>(path("out"));
      ASSERT_EQ(got.size(), want.size()) << budget;
      EXPECT_TRUE(got == want) << "budget '" << budget << "' distinct " << distinct;
    }
  }
  EXPECT_EQ(entries(), (std::vector<std::string>{"in", "out", "tmp"}));
}

// Each spilled run holds a descriptor. Under a limit of 64 open files (soft
// and hard, so corank cannot raise it) a budget that cuts the input into
// thousands of runs merges them early, within the budget, instead of failing
// with "Too many open files": u64 words at -S 4K, and gensort records.
TEST_F(Cli, TinyBudgetUnderALowOpenFileLimit) {
  std::mt19937_64 rng(41);
  std::vector<std::uint64_t> words(50000);
  for (auto& w : words) w = rng() % 100000;
  write_file(path("u"), words.data(), words.size() * 8);
  std::sort(words.begin(), words.end());
  auto recs = gensort_records(10000, 43);
  write_file(path("g"), recs.data(), recs.size() * 100);
  for (const char* engine : {"", " --io-engine pread"}) {
    Result r = corank::test::run_shell(corank::test::under_open_file_limit(64, corank_bin() + " --format u64 -S 4K" +
                                                                                 engine + " -T " + path("tmp") +
                                                                                 " -o " + path("out") + " " + path("u")),
                                       dir_ / "err");
    ASSERT_EQ(r.status, 0) << engine << ": " << r.err;
    EXPECT_TRUE(read_as<std::uint64_t>(path("out")) == words) << engine;
    r = corank::test::run_shell(corank::test::under_open_file_limit(64, corank_bin() + " --format gensort -S 4K" +
                                                                          engine + " -T " + path("tmp") + " -o " +
                                                                          path("out") + " " + path("g")),
                                dir_ / "err");
    ASSERT_EQ(r.status, 0) << engine << ": " << r.err;
    EXPECT_TRUE(read_as<Rec>(path("out")) == stable_sorted(recs)) << engine;
  }
  EXPECT_EQ(entries(), (std::vector<std::string>{"err", "g", "out", "tmp", "u"}));
}

// A pipe's input that fills exactly one run buffer has no run spilled: the
// sort reads on to find the end before it decides (-v names the run length).
TEST_F(Cli, PipeOfExactlyOneRunIsWrittenStraightOut) {
  std::mt19937_64 rng(47);
  std::vector<std::uint32_t> words(100000);
  for (auto& w : words) w = static_cast<std::uint32_t>(rng());
  write_file(path("u"), words.data(), words.size() * 4);
  const std::string sort = corank_bin() + " --format u32 --gpu=off -S 2M -T " + path("tmp");
  Result r = corank::test::run_shell("cat " + path("u") + " | " + sort + " -v -o " + path("out") + " -", dir_ / "err");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto at = r.err.find("runs of ");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::size_t run = std::stoul(r.err.substr(at + 8));
  ASSERT_LT(run, words.size()) << "the budget should make more than one run";
  words.resize(run);
  write_file(path("u"), words.data(), words.size() * 4);
  r = corank::test::run_shell("cat " + path("u") + " | " + sort + " --stats " + path("stats") + " -o " + path("out") + " -",
                              dir_ / "err");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string stats = corank::test::read_file(path("stats"));
  EXPECT_NE(stats.find("\"spilled_runs\": 0,"), std::string::npos) << stats;
  std::sort(words.begin(), words.end());
  EXPECT_TRUE(read_as<std::uint32_t>(path("out")) == words);
}

template <class T>
void check_typed(Cli& t, const std::string& fmt, const std::vector<T>& values, const std::string& in,
                 const std::string& out) {
  write_file(in, values.data(), values.size() * sizeof(T));
  for (const char* budget : kBudgets) {
    for (bool reverse : {false, true}) {
      Result r = run_corank("--format " + fmt + " " + budget + (reverse ? " -r" : "") + " -o " + out + " " + in);
      ASSERT_EQ(r.status, 0) << fmt << budget << r.err;
      auto got = read_as<T>(out);
      auto want = values;
      // Reference order for floats: the documented total order (-NaN < ... < -0 < +0 < ... < +NaN).
      auto rank = [](T x) {
        if constexpr (std::is_floating_point_v<T>) {
          using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
          U u;
          std::memcpy(&u, &x, sizeof u);
          const U sign = U(1) << (8 * sizeof(U) - 1);
          return (u & sign) ? U(~u) : U(u | sign);
        } else {
          return x;
        }
      };
      std::stable_sort(want.begin(), want.end(), [&](T a, T b) { return reverse ? rank(a) > rank(b) : rank(a) < rank(b); });
      ASSERT_EQ(got.size(), want.size());
      EXPECT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(T))) << fmt << " " << budget << " r=" << reverse;
    }
  }
  (void)t;
}

TEST_F(Cli, TypedArraysEveryBudgetBothDirections) {
  std::mt19937_64 rng(5);
  std::vector<std::uint32_t> u32(30000);
  for (auto& x : u32) x = static_cast<std::uint32_t>(rng() % 1000);  // duplicates
  check_typed(*this, "u32", u32, path("in"), path("out"));
  std::vector<std::int64_t> i64(30000);
  for (auto& x : i64) x = static_cast<std::int64_t>(rng());
  i64[0] = INT64_MIN, i64[1] = INT64_MAX, i64[2] = 0, i64[3] = -1;
  check_typed(*this, "i64", i64, path("in"), path("out"));
  std::vector<std::int32_t> i32(20000);
  for (auto& x : i32) x = static_cast<std::int32_t>(rng());
  check_typed(*this, "i32", i32, path("in"), path("out"));
  std::vector<double> f64(20000);
  std::normal_distribution<double> nd(0, 1e3);
  for (auto& x : f64) x = nd(rng);
  f64[0] = -0.0, f64[1] = 0.0, f64[2] = INFINITY, f64[3] = -INFINITY, f64[4] = NAN, f64[5] = -NAN;
  check_typed(*this, "f64", f64, path("in"), path("out"));
  std::vector<float> f32(20000);
  for (auto& x : f32) x = static_cast<float>(nd(rng));
  f32[7] = -0.0f, f32[8] = 0.0f, f32[9] = NAN;
  check_typed(*this, "f32", f32, path("in"), path("out"));
  std::vector<std::uint64_t> u64(20000);
  for (auto& x : u64) x = rng();
  check_typed(*this, "u64", u64, path("in"), path("out"));
}

TEST_F(Cli, FixedRecordsWithSeveralKeys) {
  // 16-byte records: [u16 group][pad 2][i32 BE value][8 bytes id]; order: group asc, value desc.
  struct R16 {
    unsigned char b[16];
  };
  std::mt19937 rng(3);
  std::vector<R16> recs(25000);
  for (std::size_t i = 0; i < recs.size(); ++i) {
    std::uint16_t g = static_cast<std::uint16_t>(rng() % 7);
    std::int32_t v = static_cast<std::int32_t>(rng() % 41) - 20;
    std::uint32_t be = __builtin_bswap32(static_cast<std::uint32_t>(v));
    std::memcpy(recs[i].b, &g, 2);
    recs[i].b[2] = recs[i].b[3] = 0;
    std::memcpy(recs[i].b + 4, &be, 4);
    std::uint64_t id = i;
    std::memcpy(recs[i].b + 8, &id, 8);
  }
  auto key = [](const R16& r) {
    std::uint16_t g;
    std::uint32_t be;
    std::memcpy(&g, r.b, 2);
    std::memcpy(&be, r.b + 4, 4);
    return std::pair<int, int>(g, -static_cast<std::int32_t>(__builtin_bswap32(be)));
  };
  auto want = recs;
  std::stable_sort(want.begin(), want.end(), [&](const R16& a, const R16& b) { return key(a) < key(b); });
  write_file(path("in"), recs.data(), recs.size() * 16);
  for (const char* budget : kBudgets) {
    Result r = run_corank(std::string("--format fixed:16 --key 0:2:u16 --key 4:4:i32be:desc ") + budget + " -o " +
                          path("out") + " " + path("in"));
    ASSERT_EQ(r.status, 0) << r.err;
    auto got = read_as<R16>(path("out"));
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * 16)) << budget;
  }
}

TEST_F(Cli, UniqueKeepsFirstOfEachKey) {
  auto recs = gensort_records(15000, 2, 5);
  write_file(path("in"), recs.data(), recs.size() * 100);
  auto sorted = stable_sorted(recs);
  std::vector<Rec> want;
  for (const auto& r : sorted)
    if (want.empty() || std::memcmp(want.back().data(), r.data(), 10) != 0) want.push_back(r);
  for (const char* budget : kBudgets) {
    Result r = run_corank(std::string("--format gensort -u ") + budget + " -o " + path("out") + " " + path("in"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_as<Rec>(path("out")) == want) << budget;
  }
}

TEST_F(Cli, OutputMayNameTheInputAndStdinWorks) {
  auto recs = gensort_records(12000, 9);
  write_file(path("data"), recs.data(), recs.size() * 100);
  for (const char* budget : kBudgets) {
    write_file(path("data"), recs.data(), recs.size() * 100);
    Result r = run_corank(std::string("--format gensort ") + budget + " -o " + path("data") + " " + path("data"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_as<Rec>(path("data")) == stable_sorted(recs)) << budget;
  }
  write_file(path("in"), recs.data(), recs.size() * 100);
  Result r = run_corank("--format gensort -S 256K < " + path("in") + " > " + path("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_as<Rec>(path("out")) == stable_sorted(recs));
}

TEST_F(Cli, SeveralInputsAreSortedTogether) {
  auto a = gensort_records(3000, 1), b = gensort_records(5000, 2);
  write_file(path("a"), a.data(), a.size() * 100);
  write_file(path("b"), b.data(), b.size() * 100);
  Result r = run_corank("--format gensort -S 64K -o " + path("out") + " " + path("a") + " - " + " < " + path("b"));
  ASSERT_EQ(r.status, 0) << r.err;
  auto all = a;
  all.insert(all.end(), b.begin(), b.end());
  EXPECT_TRUE(read_as<Rec>(path("out")) == stable_sorted(all));
}

TEST_F(Cli, CheckReportsDisorderWithExitOne) {
  auto recs = stable_sorted(gensort_records(5000, 4));
  write_file(path("sorted"), recs.data(), recs.size() * 100);
  EXPECT_EQ(run_corank("-c --format gensort " + path("sorted")).status, 0);
  EXPECT_EQ(run_corank("--check --format gensort -r " + path("sorted")).status, 1);
  std::swap(recs[1000], recs[1001]);
  write_file(path("unsorted"), recs.data(), recs.size() * 100);
  Result c = run_corank("-c --format gensort " + path("unsorted"));
  EXPECT_EQ(c.status, 1);
  EXPECT_NE(c.err.find("disorder at record 1001"), std::string::npos) << c.err;
  Result q = run_corank("-C --format gensort " + path("unsorted"));
  EXPECT_EQ(q.status, 1);
  EXPECT_EQ(q.err, "");
  EXPECT_EQ(run_corank("--check=quiet --format gensort " + path("unsorted")).status, 1);
  // A bare --check leaves the next word to be a file; a bad mode is a usage error.
  EXPECT_EQ(run_corank("--format gensort --check " + path("sorted")).status, 0);
  EXPECT_EQ(run_corank("--format gensort --check " + path("unsorted")).status, 1);
  EXPECT_EQ(run_corank("--format gensort --check=loud " + path("sorted")).status, 2);
  // -u: equal neighbours are disorder too.
  auto dup = stable_sorted(gensort_records(100, 5, 2));
  write_file(path("dup"), dup.data(), dup.size() * 100);
  EXPECT_EQ(run_corank("-c --format gensort " + path("dup")).status, 0);
  EXPECT_EQ(run_corank("-c -u --format gensort " + path("dup")).status, 1);
}

TEST_F(Cli, VerifyAndStats) {
  auto recs = gensort_records(8000, 6);
  write_file(path("in"), recs.data(), recs.size() * 100);
  Result r = run_corank("--format gensort -S 128K --verify --stats " + path("stats.json") + " -o " + path("out") +
                        " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  auto json = read_bytes(path("stats.json"));
  std::string s(json.begin(), json.end());
  EXPECT_NE(s.find("\"records_in\": 8000"), std::string::npos) << s;
  EXPECT_NE(s.find("\"mode\": \"external\""), std::string::npos) << s;
  EXPECT_EQ(s.find("\"spilled_runs\": 0,"), std::string::npos) << s;
}

// --- errors: one line, exit 2, input untouched, nothing under the target name ---

void expect_clean_failure(Cli& t, const Result& r, const std::string& needle) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  (void)t;
}

TEST_F(Cli, SizeNotAMultipleOfTheRecordSize) {
  std::vector<char> data(1050, 'x');
  write_file(path("in"), data.data(), data.size());
  Result r = run_corank("--format gensort -o " + path("out") + " " + path("in"));
  expect_clean_failure(*this, r, "is not a multiple of the record size 100");
  EXPECT_EQ(entries(), (std::vector<std::string>{"in", "tmp"}));
  EXPECT_EQ(read_bytes(path("in")), data);
  // The same input through a pipe (size unknown until the end), spilling first.
  std::vector<char> big(100 * 5000 + 7, 'y');
  write_file(path("in"), big.data(), big.size());
  r = run_corank("--format gensort -S 64K -T " + path("tmp") + " -o " + path("out") + " < " + path("in"));
  expect_clean_failure(*this, r, "is not a multiple of the record size 100");
  EXPECT_EQ(entries(), (std::vector<std::string>{"in", "tmp"}));
}

TEST_F(Cli, BadOptionsExitTwo) {
  write_file(path("in"), "0123", 4);
  expect_clean_failure(*this, run_corank("--format fixed:4 --key 0:8 " + path("in")), "does not fit");
  expect_clean_failure(*this, run_corank("--format fixed:4 --key 0:4:u16 " + path("in")), "invalid key");
  expect_clean_failure(*this, run_corank("--format nonsense " + path("in")), "unknown format");
  expect_clean_failure(*this, run_corank("--format u32 -S 12Q " + path("in")), "invalid suffix in -S argument '12Q'");
  EXPECT_EQ(run_corank("--no-such-option " + path("in")).status, 2);
  expect_clean_failure(*this, run_corank("--format u32 --gpu=on --gpu-memory 1b " + path("in")), "--gpu=on");
  // GNU sort's checks and wording, before anything is read.
  expect_clean_failure(*this, run_corank("-S '' " + path("in")), "invalid -S argument ''");
  expect_clean_failure(*this, run_corank("-S abc " + path("in")), "invalid -S argument 'abc'");
  expect_clean_failure(*this, run_corank("-S 1.5G " + path("in")), "invalid suffix in -S argument '1.5G'");
  expect_clean_failure(*this, run_corank("--format u32 -S 1Q " + path("in")), "invalid suffix in -S argument '1Q'");
  expect_clean_failure(*this, run_corank("-t '' " + path("in")), "empty tab");
  expect_clean_failure(*this, run_corank("--parallel 0 " + path("in")), "number in parallel must be nonzero");
  expect_clean_failure(*this, run_corank("-c -C " + path("in")), "options '-cC' are incompatible");
  expect_clean_failure(*this, run_corank("--format u32 --gpu-memory x " + path("in")), "invalid --gpu-memory argument 'x'");
  // -S 0 is the least memory the sorter works in, as in GNU sort.
  for (const char* f : {"--format u32", ""}) {
    Result r = run_corank(std::string(f) + " -S 0 -T " + path("tmp") + " -o " + path("out") + " " + path("in"));
    EXPECT_EQ(r.status, 0) << f << ": " << r.err;
  }
  EXPECT_EQ(read_bytes(path("out")).size(), 5u);  // "0123" as a line gets its newline
  // An unwritable --stats file fails before the sort writes anything.
  Result r = run_corank("--format u32 --stats " + path("nodir/s.json") + " -o " + path("out2") + " " + path("in"));
  expect_clean_failure(*this, r, "cannot write statistics: " + path("nodir/s.json") + ": No such file or directory");
  EXPECT_FALSE(fs::exists(path("out2")));
}

TEST_F(Cli, UnreadableInputAndUnwritableOutput) {
  Result r = run_corank("--format u32 -o " + path("out") + " " + path("missing"));
  expect_clean_failure(*this, r, path("missing") + ": No such file or directory");
  write_file(path("in"), "0123", 4);
  r = run_corank("--format u32 -o " + path("nodir/out") + " " + path("in"));
  expect_clean_failure(*this, r, "nodir");
  r = run_corank("--format u32 -o " + path("out") + " " + dir_.string());
  expect_clean_failure(*this, r, "Is a directory");
  EXPECT_EQ(entries(), (std::vector<std::string>{"in", "tmp"}));
}

TEST_F(Cli, MissingTemporaryDirectoryFailsCleanly) {
  auto recs = gensort_records(5000, 8);
  write_file(path("in"), recs.data(), recs.size() * 100);
  Result r = run_corank("--format gensort -S 64K -T " + path("nope") + " -o " + path("out") + " " + path("in"));
  expect_clean_failure(*this, r, "cannot create temporary file");
  EXPECT_EQ(entries(), (std::vector<std::string>{"in", "tmp"}));
}

TEST_F(Cli, SigtermRemovesTheTemporaryOutput) {
  // Input from a FIFO that never ends: corank blocks mid-sort; SIGTERM must
  // leave nothing behind.
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, 2);
    ::execl(corank_bin().c_str(), "corank", "--format", "u32", "-S", "64K", "-T", path("tmp").c_str(), "-o",
            path("out").c_str(), path("fifo").c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int fifo = ::open(path("fifo").c_str(), O_WRONLY);
  std::vector<std::uint32_t> block(50000, 7);
  // More than a pipe holds: when the write returns, corank has read most of it.
  ASSERT_EQ(::write(fifo, block.data(), block.size() * 4), static_cast<ssize_t>(block.size() * 4));
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(fifo);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  EXPECT_EQ(entries(), (std::vector<std::string>{"fifo", "tmp"}));
}

// Progress is on by default when stderr is a terminal (a pseudo-terminal from
// script(1) here) and off otherwise; --no-progress and --progress override.
TEST_F(Cli, ProgressByDefaultOnATerminalOnly) {
  std::vector<std::uint64_t> v(100000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 2654435761u) % 100003;
  write_file(path("in"), v.data(), v.size() * 8);
  const std::string sort = "--format u64 -o " + path("out") + " " + path("in");
  EXPECT_EQ(run_corank(sort).err, "");  // stderr is a file
  const std::string forced = run_corank("--progress " + sort).err;
  EXPECT_NE(forced.find("ETA"), std::string::npos) << forced;
  auto on_terminal = [&](const std::string& args) {
    const std::string cmd = "script -qec \"" + corank_bin() + " " + args + "\" /dev/null > " + path("tty") + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    auto text = read_bytes(path("tty"));
    return std::string(text.begin(), text.end());
  };
  const std::string shown = on_terminal(sort);
  EXPECT_NE(shown.find("ETA"), std::string::npos) << shown;
  EXPECT_NE(shown.find("100%"), std::string::npos) << shown;
  EXPECT_EQ(on_terminal("--no-progress " + sort).find("corank:"), std::string::npos);
}

TEST_F(Cli, HelpAndVersion) {
  Result h = run_corank("--help > " + path("help"));
  EXPECT_EQ(h.status, 0);
  auto text = read_bytes(path("help"));
  std::string s(text.begin(), text.end());
  for (const char* opt : {"--buffer-size", "--temporary-directory", "--format", "--key", "--unique", "--check", "--verify",
                          "--gpu", "--progress", "--stats", "Exit status"})
    EXPECT_NE(s.find(opt), std::string::npos) << opt;
  EXPECT_EQ(run_corank("--version > /dev/null").status, 0);
}

}  // namespace

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
#if defined(__SANITIZE_ADDRESS__)
#define CORANK_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORANK_TEST_ASAN 1
#endif
#endif

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
