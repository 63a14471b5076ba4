// Whole sorts over inputs that change while they are read (io/corank/io/source.hpp,
// "one snapshot"): an input cut, on a record boundary, after the sort opened it
// ends the sort with an IoError naming the file and both sizes, keeps the old
// target and leaves no temporary file: never a shorter output with success.
// An input that grows is sorted as it was when the sort began. Binary records
// (the CPU's external sort, the words sort's positional reads) and lines (the
// chunk reader, also past the inputs it keeps open), on both I/O engines,
// from the disk (pages dropped: O_DIRECT) and from the page cache.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../resize_at_read.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/sort.hpp"
#include "library_test_util.hpp"

namespace corank {
namespace {

namespace fs = std::filesystem;
using test::drop_cached_pages;
using test::ResizeAtRead;
using test::slurp;

void spit(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

std::string gensort_records(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n * 100, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

std::string lines(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += "w" + std::to_string(rng() % 1000000) + " line " + std::to_string(i) + "\n";
  return s;
}

// The reference: records ordered by their 10-byte keys, ties in input order.
std::string sorted_gensort(const std::string& recs) {
  std::vector<std::string> v;
  for (std::size_t i = 0; i < recs.size(); i += 100) v.push_back(recs.substr(i, 100));
  std::stable_sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) {
    return a.compare(0, 10, b, 0, 10) < 0;
  });
  std::string out;
  for (const auto& r : v) out += r;
  return out;
}

// The reference for lines in byte order.
std::string sorted_lines(const std::string& text) {
  std::vector<std::string> v;
  for (std::size_t s = 0, e; (e = text.find('\n', s)) != std::string::npos; s = e + 1) v.push_back(text.substr(s, e - s + 1));
  std::sort(v.begin(), v.end());
  std::string out;
  for (const auto& l : v) out += l;
  return out;
}

class InputSnapshot : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-snapshot-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

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

  // What is left: the directory's entries and its tmp/'s.
  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    for (const auto& e : fs::directory_iterator(dir_ / "tmp")) v.push_back("tmp/" + e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }

  // Sorts `r` while `file` (written with `content` first, its pages dropped
  // unless `cached`) is cut to `size` bytes at the nth read request: the sort
  // must fail with the message naming the file and both sizes, keep the old
  // target and leave only `files`.
  void expect_shrink_refused(const SortRequest& r, const std::string& file, const std::string& content,
                             std::uint64_t size, bool cached, const std::vector<std::string>& files,
                             std::uint64_t nth = 1) {
    spit(file, content);
    if (!cached) ASSERT_TRUE(drop_cached_pages(file));
    spit(path("out"), "old");
    auto cut = ResizeAtRead::cut(file, nth, size);
    {
      io::ScopedFaultInjector scope(cut);
      try {
        sort(r);
        ADD_FAILURE() << "sorted an input that shrank: " << fs::file_size(path("out")) << " bytes out";
      } catch (const io::IoError& e) {
        EXPECT_EQ(std::string(e.what()), "read failed: " + file + ": the file shrank while it was being read (from " +
                                             std::to_string(content.size()) + " to " + std::to_string(size) + " bytes)");
      }
    }
    EXPECT_TRUE(cut.resized());
    EXPECT_EQ(slurp(path("out")), "old");
    EXPECT_EQ(entries(), files);
  }

  fs::path dir_;
};

TEST_F(InputSnapshot, RecordsCutOnARecordBoundaryAreRefused) {
  const std::string recs = gensort_records(20000, 1);
  for (bool uring : {true, false})
    for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{256} << 10}) {
      SCOPED_TRACE(std::string(uring ? "io_uring" : "pread") + ", budget " + std::to_string(budget));
      SortRequest r = request({path("in")}, "gensort");
      r.memory_budget = budget;
      r.io.use_uring = uring;
      expect_shrink_refused(r, path("in"), recs, 10000 * 100, false, {"in", "out", "tmp"});
    }
  // Two inputs in the page cache, read by four threads at once (one input alone would be mapped).
  spit(path("first"), gensort_records(10, 2));
  SortRequest r = request({path("first"), path("in")}, "gensort");
  r.threads = 4;
  const std::string big = gensort_records(50000, 3);  // over 4 MiB: split over the threads
  expect_shrink_refused(r, path("in"), big, 30000 * 100, true, {"first", "in", "out", "tmp"});
}

// Cut inside a record, the file says so with both its sizes, not the bytes
// read as its size; on each way records are read.
TEST_F(InputSnapshot, RecordsCutInsideARecordReportBothSizes) {
  const std::string recs = gensort_records(20000, 4);
  for (const char* format : {"gensort", "u64"})
    for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{256} << 10}) {
      SCOPED_TRACE(std::string(format) + ", budget " + std::to_string(budget));
      SortRequest r = request({path("in")}, format);
      r.memory_budget = budget;
      expect_shrink_refused(r, path("in"), recs, 1000037, false, {"in", "out", "tmp"});
    }
}

// u64 keys are the records: the words sort, through positional reads by all threads.
TEST_F(InputSnapshot, WordsCutOnARecordBoundaryAreRefused) {
  const std::string words = gensort_records(2000, 2);  // 200000 bytes: 25000 u64
  for (bool uring : {true, false}) {
    SCOPED_TRACE(uring ? "io_uring" : "pread");
    SortRequest r = request({path("a"), path("in")}, "u64");
    r.io.use_uring = uring;
    spit(path("a"), words.substr(0, 80000));
    expect_shrink_refused(r, path("in"), words, 120000, false, {"a", "in", "out", "tmp"});
  }
}

