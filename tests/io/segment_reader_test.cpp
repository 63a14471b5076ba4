// SegmentReader (segment_reader.hpp), as the CPU merge uses it to load a
// slab: segments of several files at once (an anonymous run file among them),
// of any length (zero included) at any offset, each into its own stretch of
// the caller's memory and not a byte beyond it, on both I/O engines, with
// direct I/O asked for or not (the reader reads through the descriptors it is
// given, so the answer must not change), with blocks smaller than the
// segments and fewer requests in flight than a slab has. A segment that runs
// past the end of its file, or a read the device fails, is an IoError,
// and the reader reads on correctly afterwards (no request of the failed read
// outlives it).
#include "corank/io/segment_reader.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/io_engine.hpp"
#include "corank/io/temp_files.hpp"

namespace corank::io {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::byte>;

constexpr std::byte kGuard{0xa5};  // the caller's bytes around each segment's stretch
constexpr std::uint64_t kGap = 7;  // guard bytes between stretches, so each starts unaligned

Bytes random_bytes(std::uint64_t n, std::uint32_t seed) {
  Bytes b(n);
  std::mt19937_64 rng(seed);
  for (auto& x : b) x = static_cast<std::byte>(rng());
  return b;
}

struct Engine {
  bool uring, direct;
  const char* name() const { return uring ? "io_uring" : "pread"; }
};

// Where the engine asked for cannot be had, why (else nullptr).
const char* unavailable(const Engine& e) {
  if (!e.uring) return nullptr;
  if (!uring_available()) return "io_uring is not available here (io_uring_queue_init failed)";
  if (const char* v = std::getenv("CORANK_IO"); v && std::strcmp(v, "pread") == 0)
    return "CORANK_IO=pread forces the pread engine";
  return nullptr;
}

IoOptions options(const Engine& e, std::size_t block, unsigned depth) {
  IoOptions o;
  o.use_uring = e.uring;
  o.direct = e.direct;
  o.block_size = block;
  o.queue_depth = depth;
  return o;
}

// A file of the test and the bytes it holds.
struct File {
  FileDesc fd;
  Bytes data;
};

// A read of segments (file, offset, length) into one buffer, each segment's
// stretch between guard bytes, as a slab lays its runs' segments side by side.
struct Plan {
  struct Piece {
    const File* file;
    std::uint64_t offset, length;
  };
  std::vector<Piece> pieces;

  void add(const File& f, std::uint64_t offset, std::uint64_t length) { pieces.push_back({&f, offset, length}); }

  // The segments into `buf` (sized here), filled with guard bytes first.
  std::vector<Segment> segments(Bytes& buf) const {
    std::uint64_t size = kGap;
    for (const auto& p : pieces) size += p.length + kGap;
    buf.assign(size, kGuard);
    std::vector<Segment> out;
    std::uint64_t at = kGap;
    for (const auto& p : pieces) {
      out.push_back(Segment{p.file->fd.get(), p.offset, buf.data() + at, p.length});
      at += p.length + kGap;
    }
    return out;
  }

  // What `buf` holds after the read: each segment's bytes between the guards.
  Bytes expected() const {
    Bytes want(kGap, kGuard);
    for (const auto& p : pieces) {
      const auto* from = p.file->data.data() + p.offset;
      want.insert(want.end(), from, from + p.length);
      want.insert(want.end(), kGap, kGuard);
    }
    return want;
  }
};

class SegmentReaderTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-segment-reader-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // Files of no bytes, of less than two sectors, of a MiB and an odd
    // remainder, and an anonymous run file as the merge reads them.
    files_.push_back(named_file("empty", {}));
    files_.push_back(named_file("small", random_bytes(5000, 1)));
    files_.push_back(named_file("large", random_bytes((std::uint64_t{1} << 20) + 12345, 2)));
    TempDirectories temps({dir_.string()});
    File run{temps.create_anonymous(), random_bytes(300001, 3)};
    pwrite_full(run.fd.get(), run.data.data(), run.data.size(), 0, "run");
    files_.push_back(std::move(run));
  }
  void TearDown() override {
    files_.clear();
    fs::remove_all(dir_);
  }

  File named_file(const std::string& name, Bytes data) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data.data()),
                                                static_cast<std::streamsize>(data.size()));
    return File{FileDesc::open(path, O_RDONLY), std::move(data)};
  }

  const File& empty() const { return files_[0]; }
  const File& small() const { return files_[1]; }
  const File& large() const { return files_[2]; }
  const File& run() const { return files_[3]; }

  // Segments on the edges that matter: empty ones, whole files, single bytes
  // across a sector edge and at a file's end, aligned and unaligned stretches,
  // several of one file overlapping.
  Plan edges() const {
    Plan p;
    p.add(empty(), 0, 0);
    p.add(small(), 0, 5000);
    p.add(small(), 4095, 2);
    p.add(small(), 4999, 1);
    p.add(small(), 5000, 0);
    p.add(large(), 1, large().data.size() - 1);
    p.add(large(), 3 * 4096, 5 * 4096);
    p.add(large(), 777, 0);
    p.add(run(), 12345, 200000);
    p.add(run(), 0, run().data.size());
    p.add(small(), 123, 4000);
    return p;
  }

  // Up to 12 segments at random offsets of the four files, a fifth of them empty.
  Plan random_plan(std::mt19937_64& rng) const {
    Plan p;
    const std::size_t k = 1 + rng() % 12;
    for (std::size_t i = 0; i < k; ++i) {
      const File& f = files_[rng() % files_.size()];
      const std::uint64_t size = f.data.size();
      const std::uint64_t offset = rng() % (size + 1);
      const std::uint64_t length = rng() % 5 == 0 ? 0 : rng() % (std::min<std::uint64_t>(size - offset, 70000) + 1);
      p.add(f, offset, length);
    }
    return p;
  }

  fs::path dir_;
  std::vector<File> files_;
};

