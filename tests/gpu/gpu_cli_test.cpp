// End to end on the GPU: `corank --gpu=on` must write exactly the bytes
// `corank --gpu=off` writes, in memory and with a tiny -S forcing spills (and a
// tiny --gpu-memory forcing runs larger than a GPU chunk). Skips without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpu_skip.hpp"

namespace fs = std::filesystem;

namespace {

std::string corank_bin() {
  const char* dir = std::getenv("CORANK_BIN_DIR");
  return std::string(dir ? dir : ".") + "/src/corank";
}

std::vector<char> read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(f)), {});
}

int run(const std::string& args, const fs::path& err, const std::string& env = "") {
  const std::string cmd = env + (env.empty() ? "" : " ") + corank_bin() + " " + args + " 2>" + err.string();
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
}

class GpuCli : public ::testing::Test {
protected:
  void SetUp() override {
    CORANK_SKIP_WITHOUT_GPU();
    dir_ = fs::temp_directory_path() / ("corank-gpu-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "tmp");
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Random records; with `dups`, keys drawn from few values so ties abound.
  void write_input(std::uint32_t R, std::uint64_t n, bool dups) {
    std::vector<unsigned char> v(n * R);
    std::mt19937_64 rng(n * 31 + R + dups);
    for (std::uint64_t i = 0; i < n * R; ++i) v[i] = static_cast<unsigned char>(rng());
    if (dups)
      for (std::uint64_t i = 0; i < n; ++i) std::memset(&v[i * R], static_cast<int>(rng() % 4), R / 2);
    std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(v.data()), v.size());
  }

  // Sorts with --gpu=off and --gpu=on and compares the outputs byte for byte.
  void expect_same_output(const std::string& args) {
    SCOPED_TRACE(args);
    const std::string common = args + " -T " + path("tmp") + " " + path("in");
    ASSERT_EQ(run("--gpu=off -o " + path("cpu") + " " + common, path("err")), 0) << read_err();
    ASSERT_EQ(run("--gpu=on --verbose --stats " + path("stats") + " -o " + path("gpu") + " " + common,
                  path("err")),
              0)
        << read_err();
    const std::string err = read_err();
    EXPECT_NE(err.find("sort on the GPU ("), std::string::npos) << err;
    EXPECT_EQ(err.find("failed"), std::string::npos) << err;
    EXPECT_NE(stats_json().find("\"backend\": \"gpu\""), std::string::npos) << stats_json();
    // Every input record goes to the device at least once.
    EXPECT_GE(stat("\"gpu_bytes\": {\"h2d\":"), static_cast<double>(read_file(path("in")).size())) << stats_json();
    const auto cpu = read_file(path("cpu")), gpu = read_file(path("gpu"));
    if (args.find(" -u") == std::string::npos) EXPECT_EQ(cpu.size(), read_file(path("in")).size());
    EXPECT_TRUE(cpu == gpu) << "outputs differ";
  }

  std::string read_err() const {
    auto e = read_file(dir_ / "err");
    return std::string(e.begin(), e.end());
  }

  // The --stats JSON of the last GPU run, and the number that follows `prefix`
  // in it (NaN when prefix is missing, so that every comparison fails).
  std::string stats_json() const {
    auto j = read_file(dir_ / "stats");
    return std::string(j.begin(), j.end());
  }
  double stat(const std::string& prefix) const {
    const std::string js = stats_json();
    const auto at = js.find(prefix);
    return at == std::string::npos ? std::numeric_limits<double>::quiet_NaN() : std::stod(js.substr(at + prefix.size()));
  }

  fs::path dir_;
};

struct Case {
  const char* format;
  std::uint32_t record_size;
};
const Case kCases[] = {{"--format gensort", 100},
                       {"--format u32", 4},
                       {"--format i64", 8},
                       {"--format f64", 8},
                       {"--format fixed:16 --key 0:4:u32 --key 4:8:i64be:desc", 16}};

// 300000 records fit the device: one sort of whole records (or of words,
// for records that are their 4- or 8-byte key), no merge.
TEST_F(GpuCli, InMemoryOutputEqualsCpu) {
  for (const auto& c : kCases)
    for (bool dups : {false, true}) {
      write_input(c.record_size, 300000, dups);
      expect_same_output(c.format);
      const bool words_only = c.record_size == 4 || c.record_size == 8;
      EXPECT_NE(read_err().find(words_only ? "words only" : "whole records"), std::string::npos) << read_err();
      EXPECT_EQ(stat("\"runs\": "), 1.0) << stats_json();
      EXPECT_EQ(stat("\"merge_slabs\": "), 0.0) << stats_json();
    }
}

// Records that are one 4- or 8-byte key, in memory: sorted as normalized words
// on the GPU (one pass, or two under a small --gpu-memory), with -r and -u,
// every key type that qualifies; the output equals the CPU path's (key,
// position) sort.
TEST_F(GpuCli, WordsOnlySortEqualsCpu) {
  const Case formats[] = {{"--format u64", 8},
                          {"--format i64", 8},
                          {"--format f64", 8},
                          {"--format fixed:8 --key 0:8:u64be:desc", 8},
                          {"--format fixed:8 --key 0:8", 8},
                          {"--format u32", 4},
                          {"--format i32", 4},
                          {"--format f32", 4},
                          {"--format fixed:4 --key 0:4:i32be:desc", 4}};
  const char* extras[] = {"", " -r", " -u", " --gpu-memory 1M", " --gpu-memory 1M -u -r"};
  for (const auto& [format, record_size] : formats)
    for (bool dups : {false, true}) {
      write_input(record_size, 300000, dups);
      for (const char* extra : extras) {
        expect_same_output(std::string(format) + extra);
        EXPECT_NE(read_err().find("sort on the GPU (" ), std::string::npos) << read_err();
        EXPECT_GE(stat("\"runs\": "), 1.0) << stats_json();
        // 2.4 MB of words under a 1 MiB budget take two passes over many runs.
        if (std::string(extra).find("--gpu-memory") != std::string::npos) {
          EXPECT_GT(stat("\"runs\": "), 2.0) << stats_json();
        }
      }
    }
}

// A pipe stays on the CPU under --gpu=auto: a failed GPU sort could not read
// it again. (Failed GPU sorts: gpu_fail_over_test.cpp.) 2^25 + 1 records: as
// a file, auto puts them on the GPU.
TEST_F(GpuCli, PipeStaysOnTheCpuUnderAuto) {
  write_input(8, (std::uint64_t{1} << 25) + 1, true);
  const std::string in = path("in");
  ASSERT_EQ(run("--format i64 --gpu=off -o " + path("cpu") + " " + in, path("err")), 0) << read_err();
  const auto cpu = read_file(path("cpu"));
  ASSERT_EQ(run("--format i64 -v -o " + path("gpu"), path("err"), "cat " + in + " |"), 0) << read_err();
  EXPECT_NE(read_err().find("sort on the CPU (an input read once"), std::string::npos) << read_err();
  EXPECT_TRUE(read_file(path("gpu")) == cpu) << "outputs differ";
}

// A small --gpu-memory makes many runs, kept in memory and merged in many GPU
// slabs; -u drops duplicates across slab boundaries.
TEST_F(GpuCli, InMemoryMergeInManyGpuSlabs) {
  for (const char* format : {"--format fixed:16 --key 0:4:u32 --key 4:8:i64be:desc", "--format gensort"})
    for (const char* extra : {"", " -u"}) {
      const std::uint32_t R = std::string(format).find("fixed:16") != std::string::npos ? 16 : 100;
      write_input(R, 300000, true);
      expect_same_output(std::string(format) + " --gpu-memory 4M" + extra);
      EXPECT_NE(read_err().find("runs of up to"), std::string::npos) << read_err();
      EXPECT_GT(stat("\"runs\": "), 4.0) << stats_json();
      // Under -u the runs keep a record per key, few enough for one slab.
      if (*extra == '\0') EXPECT_GT(stat("\"merge_slabs\": "), 4.0) << stats_json();
      EXPECT_EQ(stat("\"spilled_runs\": "), 0.0) << stats_json();
    }
  // 40000 distinct keys among 300000 records: under -u every run still holds
  // most keys, so duplicates meet across slab boundaries.
  std::vector<unsigned char> v(300000 * 100);
  std::mt19937_64 rng(77);
  for (auto& b : v) b = static_cast<unsigned char>(rng());
  for (std::size_t i = 0; i < 300000; ++i) {
    const std::uint64_t k = rng() % 40000;
    std::memset(&v[i * 100], 'k', 10);
    std::memcpy(&v[i * 100], &k, 3);
  }
  std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(v.data()), v.size());
  expect_same_output("--format gensort --gpu-memory 4M -u");
  EXPECT_GT(stat("\"merge_slabs\": "), 2.0) << stats_json();
}

