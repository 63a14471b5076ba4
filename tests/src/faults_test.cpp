// Failures at every stage of a sort, injected through io::ScopedFaultInjector
// (io/fault_injection.hpp): a full disk at the nth write, a failed device at
// the nth read. Each failure throws io::IoError naming the error, keeps the old
// target, and leaves neither a temporary output beside it nor a spilled run in
// the temporary directory; the sort that gets through is complete and correct.
// corank::sort() is called in this process, so the faults need no environment.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/sort.hpp"
#include "library_test_util.hpp"

namespace corank {
namespace {

namespace fs = std::filesystem;
using io::FailAfter;
using io::FaultPoint;
using io::ScopedFaultInjector;
using test::RemoveOnExit;
using test::slurp;

void spit(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

// 100-byte gensort records with random 10-byte keys, each naming its position.
std::string gensort_records(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n * 100, '\0');
  for (std::size_t i = 0; i < n; ++i) {
    char* r = s.data() + i * 100;
    for (int b = 0; b < 100; ++b) r[b] = static_cast<char>(rng());
    std::snprintf(r + 12, 20, "%019zu", i);
  }
  return s;
}

// Lines of two fields, many equal second fields.
std::string two_field_lines(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s;
  for (std::size_t i = 0; i < n; ++i)
    s += "w" + std::to_string(rng() % 100000) + " k" + std::to_string(rng() % 5000) + "\n";
  return s;
}

enum class Outcome { sorted, failed };

class Faults : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-faults-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // What is left in the directory and its tmp/ (a temporary output starts with '.').
  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    for (const auto& e : fs::directory_iterator(dir_ / "tmp")) v.push_back("tmp/" + e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }

  SortRequest request(std::vector<std::string> inputs, const std::string& format) const {
    SortRequest r;
    r.inputs = std::move(inputs);
    r.output = path("out");
    r.format = format;
    r.temp_dirs = {path("tmp")};
    r.gpu = GpuMode::Off;
    r.io.sync_output = false;
    return r;
  }

  // Runs `r` with the nth request at `point` failing, over an old target
  // "old". A failure must be `error` (strerror's words), keep the old target
  // and leave only `inputs` and the target; a sort that gets through must
  // write `want`.
  Outcome sort_failing_at(const SortRequest& r, FaultPoint point, std::uint64_t nth, const std::string& error,
                          const std::string& want, const std::vector<std::string>& files) {
    spit(path("out"), "old");
    Outcome outcome = Outcome::sorted;
    {
      FailAfter fault(point, nth);
      ScopedFaultInjector scope(fault);
      try {
        sort(r);
      } catch (const io::IoError& e) {
        outcome = Outcome::failed;
        EXPECT_NE(std::string(e.what()).find(error), std::string::npos) << e.what();
      }
    }
    EXPECT_EQ(entries(), files) << "fault at request " << nth;
    if (outcome == Outcome::sorted)
      EXPECT_TRUE(slurp(path("out")) == want) << "fault at request " << nth << ": output differs";
    else
      EXPECT_EQ(slurp(path("out")), "old") << "fault at request " << nth;
    return outcome;
  }

  fs::path dir_;
};

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// A full disk at the first write of all and, with spilled runs, at a later one
// (the second run file), on both I/O engines and every plan.
TEST_F(Faults, FullDiskWhileSortingRecordsLeavesTheOldTarget) {
  spit(path("in"), gensort_records(20000, 13));
  const std::vector<std::string> files{"in", "out", "tmp"};
  for (bool uring : {true, false})
    for (std::uint64_t budget : {std::uint64_t{0}, 2 * kMiB, std::uint64_t{256} << 10, std::uint64_t{48} << 10})
      for (std::uint64_t nth : {1u, 2u}) {
        if (nth == 2 && budget == 0) continue;  // in memory: one output write
        SCOPED_TRACE(std::string(uring ? "io_uring" : "pread") + ", budget " + std::to_string(budget));
        SortRequest r = request({path("in")}, "gensort");
        r.memory_budget = budget;
        r.io.use_uring = uring;
        EXPECT_EQ(sort_failing_at(r, FaultPoint::write, nth, "No space left on device", "", files), Outcome::failed);
      }
}

// A failed device at the nth read request, for every stage of a sort of two
// inputs: n counts up until the sort gets through, by which time reads of both
// inputs, of the spilled runs and of the merge have failed. The first reads
// one by one (the inputs', the first runs'), then every 7th: a merge of
// small runs under 1 MiB reads in hundreds of small requests.
TEST_F(Faults, FailedReadAtEveryStageLeavesTheOldTarget) {
  const std::string recs = gensort_records(12000, 32);
  spit(path("a"), recs.substr(0, 6000 * 100));
  spit(path("b"), recs.substr(6000 * 100));
  SortRequest plain = request({path("a"), path("b")}, "gensort");
  plain.output = path("want");
  sort(plain);
  const std::string want = slurp(path("want"));
  fs::remove(path("want"));
  const std::vector<std::string> files{"a", "b", "out", "tmp"};
  // In memory: the two inputs' reads; 2 MiB: 11 runs spilled, then read back.
  for (bool uring : {true, false})
    for (const auto& [budget, min_reads] : {std::pair{std::uint64_t{0}, 2u}, std::pair{2 * kMiB, 13u}}) {
      SCOPED_TRACE(std::string(uring ? "io_uring" : "pread") + ", budget " + std::to_string(budget));
      SortRequest r = request({path("a"), path("b")}, "gensort");
      r.memory_budget = budget;
      r.io.use_uring = uring;
      std::uint64_t nth = 1;
      while (sort_failing_at(r, FaultPoint::read, nth, "Input/output error", want, files) == Outcome::failed) {
        nth += nth < 32 ? 1 : 7;
        ASSERT_LT(nth, 4096u);
      }
      EXPECT_GT(nth, min_reads) << "too few reads to reach every stage";
    }
}

// On a memory file system an in-memory sort maps its input and builds the
// output in a shared mapping: a full file system there (its allocation fails)
// leaves the old target and no temporary output either.
TEST_F(Faults, FullMemoryFileSystemLeavesTheOldTarget) {
  if (!fs::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  const fs::path shm = fs::path("/dev/shm") / dir_.filename();
  fs::create_directories(shm);
  const RemoveOnExit remove_shm(shm);
  spit(shm / "in", gensort_records(20000, 21));
  spit(shm / "out", "old");
  SortRequest r = request({(shm / "in").string()}, "gensort");
  r.output = (shm / "out").string();
  {
    FailAfter fault(FaultPoint::write, 1);
    ScopedFaultInjector scope(fault);
    EXPECT_THROW(sort(r), io::IoError);
  }
  EXPECT_EQ(slurp(shm / "out"), "old");
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(shm)) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"in", "out"}));
}