const Engine kEngines[] = {{true, true}, {true, false}, {false, true}, {false, false}};

TEST_F(SegmentReaderTest, ReadsEverySegmentIntoItsStretch) {
  std::mt19937_64 rng(17);
  for (const Engine& e : kEngines) {
    if (const char* why = unavailable(e)) {
      std::printf("[segment reader] %s skipped: %s\n", e.name(), why);
      continue;
    }
    // Blocks below the 4 KiB floor, off the sector size, and larger; one
    // request in flight or several.
    for (std::size_t block : {std::size_t{100}, std::size_t{5000}, std::size_t{64} << 10})
      for (unsigned depth : {1u, 4u}) {
        SCOPED_TRACE(std::string(e.name()) + ", direct " + std::to_string(e.direct) + ", block " +
                     std::to_string(block) + ", depth " + std::to_string(depth));
        SegmentReader reader(options(e, block, depth), "run file");
        EXPECT_EQ(reader.engine_name(), e.name());
        reader.read({});
        for (int round = 0; round < 8; ++round) {
          const Plan plan = round == 0 ? edges() : random_plan(rng);
          Bytes buf;
          const std::vector<Segment> segments = plan.segments(buf);
          reader.read(segments);
          EXPECT_TRUE(buf == plan.expected()) << "round " << round << ", " << segments.size() << " segments";
        }
      }
  }
}

// Segments of no bytes make no request, so nothing can fail for them.
TEST_F(SegmentReaderTest, EmptySegmentsMakeNoRequest) {
  for (const Engine& e : kEngines) {
    if (unavailable(e)) continue;
    SCOPED_TRACE(std::string(e.name()) + ", direct " + std::to_string(e.direct));
    SegmentReader reader(options(e, 4096, 4), "run file");
    Plan p;
    p.add(empty(), 0, 0);
    p.add(large(), 100, 0);
    p.add(run(), run().data.size(), 0);
    Bytes buf;
    FailAfter failed_device(FaultPoint::read, 1);
    ScopedFaultInjector scope(failed_device);
    reader.read(p.segments(buf));
    EXPECT_TRUE(buf == p.expected());
    EXPECT_EQ(failed_device.requests(), 0u);
  }
}

// The reader reads segments in full: one that runs past the end of its file
// (the file shorter than its caller believes) is an IoError naming the
// reader's file and why, wherever it lies among the others.
TEST_F(SegmentReaderTest, SegmentPastTheEndOfItsFileThrows) {
  for (const Engine& e : kEngines) {
    if (unavailable(e)) continue;
    SCOPED_TRACE(std::string(e.name()) + ", direct " + std::to_string(e.direct));
    SegmentReader reader(options(e, 4096, 3), "run file");
    const std::uint64_t small_size = small().data.size(), run_size = run().data.size();
    // Ends one byte late; starts inside and ends blocks late; starts past the end.
    for (const auto& [offset, length] : {std::pair{small_size - 10, std::uint64_t{11}},
                                         std::pair{small_size - 4000, std::uint64_t{20000}},
                                         std::pair{small_size + 1, std::uint64_t{10}}}) {
      SCOPED_TRACE("segment [" + std::to_string(offset) + ", " + std::to_string(offset + length) + ")");
      Plan p;
      p.add(run(), 0, run_size);  // many requests before the short one
      p.add(small(), offset, length);
      p.add(large(), 5, 100000);  // and after it
      Bytes buf;
      try {
        reader.read(p.segments(buf));
        ADD_FAILURE() << "a short segment was read without an error";
      } catch (const IoError& err) {
        const std::string what = err.what();
        EXPECT_NE(what.find("run file"), std::string::npos) << what;
        EXPECT_NE(what.find("run ended early"), std::string::npos) << what;
      }
      // The same reader reads on: no completion of the failed read is left.
      const Plan good = edges();
      reader.read(good.segments(buf));
      EXPECT_TRUE(buf == good.expected());
    }
    // A segment that ends exactly at the end of its file is whole.
    Plan at_end;
    at_end.add(small(), small_size - 10, 10);
    at_end.add(run(), run_size - 4097, 4097);
    Bytes buf;
    reader.read(at_end.segments(buf));
    EXPECT_TRUE(buf == at_end.expected());
  }
}