// Runs spilled to temporary files (a small -S), their slabs merged on the GPU.
TEST_F(GpuCli, SpilledRunsOutputEqualsCpu) {
  for (const auto& c : kCases)
    for (bool dups : {false, true})
      for (const char* extra : {"", " -u"}) {
        write_input(c.record_size, 100000, dups);
        expect_same_output(std::string(c.format) + " -S 256K --gpu-memory 2M" + extra);
        EXPECT_NE(read_err().find("runs of up to"), std::string::npos) << read_err();
        EXPECT_GT(stat("\"spilled_runs\": "), 0.0) << stats_json();
      }
}

// --compress-temp: the device's spilled runs are compressed, and read back
// front to back by the merge; the output is the CPU's.
TEST_F(GpuCli, CompressedSpilledRunsOutputEqualsCpu) {
  for (const auto& c : kCases)
    for (const char* extra : {" --compress-temp", " --compress-temp=gzip -u"}) {
      write_input(c.record_size, 100000, true);
      expect_same_output(std::string(c.format) + " -S 256K --gpu-memory 2M" + extra);
      EXPECT_GT(stat("\"spilled_runs\": "), 0.0) << stats_json();
    }
}

// Sorted input streams: after the first chunk, records in order go from the
// input to the output without the device, one run, nothing spilled. The
// smallest record moved near the end makes what was streamed a run, merged
// on the GPU with the rest. Each output is the CPU's.
TEST_F(GpuCli, SortedInputStreamsPastTheDevice) {
  struct statfs fs_info {};
  ASSERT_EQ(::statfs(dir_.c_str(), &fs_info), 0);
  if (fs_info.f_type == TMPFS_MAGIC) GTEST_SKIP() << "an output on tmpfs is mapped, not streamed";
  for (const auto& c : kCases)
    for (bool dups : {false, true}) {
      const std::uint64_t n = 200000;
      write_input(c.record_size, n, dups);
      ASSERT_EQ(run(std::string(c.format) + " --gpu=off -o " + path("sorted") + " " + path("in"), path("err")), 0);
      fs::rename(path("sorted"), path("in"));
      for (bool late : {false, true}) {
        if (late) {  // the first record moved to 10 records before the end
          auto v = read_file(path("in"));
          const std::size_t R = c.record_size, at = (n - 10) * R;
          std::rotate(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(R), v.begin() + static_cast<std::ptrdiff_t>(at + R));
          std::ofstream(path("in"), std::ios::binary).write(v.data(), static_cast<std::streamsize>(v.size()));
        }
        for (const char* extra : {"", " -u"}) {
          const std::string args = std::string(c.format) + " -S 8M --gpu-memory 1M" + extra;
          SCOPED_TRACE(args + (dups ? " dups" : "") + (late ? " late" : ""));
          const std::string common = args + " -T " + path("tmp") + " " + path("in");
          ASSERT_EQ(run("--gpu=off -o " + path("cpu") + " " + common, path("err")), 0) << read_err();
          ASSERT_EQ(run("--gpu=on --stats " + path("stats") + " -o " + path("gpu") + " " + common, path("err")), 0)
              << read_err();
          EXPECT_NE(stats_json().find("\"backend\": \"gpu\""), std::string::npos) << stats_json();
          EXPECT_TRUE(read_file(path("cpu")) == read_file(path("gpu"))) << "outputs differ";
          EXPECT_NE(stats_json().find(late ? "\"one_pass\": false" : "\"one_pass\": true"), std::string::npos)
              << stats_json();
          if (!late) {
            EXPECT_EQ(stat("\"runs\": "), 1.0) << stats_json();
            EXPECT_EQ(stat("\"spill_bytes\": "), 0.0) << stats_json();
            // Only the first chunk went to the device.
            EXPECT_LT(stat("\"gpu_bytes\": {\"h2d\":"), static_cast<double>(n * c.record_size) / 2) << stats_json();
          } else {
            EXPECT_GE(stat("\"runs\": "), 2.0) << stats_json();
          }
        }
      }
    }
}