TEST_F(InputSnapshot, LinesCutOnALineBoundaryAreRefused) {
  const std::string text = lines(60000, 3);
  const std::uint64_t cut = text.find('\n', text.size() / 2) + 1;
  for (bool uring : {true, false})
    for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{200} << 10})
      for (unsigned threads : {1u, 4u}) {
        SCOPED_TRACE(std::string(uring ? "io_uring" : "pread") + ", budget " + std::to_string(budget) + ", " +
                     std::to_string(threads) + " threads");
        SortRequest r = request({path("in")}, "lines");
        r.memory_budget = budget;
        r.io.use_uring = uring;
        r.threads = threads;
        expect_shrink_refused(r, path("in"), text, cut, false, {"in", "out", "tmp"});
      }
  // Two inputs in the page cache, read by four threads at once (one input alone would be mapped).
  spit(path("first"), lines(100, 4));
  SortRequest r = request({path("first"), path("in")}, "lines");
  r.threads = 4;
  const std::string big = lines(300000, 5);  // over 4 MiB: split over the threads
  expect_shrink_refused(r, path("in"), big, big.find('\n', big.size() / 3) + 1, true, {"first", "in", "out", "tmp"});
}

// Inputs in the page cache are mapped (io/mapped_input.hpp), and a sort in
// memory reads its records where they lie as it writes them. A file cut then,
// after it was read, within its last page, raises no SIGBUS: that page's
// rest reads as zeros, which must not reach an output with success. Lines
// and CSV (two files, mapped side by side) and gensort records (one file).
TEST_F(InputSnapshot, AMappedInputCutAsTheOutputIsWrittenIsRefused) {
  std::string text = lines(3000, 8);
  while (text.size() % 4096 < 1000) text += "padding line\n";
  const std::uint64_t cut = text.find('\n', text.size() / 4096 * 4096 + 200) + 1;
  ASSERT_LT(cut, text.size());
  std::string recs = gensort_records(1000, 9);  // 100000 bytes: 1696 in the last page
  const auto refused = [&](const SortRequest& r, const std::string& content, std::uint64_t size,
                           const std::vector<std::string>& files) {
    spit(path("first"), content);
    spit(path("out"), "old");
    auto cutter = ResizeAtRead::cut_at_first_write(path("first"), size);
    {
      io::ScopedFaultInjector scope(cutter);
      try {
        sort(r);
        ADD_FAILURE() << "sorted an input that shrank: " << fs::file_size(path("out")) << " bytes out";
      } catch (const io::IoError& e) {
        EXPECT_EQ(std::string(e.what()), "read failed: " + path("first") +
                                             ": the file shrank while it was being read (from " +
                                             std::to_string(content.size()) + " to " + std::to_string(size) + " bytes)");
      }
    }
    EXPECT_TRUE(cutter.resized());
    EXPECT_EQ(slurp(path("out")), "old");
    EXPECT_EQ(entries(), files);
  };
  for (const char* format : {"lines", "csv"}) {
    SCOPED_TRACE(format);
    spit(path("second"), lines(100, 9));
    refused(request({path("first"), path("second")}, format), text, cut, {"first", "out", "second", "tmp"});
  }
  std::remove(path("second").c_str());
  SCOPED_TRACE("gensort");
  refused(request({path("first")}, "gensort"), recs, 99'000, {"first", "out", "tmp"});
}

// Past the first 64 inputs the chunk reader closes files and opens them again
// in turn: opened again, a file is held to the size it had at the start.
TEST_F(InputSnapshot, AnInputOpenedAgainKeepsItsSnapshot) {
  std::vector<std::string> inputs, files{"out", "tmp"};
  for (int i = 0; i < 70; ++i) {
    inputs.push_back(path("in" + std::to_string(i)));
    files.push_back("in" + std::to_string(i));
    spit(inputs.back(), lines(50, 10 + i));
  }
  std::sort(files.begin(), files.end());
  const std::string last = lines(50, 99);
  expect_shrink_refused(request(inputs, "lines"), inputs.back(), last, last.find('\n', 100) + 1, false, files);
}

// A file that grows while it is sorted (a log being written) is sorted as it
// was when the sort opened it.
TEST_F(InputSnapshot, AnInputThatGrowsIsSortedAsItWasAtTheStart) {
  const std::string recs = gensort_records(8000, 6), text = lines(25000, 7);
  for (bool uring : {true, false})
    for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{256} << 10})
      for (const bool binary : {true, false}) {
        SCOPED_TRACE(std::string(uring ? "io_uring" : "pread") + ", budget " + std::to_string(budget) +
                     (binary ? ", gensort" : ", lines"));
        const std::string& content = binary ? recs : text;
        spit(path("in"), content);
        ASSERT_TRUE(drop_cached_pages(path("in")));
        SortRequest r = request({path("in")}, binary ? "gensort" : "lines");
        r.memory_budget = budget;
        r.io.use_uring = uring;
        auto grow = ResizeAtRead::grow(path("in"), 1, binary ? gensort_records(500, 8) : lines(500, 8));
        {
          io::ScopedFaultInjector scope(grow);
          sort(r);
        }
        EXPECT_TRUE(grow.resized());
        EXPECT_TRUE(slurp(path("out")) == (binary ? sorted_gensort(content) : sorted_lines(content)));
      }
}

}  // namespace
}  // namespace corank