// A failed device at the nth read request: an IoError with the device's
// error and the reader's file; the device back, the reader reads on.
TEST_F(SegmentReaderTest, FailedReadIsAnIoErrorAndTheReaderReadsOn) {
  for (const Engine& e : kEngines) {
    if (unavailable(e)) continue;
    SegmentReader reader(options(e, 4096, 4), "run file");
    const Plan plan = edges();  // hundreds of 4 KiB requests
    for (std::uint64_t nth : {1u, 2u, 5u, 100u}) {
      SCOPED_TRACE(std::string(e.name()) + ", direct " + std::to_string(e.direct) + ", request " +
                   std::to_string(nth) + " fails");
      Bytes buf;
      {
        FailAfter failed_device(FaultPoint::read, nth);
        ScopedFaultInjector scope(failed_device);
        try {
          reader.read(plan.segments(buf));
          ADD_FAILURE() << "the read did not fail";
        } catch (const IoError& err) {
          const std::string what = err.what();
          EXPECT_NE(what.find("Input/output error"), std::string::npos) << what;
          EXPECT_NE(what.find("run file"), std::string::npos) << what;
        }
        EXPECT_GE(failed_device.requests(), nth);
      }
      reader.read(plan.segments(buf));
      EXPECT_TRUE(buf == plan.expected());
    }
  }
}

// Fails every read request from the nth on; at the nth, lets the test's
// writer thread go, which feeds the pipe a request before it waits on.
class FailNthAndFeed final : public FaultInjector {
public:
  explicit FailNthAndFeed(std::uint64_t n) : n_(n) {}
  bool fail(FaultPoint point) noexcept override {
    if (point != FaultPoint::read || ++seen_ < n_) return false;
    std::lock_guard lock(m_);
    failed_ = true;
    cv_.notify_all();
    return true;
  }
  // Waits until a request failed or `stop` is asked.
  void wait(std::stop_token stop) {
    std::unique_lock lock(m_);
    cv_.wait(lock, stop, [&] { return failed_; });
  }

private:
  std::uint64_t n_;
  std::atomic<std::uint64_t> seen_{0};
  std::mutex m_;
  std::condition_variable_any cv_;
  bool failed_ = false;
};

// The caller may free its memory as soon as read() throws, so a failed read
// first waits for the requests it has in flight. A read of an empty pipe is
// one that stays in flight for certain (a read of a disk file from the page
// cache is done as soon as it is submitted): it is submitted first, the next
// request fails, and only then is the pipe fed. read() throws after the
// pipe's bytes are in place, never before. (io_uring only: pread cannot read
// a pipe, and runs each request as it is submitted.)
TEST_F(SegmentReaderTest, FailedReadWaitsForItsRequestsInFlight) {
  const Engine e{true, false};
  if (const char* why = unavailable(e)) GTEST_SKIP() << why;
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  const FileDesc pipe_out(p[0]), pipe_in(p[1]);
  const Bytes fed = random_bytes(100, 8);
  Plan plan;
  File pipe_file{FileDesc(::dup(pipe_out.get())), fed};
  plan.add(pipe_file, 0, fed.size());
  plan.add(large(), 0, 3 * 4096);
  Bytes buf;
  const std::vector<Segment> segments = plan.segments(buf);

  SegmentReader reader(options(e, 4096, 4), "run file");
  FailNthAndFeed fault(2);
  ScopedFaultInjector scope(fault);
  // Declared after the reader, so it has fed the pipe before the reader reaps
  // on destruction, whatever happened.
  std::jthread feeder([&](std::stop_token stop) {
    fault.wait(stop);
    ASSERT_EQ(::write(pipe_in.get(), fed.data(), fed.size()), static_cast<ssize_t>(fed.size()));
  });
  EXPECT_THROW(reader.read(segments), IoError);
  EXPECT_TRUE(std::equal(fed.begin(), fed.end(), buf.begin() + kGap))
      << "read() threw while its read of the pipe was in flight";
}

}  // namespace
}  // namespace corank::io
