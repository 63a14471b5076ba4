// The library's one entry point (corank/sort.hpp): text and binary formats
// through the same call, keys parsed by the library, and its notes handed to
// the caller's Diagnostics, never printed.
#include "corank/sort.hpp"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/io/codec.hpp"
#include "library_test_util.hpp"

namespace corank {
namespace {

namespace fs = std::filesystem;

using test::Recorder;
using test::slurp;

// What `body` wrote to file descriptor 2 (stderr) while it ran.
template <class F>
std::string stderr_of(const fs::path& capture, F&& body) {
  const int saved = ::dup(2);
  const int fd = ::open(capture.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(fd, 2);
  ::close(fd);
  body();
  ::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  return slurp(capture);
}

class SortRequestTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-sort-request-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(SortRequestTest, SortsLinesAndBinaryRecordsThroughOneCallAndPrintsNothing) {
  std::ofstream(dir_ / "in.txt") << "b 2\na 10\nc 1\n";
  Recorder said;
  SortRequest r;
  r.inputs = {(dir_ / "in.txt").string()};
  r.output = (dir_ / "out.txt").string();
  r.keys = {"2,2n"};
  r.verbose = true;
  r.io.verbose = true;
  r.io.diagnostics = &said;
  std::string printed = stderr_of(dir_ / "stderr", [&] { sort(r); });
  EXPECT_EQ(slurp(dir_ / "out.txt"), "c 1\nb 2\na 10\n");
  EXPECT_EQ(printed, "");
  EXPECT_FALSE(said.notes.empty());  // the verbose notes went to the caller instead
  EXPECT_TRUE(check(SortRequest{.inputs = {r.output}, .keys = {"2,2n"}}).sorted);

  std::vector<std::uint32_t> v{5, 3, 9, 1};
  std::ofstream(dir_ / "in.u32", std::ios::binary).write(reinterpret_cast<const char*>(v.data()), 16);
  said.notes.clear();
  r.format = "u32";
  r.keys = {};
  r.inputs = {(dir_ / "in.u32").string()};
  r.output = (dir_ / "out.u32").string();
  printed = stderr_of(dir_ / "stderr", [&] { sort(r); });
  EXPECT_EQ(printed, "");
  EXPECT_FALSE(said.notes.empty());
  const std::string out = slurp(dir_ / "out.u32");
  ASSERT_EQ(out.size(), 16u);
  std::vector<std::uint32_t> got(4);
  std::memcpy(got.data(), out.data(), 16);
  EXPECT_EQ(got, (std::vector<std::uint32_t>{1, 3, 5, 9}));
}

// io.output_region: the sort writes its output into bytes [offset, offset +
// size) of an existing file, as corank-mpi's ranks do, through whichever path
// the plan takes (in memory or spilled, one thread or several, mapped on
// tmpfs), and --verify reads back that region; with write_header off a CSV
// piece goes without its header. The bytes around the region stay.
TEST_F(SortRequestTest, SortsIntoARegionOfAnExistingFile) {
  std::string lines, csv = "id,name\n";
  std::vector<std::uint64_t> words(200000);
  std::uint64_t x = 88172645463325252ULL;
  for (std::size_t i = 0; i < words.size(); ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    words[i] = x % 5000;  // duplicates
    if (i < 40000) lines += "w" + std::to_string(x % 30011) + " " + std::to_string(i) + "\n";
    if (i < 20000) csv += std::to_string(i) + ",n" + std::to_string(x % 997) + "\n";
  }
  const fs::path in = dir_ / "in";
  fs::create_directories(in);
  std::ofstream(in / "in.txt") << lines;
  std::ofstream(in / "in.csv") << csv;
  std::ofstream(in / "in.u64", std::ios::binary)
      .write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size() * 8));

