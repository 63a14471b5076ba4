// Whole sorts whose spilled runs read back short: a read request that finds
// the end of its file early (io::FaultPoint::early_end, as in a run file cut
// short) at the nth read of a sort, for n = 1, 3, 9, ... until the sort gets
// through. Each sort either fails with an IoError, "run ended early" (or, for
// a read of the input, "the file shrank"), keeping the old target and leaving
// no temporary file, or writes the whole sorted output: never a shorter one.
// Text runs plain and compressed, merged by one loser tree and in key ranges;
// binary runs plain and compressed; on both I/O engines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/sort.hpp"
#include "library_test_util.hpp"

namespace corank {
namespace {

namespace fs = std::filesystem;
using test::slurp;

void spit(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

class RunReadBack : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-read-back-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  SortRequest request(const std::string& format) const {
    SortRequest r;
    r.inputs = {path("in")};
    r.output = path("out");
    r.format = format;
    r.temp_dirs = {path("tmp")};
    r.gpu = GpuMode::Off;
    r.io.sync_output = false;
    return r;
  }

  // Sorts `r` with reads ending early from the nth on, n = 1, 3, 9, ... until
  // the sort gets through with `want`; returns how many sorts said "run ended early".
  int sort_with_early_ends(const SortRequest& r, const std::string& want) {
    int runs_short = 0;
    for (std::uint64_t nth = 1;; nth *= 3) {
      SCOPED_TRACE("reads end early from request " + std::to_string(nth));
      spit(path("out"), "old");
      bool failed = false;
      {
        io::FailAfter early_end(io::FaultPoint::early_end, nth);
        io::ScopedFaultInjector scope(early_end);
        try {
          sort(r);
        } catch (const io::IoError& e) {
          failed = true;
          const std::string what = e.what();
          if (what == "read failed: temporary file: run ended early")
            ++runs_short;
          else
            EXPECT_EQ(what.find("read failed: " + path("in") + ": the file shrank while it was being read"), 0u) << what;
        }
      }
      EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
      if (failed) {
        EXPECT_EQ(slurp(path("out")), "old");
      } else {
        EXPECT_TRUE(slurp(path("out")) == want) << "a sort whose reads ended early wrote another output";
        return runs_short;
      }
      if (nth > (std::uint64_t{1} << 20)) {
        ADD_FAILURE() << "never got through";
        return runs_short;
      }
    }
  }

  fs::path dir_;
};

// One thread merges by one loser tree; several (8 MiB of budget: two) merge in
// key ranges; merge passes (--batch-size 4) read runs merged before.
TEST_F(RunReadBack, TextRunsThatReadBackShortAreErrors) {
  for (unsigned threads : {1u, 4u}) {
    std::mt19937 rng(5);
    std::string text;
    for (int i = 0; i < (threads == 1 ? 20000 : 100000); ++i)
      text += "w" + std::to_string(rng() % 100000) + " k" + std::to_string(rng() % 500) + "\n";
    spit(path("in"), text);
    SortRequest plain = request("lines");
    plain.keys = {"2,2"};
    plain.output = path("want");
    sort(plain);
    const std::string want = slurp(path("want"));
    fs::remove(path("want"));
    for (const auto& [uring, codec] : {std::pair{true, "none"}, std::pair{false, "none"}, std::pair{true, "zstd"}}) {
      SCOPED_TRACE(std::string(uring ? "io_uring" : "pread") + ", runs " + codec + ", " + std::to_string(threads) +
                   " threads");
      SortRequest r = request("lines");
      r.keys = {"2,2"};
      r.memory_budget = threads == 1 ? 400 << 10 : 8 << 20;
      r.threads = threads;
      r.batch_size = 4;  // merge passes before the last merge
      r.io.use_uring = uring;
      r.io.temp_codec = *io::parse_codec(codec);
      EXPECT_GT(sort_with_early_ends(r, want), 0) << "no run read back short";
    }
  }
}

TEST_F(RunReadBack, RecordRunsThatReadBackShortAreErrors) {
  std::mt19937_64 rng(6);
  std::string recs(10000 * 100, '\0');
  for (auto& c : recs) c = static_cast<char>(rng());
  spit(path("in"), recs);
  SortRequest plain = request("gensort");
  plain.output = path("want");
  sort(plain);
  const std::string want = slurp(path("want"));
  fs::remove(path("want"));
  for (bool uring : {true, false})
    for (const char* codec : {"none", "zstd"}) {
      SCOPED_TRACE(std::string(uring ? "io_uring" : "pread") + ", runs " + codec);
      SortRequest r = request("gensort");
      r.memory_budget = 512 << 10;
      r.io.use_uring = uring;
      r.io.temp_codec = *io::parse_codec(codec);
      EXPECT_GT(sort_with_early_ends(r, want), 0) << "no run read back short";
    }
}

}  // namespace
}  // namespace corank