// Records displaced by less than the device path's window (-v names it), or
// by as much, stream through it: one run, written once, nothing spilled;
// records held back far beyond it go to side runs, merged on the GPU with the
// output's run. Records displaced by more than a chunk, reverse-sorted and
// random input form runs as before; all-equal keys stream past the device.
// Each output is the CPU's (its in-memory sort), with and without -u.
TEST_F(GpuCli, DisplacedRecordsStreamThroughAWindow) {
  struct statfs fs_info {};
  ASSERT_EQ(::statfs(dir_.c_str(), &fs_info), 0);
  if (fs_info.f_type == TMPFS_MAGIC) GTEST_SKIP() << "an output on tmpfs is mapped, not streamed";
  enum Shape { by2, half, at, held_back, beyond, reverse, equal, random };
  const char* const names[] = {"displaced by 2", "displaced by half the window", "displaced by the window",
                               "one in 50 held back", "displaced by two chunks", "reverse-sorted", "all equal",
                               "random"};
  for (const auto& c : kCases) {
    const std::uint64_t n = 200000;
    const std::size_t R = c.record_size;
    write_input(c.record_size, n, false);
    ASSERT_EQ(run(std::string(c.format) + " --gpu=off -o " + path("sorted") + " " + path("in"), path("err")), 0);
    const auto sorted = read_file(path("sorted"));
    // The window lives in host memory: -S leaves room for it beside the staging
    // and what the CUDA runtime keeps resident.
    const std::string args = std::string(c.format) + " -S 1G --gpu-memory 1M -T " + path("tmp");
    std::uint64_t window = 0;
    for (const Shape shape : {by2, half, at, held_back, beyond, reverse, equal, random}) {
      std::vector<char> v = sorted;
      std::mt19937_64 rng(shape + 7);
      auto rec = [&](std::uint64_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i * R); };
      auto shuffle_blocks = [&](std::uint64_t d) {  // each record at most d from its place
        for (std::uint64_t b = 0; b < n; b += d + 1)
          for (std::uint64_t i = std::min(n, b + d + 1) - 1; i > b; --i)
            std::swap_ranges(rec(i), rec(i + 1), rec(b + rng() % (i - b + 1)));
      };
      switch (shape) {
        case by2: shuffle_blocks(2); break;
        case half: shuffle_blocks(window / 2); break;
        case at: shuffle_blocks(window); break;
        case held_back:
          for (std::uint64_t i = 0; i + 3 * window < n; i += 50) std::rotate(rec(i), rec(i + 1), rec(i + 3 * window + 1));
          break;
        case beyond: shuffle_blocks(8 * window); break;  // the window is a quarter of a chunk
        case reverse:
          for (std::uint64_t i = 0; i < n / 2; ++i) std::swap_ranges(rec(i), rec(i + 1), rec(n - 1 - i));
          break;
        case equal:
          for (std::uint64_t i = 1; i < n; ++i) std::copy(rec(0), rec(1), rec(i));
          break;
        case random: shuffle_blocks(n); break;
      }
      std::ofstream(path("in"), std::ios::binary).write(v.data(), static_cast<std::streamsize>(v.size()));
      for (const char* extra : {"", " -u"}) {
        SCOPED_TRACE(args + extra + ", " + names[shape]);
        const std::string common = args + extra + " " + path("in");
        ASSERT_EQ(run("--gpu=off -o " + path("cpu") + " " + common, path("err")), 0) << read_err();
        ASSERT_EQ(run("--gpu=on -v --stats " + path("stats") + " -o " + path("gpu") + " " + common, path("err")), 0)
            << read_err();
        const std::string err = read_err();
        EXPECT_NE(stats_json().find("\"backend\": \"gpu\""), std::string::npos) << stats_json();
        EXPECT_TRUE(read_file(path("cpu")) == read_file(path("gpu"))) << "outputs differ";
        const auto window_at = err.find("a window of ");
        if (shape == by2) {
          ASSERT_NE(window_at, std::string::npos) << err;
          window = std::stoull(err.substr(window_at + 12));
          ASSERT_GE(window, 16u) << err;
        }
        const bool one_pass = shape == by2 || shape == half || shape == at || shape == equal;
        EXPECT_NE(stats_json().find(one_pass ? "\"one_pass\": true" : "\"one_pass\": false"), std::string::npos)
            << stats_json();
        if (one_pass) {
          EXPECT_EQ(stat("\"runs\": "), 1.0) << stats_json();
          EXPECT_EQ(stat("\"spill_bytes\": "), 0.0) << stats_json();
          EXPECT_EQ(stat("\"side_records\": "), 0.0) << stats_json();
        }
        if (shape == held_back) EXPECT_GT(stat("\"side_records\": "), 0.0) << stats_json();
        if (shape == beyond || shape == reverse || shape == random) EXPECT_EQ(window_at, std::string::npos) << err;
      }
    }
  }
}