// Lines: a full disk at the first write (with several threads that is the
// mapped output's allocation), in memory and with spilled runs.
TEST_F(Faults, FullDiskWhileSortingLinesLeavesTheOldTarget) {
  spit(path("in"), two_field_lines(50000, 7));
  const std::vector<std::string> files{"in", "out", "tmp"};
  for (unsigned threads : {1u, 4u})
    for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{200} << 10}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, budget " + std::to_string(budget));
      SortRequest r = request({path("in")}, "lines");
      r.threads = threads;
      r.memory_budget = budget;
      EXPECT_EQ(sort_failing_at(r, FaultPoint::write, 1, "No space left on device", "", files), Outcome::failed);
    }
}

// Lines with spilled runs merged in key ranges on several threads: a full disk
// at the nth write for every n. n doubles until the sort gets through, then a
// bisection finds the last write, which is the output's.
TEST_F(Faults, FullDiskAtEveryStageOfASpilledLineSort) {
  spit(path("in"), two_field_lines(50000, 8));
  SortRequest r = request({path("in")}, "lines");
  r.keys = {"2,2"};
  r.threads = 4;
  r.memory_budget = 100 << 10;
  r.output = path("want");
  const SortStats stats = sort(r);
  ASSERT_GT(stats.spilled_runs, 2u);
  const std::string want = slurp(path("want"));
  fs::remove(path("want"));
  r.output = path("out");
  const std::vector<std::string> files{"in", "out", "tmp"};
  std::uint64_t through = 1;
  while (sort_failing_at(r, FaultPoint::write, through, "No space left on device", want, files) == Outcome::failed) {
    through *= 2;
    ASSERT_LT(through, std::uint64_t{1} << 20);
  }
  ASSERT_GT(through, 1u);
  std::uint64_t failing = through / 2;
  while (through - failing > 1) {
    const std::uint64_t mid = (failing + through) / 2;
    (sort_failing_at(r, FaultPoint::write, mid, "No space left on device", want, files) == Outcome::sorted
         ? through
         : failing) = mid;
  }
  EXPECT_EQ(sort_failing_at(r, FaultPoint::write, failing, "write failed: " + path("out"), want, files),
            Outcome::failed);
}

// An injector counts only its own fault point, fails the nth request and every
// later one, and scopes nest.
TEST(FaultInjection, FailsTheNthRequestAndEveryLaterOneWhileInstalled) {
  FailAfter writes(FaultPoint::write, 3);
  EXPECT_FALSE(io::inject_failure(FaultPoint::write));  // nothing installed
  {
    ScopedFaultInjector scope(writes);
    EXPECT_FALSE(io::inject_failure(FaultPoint::read));
    EXPECT_FALSE(io::inject_failure(FaultPoint::write));
    EXPECT_FALSE(io::inject_failure(FaultPoint::write));
    {
      FailAfter reads(FaultPoint::read, 1);
      ScopedFaultInjector inner(reads);
      EXPECT_TRUE(io::inject_failure(FaultPoint::read));
      EXPECT_FALSE(io::inject_failure(FaultPoint::write));  // the inner one's alone
    }
    EXPECT_TRUE(io::inject_failure(FaultPoint::write));
    EXPECT_TRUE(io::inject_failure(FaultPoint::write));
    EXPECT_FALSE(io::inject_failure(FaultPoint::device_sort));
  }
  EXPECT_FALSE(io::inject_failure(FaultPoint::write));
  EXPECT_EQ(writes.requests(), 4u);
  FailAfter never(FaultPoint::read, 0);
  ScopedFaultInjector scope(never);
  EXPECT_FALSE(io::inject_failure(FaultPoint::read));
}

}  // namespace
}  // namespace corank