  std::vector<fs::path> dirs{dir_ / "out"};
  if (fs::is_directory("/dev/shm")) dirs.push_back(fs::path("/dev/shm") / dir_.filename());
  for (const fs::path& where : dirs) {
    fs::create_directories(where);
    for (const char* format : {"lines", "csv", "u64"})
      for (std::uint64_t budget : {std::uint64_t{64} << 20, std::uint64_t{256} << 10})
        for (unsigned threads : {1u, 4u}) {
          SortRequest r;
          r.format = format;
          r.inputs = {(in / (r.format == "lines" ? "in.txt" : r.format == "csv" ? "in.csv" : "in.u64")).string()};
          if (r.format == "csv") r.header = true, r.keys = {"name"};
          r.verify = r.format == "u64";
          r.memory_budget = budget;
          r.threads = threads;
          r.gpu = GpuMode::Off;
          r.io.sync_output = false;  // fsyncs only slow the test down
          r.output = (where / "ref").string();
          sort(r);
          std::string piece = slurp(where / "ref");
          if (r.format == "csv") r.write_header = false, piece.erase(0, piece.find('\n') + 1);
          const std::string before(4097, 'B'), after(333, 'A');
          std::ofstream(where / "shared", std::ios::binary) << before << std::string(piece.size(), '\0') << after;
          r.output = (where / "shared").string();
          r.io.output_region = io::OutputRegion{before.size(), piece.size()};
          const SortStats stats = sort(r);
          const std::string what = std::string(format) + " in " + where.string() + ", -S " + std::to_string(budget) +
                                   ", " + std::to_string(threads) + " threads, " + stats.mode;
          EXPECT_EQ(stats.bytes_out, piece.size()) << what;
          EXPECT_TRUE(slurp(where / "shared") == before + piece + after) << what;
          EXPECT_EQ(std::distance(fs::directory_iterator(where), fs::directory_iterator()), 2) << what;
        }
    fs::remove_all(where);
  }
}

// Records in memory (input_buffers) sort exactly as a file holding their
// concatenation, ties in concatenation order, on every CPU plan: one buffer
// sorted where it lies, several read in turn, runs spilled under a small
// budget, one-word keys sorted as words.
TEST_F(SortRequestTest, InputBuffersSortAsTheirConcatenation) {
  std::vector<std::byte> all(30000 * 100);
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (std::size_t i = 0; i < all.size(); ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    // gensort: 10-byte keys from a few values (ties everywhere), distinct payloads.
    all[i] = static_cast<std::byte>(i % 100 < 10 ? 'a' + x % 3 : x & 0xff);
  }
  std::ofstream(dir_ / "all", std::ios::binary)
      .write(reinterpret_cast<const char*>(all.data()), static_cast<std::streamsize>(all.size()));
  const std::span<const std::byte> whole(all);
  for (const char* format : {"gensort", "u64"})
    for (std::uint64_t budget : {std::uint64_t{256} << 20, std::uint64_t{1} << 20})
      for (const std::vector<std::size_t>& cuts :
           {std::vector<std::size_t>{0, all.size()}, {0, 0, 700 * 100, 700 * 100, 12344 * 100, all.size(), all.size()}}) {
        SortRequest r;
        r.format = format;
        r.memory_budget = budget;
        r.threads = 3;
        r.gpu = GpuMode::Off;
        r.io.sync_output = false;
        r.inputs = {(dir_ / "all").string()};
        r.output = (dir_ / "want").string();
        sort(r);
        r.inputs.clear();
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
          r.input_buffers.push_back(whole.subspan(cuts[i], cuts[i + 1] - cuts[i]));
        r.output = (dir_ / "got").string();
        r.verify = true;  // re-reads the output against the buffers' checksum
        const SortStats stats = sort(r);
        const std::string what = std::string(format) + ", -S " + std::to_string(budget) + ", " +
                                 std::to_string(r.input_buffers.size()) + " buffers, " + stats.mode;
        EXPECT_EQ(stats.bytes_in, all.size()) << what;
        EXPECT_TRUE(slurp(dir_ / "got") == slurp(dir_ / "want")) << what;
      }
  // Not whole records, both kinds of input, a text format: refused.
  SortRequest r;
  r.format = "gensort";
  r.output = (dir_ / "got").string();
  r.input_buffers = {whole.subspan(0, 150)};
  EXPECT_THROW(sort(r), InputError);
  r.inputs = {(dir_ / "all").string()};
  EXPECT_THROW(validate(r), UsageError);
  r.inputs.clear();
  r.format = "lines";
  EXPECT_THROW(validate(r), UsageError);
}

// More spilled runs than one merge takes well (a slab would hold a sample or
// two of each) are merged in passes, into longer runs first: the output is
// the in-memory sort's, for -u, -r and compressed runs too.
TEST_F(SortRequestTest, ManySpilledRunsMergeInPasses) {
  std::vector<char> all(200000 * 100);
  std::uint64_t x = 0x2545F4914F6CDD1DULL;
  for (std::size_t i = 0; i < all.size(); ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    all[i] = static_cast<char>(i % 100 < 10 ? 'a' + x % 4 : x & 0xff);  // ties everywhere
  }
  std::ofstream(dir_ / "in", std::ios::binary).write(all.data(), static_cast<std::streamsize>(all.size()));
  struct Case {
    bool unique, reverse;
    io::Codec temp;
  };
  for (const Case c : {Case{false, false, io::Codec::none}, Case{true, false, io::Codec::none},
                       Case{false, true, io::Codec::none}, Case{false, false, io::Codec::zstd}}) {
    SortRequest r;
    r.format = "gensort";
    r.unique = c.unique;
    r.reverse = c.reverse;
    r.gpu = GpuMode::Off;
    r.threads = 2;
    r.io.sync_output = false;
    r.inputs = {(dir_ / "in").string()};
    r.output = (dir_ / "want").string();
    r.memory_budget = std::uint64_t{256} << 20;
    const SortStats in_memory = sort(r);
    ASSERT_EQ(in_memory.merge_passes, 0u);
    r.output = (dir_ / "got").string();
    r.memory_budget = std::uint64_t{1} << 20;
    r.io.temp_codec = c.temp;
    r.temp_dirs = {dir_.string()};
    const SortStats spilled = sort(r);
    const std::string what = "-u " + std::to_string(c.unique) + " -r " + std::to_string(c.reverse) + ", " +
                             std::to_string(spilled.spilled_runs) + " runs";
    EXPECT_GT(spilled.merge_passes, 0u) << what;
    EXPECT_TRUE(slurp(dir_ / "got") == slurp(dir_ / "want")) << what;
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 3) << what;  // in, want, got
  }
}

TEST_F(SortRequestTest, ABadRequestIsAUsageErrorBeforeAnythingIsRead) {
  SortRequest r;
  r.inputs = {(dir_ / "missing").string()};
  r.keys = {"0"};
  EXPECT_THROW(validate(r), UsageError);
  r.keys = {};
  r.format = "u32";
  r.ordering = "n";  // ordering letters are for text
  EXPECT_THROW(validate(r), UsageError);
}

}  // namespace
}  // namespace corank