// Very small device budgets: hundreds of runs, merged in passes where one
// slab cannot take them all.
TEST_F(GpuCli, ManySmallRuns) {
  for (const auto& c : kCases) {
    write_input(c.record_size, 200000, false);
    expect_same_output(std::string(c.format) + " -S 8M --gpu-memory 256K");
    expect_same_output(std::string(c.format) + " --gpu-memory 1M -u");
  }
}

TEST_F(GpuCli, OnWithoutAUsableBudgetFailsClearly) {
  write_input(8, 10, false);
  EXPECT_EQ(run("--format u64 --gpu=on --gpu-memory 1b -o " + path("out") + " " + path("in"), path("err")), 2);
  EXPECT_NE(read_err().find("corank: --gpu=on: no usable GPU ("), std::string::npos) << read_err();
  EXPECT_FALSE(fs::exists(path("out")));
  EXPECT_EQ(run("--format u64 --gpu=auto --gpu-memory 1b -o " + path("out") + " " + path("in"), path("err")), 0)
      << read_err();
}

// Text lines whose first 32 bytes often tie (a shared 40-byte beginning, few
// distinct words), with numbers, blanks and duplicates: the GPU orders the
// prefixes, the CPU settles the ties.
void write_lines(const std::string& file, std::uint64_t n) {
  std::mt19937_64 rng(n);
  const char* words[] = {"alpha", "Beta", "gamma", "delta", "", "  x", "ALPHA"};
  const std::string shared = "2026-11-23T01:13:37.000000Z INFO web-0";
  std::string text;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (rng() % 4 == 0) text += shared;
    text += words[rng() % 7];
    text += ' ';
    text += std::to_string(static_cast<std::int64_t>(rng() % 2001) - 1000);
    text += rng() % 2 ? ":b:" : ":a:";
    text += words[rng() % 7];
    text += '\n';
  }
  std::ofstream(file, std::ios::binary) << text;
}

