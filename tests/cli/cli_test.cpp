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
#include <cctype>
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

namespace {

using namespace corank::test::cli;

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

// -S as GNU sort reads it: P and E suffixes, more than 100% of the memory,
// and the largest of several -S whatever their order.
TEST_F(Cli, SizesAsGnuReadsThem) {
  write_file(path("in"), "b\na\n");
  for (const char* size : {"200%", "1P", "15E"}) {
    Result r = run_corank(std::string("-S ") + size + " -o " + path("out") + " " + path("in"));
    EXPECT_EQ(r.status, 0) << size << ": " << r.err;
    EXPECT_EQ(corank::test::read_file(path("out")), "a\nb\n") << size;
  }
  for (const char* sizes : {"-S 1M -S 2M", "-S 2M -S 1M", "-S 2048 --buffer-size=1M"}) {
    Result r = run_corank(std::string(sizes) + " --stats " + path("s.json") + " -o " + path("out") + " " + path("in"));
    ASSERT_EQ(r.status, 0) << sizes << ": " << r.err;
    EXPECT_NE(corank::test::read_file(path("s.json")).find("\"memory_budget\": 2097152,"), std::string::npos) << sizes;
  }
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

// A text sort of several files mapped where they lie counts what it read of
// them, not the pages between them: its sort phase ends at 100% of their
// bytes (it showed 4 KiB of 12 B, 34183%).
TEST_F(Cli, ProgressOfMappedFilesCountsTheirBytes) {
  write_file(path("a"), "b\na\nc\n");
  write_file(path("b"), "f\ne\nd\n");
  const std::string err = run_corank("--progress -o " + path("out") + " " + path("a") + " " + path("b")).err;
  EXPECT_NE(err.find("100% 12 B/12 B"), std::string::npos) << err;
  for (std::size_t at = err.find('%'); at != std::string::npos; at = err.find('%', at + 1)) {
    std::size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(err[digits - 1]))) --digits;
    EXPECT_LE(std::stoul(err.substr(digits, at - digits)), 100u) << err;
  }
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
