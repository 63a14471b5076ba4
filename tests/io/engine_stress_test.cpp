// Many engines at once on large files under memory pressure. Every reader and
// writer owns its engine and the buffers its requests point into; these tests
// run several of each on their own threads while another thread churns
// memory, and read into destinations whose pages were just dropped (so the
// kernel must fault them in while a request is in flight, the case where a
// buffer-lifetime or registration mistake shows up as EFAULT, "Bad address").
#include <fcntl.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/read_ahead_source.hpp"
#include "corank/io/segment_reader.hpp"
#include "corank/io/uring_engine.hpp"
#include "corank/io/write_behind_sink.hpp"
#include "../asan_build.hpp"
#include "io_test_util.hpp"

namespace corank::io {
namespace {

using test::Engine;

// Anonymous memory the test can drop page by page, as io::HugeVector allocates it.
class Mapping {
public:
  explicit Mapping(std::size_t bytes) : bytes_(bytes) {
    p_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p_ == MAP_FAILED) std::abort();
  }
  ~Mapping() { ::munmap(p_, bytes_); }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  std::byte* data() const { return static_cast<std::byte*>(p_); }
  // The next touch faults in a fresh zero page (or a huge one, when asked).
  void drop(bool huge) const {
    ::madvise(p_, bytes_, MADV_DONTNEED);
    ::madvise(p_, bytes_, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  }

private:
  void* p_;
  std::size_t bytes_;
};

// Allocates, touches and frees memory until stopped, so that the kernel
// reclaims, compacts and migrates pages while requests are in flight.
class MemoryChurn {
public:
  explicit MemoryChurn(std::size_t bytes)
      : thread_([this, bytes](std::stop_token stop) {
          while (!stop.stop_requested()) {
            Mapping m(bytes);
            m.drop(rounds_++ % 2 == 0);
            for (std::size_t i = 0; i < bytes && !stop.stop_requested(); i += 4096) m.data()[i] = std::byte{1};
          }
        }) {}

private:
  std::atomic<unsigned> rounds_{0};
  std::jthread thread_;
};

class EngineStress : public ::testing::TestWithParam<Engine> {
protected:
  void SetUp() override { CORANK_REQUIRE_ENGINE(GetParam()); }
  IoOptions opt(std::size_t block, unsigned depth) const { return test::options_for(GetParam(), block, depth); }
  test::ScratchDir dir_;
};

// A third of that under AddressSanitizer, which checks every byte the
// threads compare: the same requests in flight under the same churn, in a
// third of the time.
#ifdef CORANK_TEST_ASAN
constexpr std::size_t kFile = std::size_t{16} << 20;
#else
constexpr std::size_t kFile = std::size_t{48} << 20;
#endif
constexpr unsigned kThreads = 6;

TEST_P(EngineStress, SegmentReadersIntoDroppedPagesWhileMemoryChurns) {
  const std::string data = test::pattern(kFile, 11);
  test::spit(dir_.file("big"), data);
  MemoryChurn churn(std::size_t{256} << 20);
  std::atomic<unsigned> failures{0};
  std::vector<std::jthread> workers;
  for (unsigned t = 0; t < kThreads; ++t)
    workers.emplace_back([&, t] {
      auto fd = FileDesc::open(dir_.file("big"), O_RDONLY);
      // Small and large blocks, shallow and deep rings: requests split and requeue.
      SegmentReader reader(opt(std::size_t{64} << (t % 3 * 3), 2 + t % 4), "big");
      Mapping dst(std::size_t{8} << 20);
      std::mt19937_64 rng(t);
      for (int round = 0; round < 24; ++round) {
        dst.drop(round % 3 == 0);
        // Aligned and unaligned offsets, destinations and lengths: every
        // request lands in dst itself, on page edges or across them.
        const bool aligned = round % 2 == 0;
        std::uint64_t off = rng() % (kFile - (std::size_t{8} << 20));
        std::size_t len = 1 + rng() % (std::size_t{8} << 20);
        std::size_t at = aligned ? 0 : 1 + rng() % 4095;
        if (aligned) {
          off = off / 4096 * 4096;
          len = std::max<std::size_t>(len / 4096 * 4096, 4096);
        }
        len = std::min(len, (std::size_t{8} << 20) - at);
        // Two segments in flight at once, into the two halves.
        const std::size_t half = len / 2;
        const Segment segments[] = {{fd.get(), off, dst.data() + at, half},
                                    {fd.get(), off + half, dst.data() + at + half, len - half}};
        try {
          reader.read(segments);
          if (std::memcmp(dst.data() + at, data.data() + off, len) != 0) ++failures;
        } catch (const IoError&) {
          ++failures;
        }
      }
    });
  workers.clear();
  EXPECT_EQ(failures.load(), 0u);
}

TEST_P(EngineStress, ReadAheadSourcesAndWriteBehindSinksAtOnceWhileMemoryChurns) {
  const std::string data = test::pattern(kFile, 12);
  test::spit(dir_.file("big"), data);
  MemoryChurn churn(std::size_t{256} << 20);
  std::atomic<unsigned> failures{0};
  std::vector<std::jthread> workers;
  for (unsigned t = 0; t < kThreads; ++t)
    workers.emplace_back([&, t] {
      const IoOptions o = opt(std::size_t{64} << (t % 3 * 3), 2 + t % 4);
      const std::string copy = dir_.file("copy" + std::to_string(t));
      Mapping chunk(std::size_t{3} << 20);
      for (int round = 0; round < 2; ++round) {
        auto in = FileDesc::open(dir_.file("big"), O_RDONLY);
        auto out = FileDesc::open(copy, O_RDWR | O_CREAT | O_TRUNC, 0600);
        ReadAheadSource source(in.get(), FileDesc{}, "big", o);
        WriteBehindSink sink(out.get(), copy, o, false);
        std::uint64_t at = 0;
        for (;;) {
          chunk.drop(round == 1);
          // Uneven read sizes, so that reads and writes straddle blocks.
          const std::size_t want = 1 + (at * 7919 + t) % (std::size_t{3} << 20);
          const std::size_t got = source.read(chunk.data(), want);
          if (got == 0) break;
          if (std::memcmp(chunk.data(), data.data() + at, got) != 0) ++failures;
          sink.write(chunk.data(), got);
          at += got;
        }
        sink.finish();
        if (at != kFile || test::slurp(copy) != data) ++failures;
      }
    });
  workers.clear();
  EXPECT_EQ(failures.load(), 0u);
}

// A fixed-buffer request must lie inside the buffer it names: the kernel would
// answer -EFAULT later, far from the mistake; the engine refuses it at once.
TEST(UringEngine, RequestOutsideItsRegisteredBufferIsRefused) {
  if (!uring_available()) GTEST_SKIP() << "io_uring is not available here (io_uring_queue_init failed)";
  test::ScratchDir dir;
  test::spit(dir.file("f"), std::string(8192, 'x'));
  auto fd = FileDesc::open(dir.file("f"), O_RDONLY);
  Buffer a(default_allocator(), 4096), b(default_allocator(), 4096);
  UringEngine engine(2);
  const iovec iov[] = {{a.data(), 4096}, {b.data(), 4096}};
  if (!engine.register_buffers(iov)) GTEST_SKIP() << "buffers cannot be registered here (RLIMIT_MEMLOCK)";
  IoRequest r;
  r.fd = r.buffered_fd = fd.get();
  r.buf = a.data() + 1;
  r.len = 4096;  // one byte past the end of buffer 0
  r.buf_index = 0;
  EXPECT_THROW(engine.submit(r), std::logic_error);
  r.buf = b.data();
  r.buf_index = 0;  // the wrong buffer
  EXPECT_THROW(engine.submit(r), std::logic_error);
  r.buf_index = 1;
  engine.submit(r);
  IoCompletion c[1];
  ASSERT_EQ(engine.reap(c, 1), 1u);
  EXPECT_EQ(c[0].result, 4096);
  EXPECT_EQ(std::memcmp(b.data(), std::string(4096, 'x').data(), 4096), 0);
}

// A read into memory that cannot be written is answered -EFAULT, also by the
// synchronous retry the engine makes for that answer; the engine goes on.
TEST(UringEngine, BadAddressIsReportedAfterItsRetry) {
  if (!uring_available()) GTEST_SKIP() << "io_uring is not available here (io_uring_queue_init failed)";
  test::ScratchDir dir;
  test::spit(dir.file("f"), std::string(8192, 'y'));
  auto fd = FileDesc::open(dir.file("f"), O_RDONLY);
  void* ro = ::mmap(nullptr, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(ro, MAP_FAILED);
  UringEngine engine(2);
  IoRequest r;
  r.fd = r.buffered_fd = fd.get();
  r.buf = static_cast<std::byte*>(ro);
  r.len = 8192;
  r.tag = 1;
  engine.submit(r);
  IoCompletion c[1];
  ASSERT_EQ(engine.reap(c, 1), 1u);
  EXPECT_EQ(c[0].tag, 1u);
  EXPECT_EQ(c[0].result, -EFAULT);
  ::munmap(ro, 8192);
  std::string good(8192, '\0');
  r.buf = reinterpret_cast<std::byte*>(good.data());
  r.tag = 2;
  engine.submit(r);
  ASSERT_EQ(engine.reap(c, 1), 1u);
  EXPECT_EQ(c[0].result, 8192);
  EXPECT_EQ(good, std::string(8192, 'y'));
}

// pread_full into memory that cannot be written: EFAULT, after its retry.
TEST(PreadFull, BadAddressIsReportedAfterItsRetry) {
  test::ScratchDir dir;
  test::spit(dir.file("f"), std::string(8192, 'z'));
  auto fd = FileDesc::open(dir.file("f"), O_RDONLY);
  void* ro = ::mmap(nullptr, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(ro, MAP_FAILED);
  try {
    pread_full(fd.get(), ro, 8192, 0, "f");
    ADD_FAILURE() << "a read into read-only memory succeeded";
  } catch (const IoError& e) {
    EXPECT_EQ(e.error_code(), EFAULT) << e.what();
  }
  ::munmap(ro, 8192);
  // Fresh, never touched memory reads fine.
  Mapping fresh(8192);
  EXPECT_EQ(pread_full(fd.get(), fresh.data(), 8192, 0, "f"), 8192u);
  EXPECT_EQ(std::memcmp(fresh.data(), std::string(8192, 'z').data(), 8192), 0);
}

INSTANTIATE_TEST_SUITE_P(Engines, EngineStress, ::testing::Values(Engine::uring, Engine::pread),
                         [](const auto& info) { return std::string(test::engine_label(info.param)) == "io_uring" ? std::string("uring") : std::string("pread"); });

}  // namespace
}  // namespace corank::io