// `corank --gpu=on` on lines writes the bytes `--gpu=off` writes: in memory,
// in spilled chunks, and in several GPU sorts merged (a small --gpu-memory).
TEST_F(GpuCli, LinesSortEqualsCpu) {
  constexpr std::uint64_t kLines = 400000;
  write_lines(path("in"), kLines);
  for (const char* args : {"", "-k1,1", "-r", "-k2,2n", "-u -k1,1", "-s -k1,1f", "-t: -k3,3 -k1,1r", "-S 4M",
                           "-S 4M -u", "--gpu-memory 72M", "--gpu-memory 72M -k2,2n -u"}) {
    SCOPED_TRACE(args);
    const std::string common = std::string(args) + " -T " + path("tmp") + " " + path("in");
    ASSERT_EQ(run("--gpu=off -o " + path("cpu") + " " + common, path("err")), 0) << read_err();
    ASSERT_EQ(run("--gpu=on --verbose --stats " + path("stats") + " -o " + path("gpu") + " " + common, path("err")), 0)
        << read_err();
    const std::string err = read_err();
    EXPECT_NE(err.find("sort on the GPU ("), std::string::npos) << err;
    EXPECT_EQ(err.find("failed"), std::string::npos) << err;
    EXPECT_NE(stats_json().find("\"backend\": \"gpu\""), std::string::npos) << stats_json();
    // Every line's prefix goes to the device once.
    EXPECT_GE(stat("\"gpu_bytes\": {\"h2d\":"), 32.0 * kLines) << stats_json();
    if (std::string(args).find("-S 4M") != std::string::npos) EXPECT_GT(stat("\"spilled_runs\": "), 1.0) << stats_json();
    if (std::string(args).find("--gpu-memory") != std::string::npos) {
      const auto at = err.find("up to ");
      ASSERT_NE(at, std::string::npos) << err;
      EXPECT_LT(std::stoull(err.substr(at + 6)), kLines / 2) << err;
    }
    EXPECT_TRUE(read_file(path("cpu")) == read_file(path("gpu"))) << "outputs differ";
  }
}

}  // namespace
