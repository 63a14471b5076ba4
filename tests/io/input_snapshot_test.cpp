// One snapshot of an input (source.hpp): a regular file's size is taken when
// it is opened, a file that grows is read up to it, and one that shrinks
// while it is read is an IoError naming it with both sizes, never a short
// input; on both engines, O_DIRECT from the disk, buffered, and split over
// threads (read_ahead_source.hpp), and through PositionalInput and standard
// input. A spilled run read short is "run ended early". The kernel's pseudo
// files, whose sizes say nothing, are read to their end. The files change
// between reads through ResizeAtRead, a fault injector.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>

#include "../resize_at_read.hpp"
#include "corank/io/error.hpp"
#include "corank/io/positional_input.hpp"
#include "corank/io/read_ahead_source.hpp"
#include "corank/io/run_file.hpp"
#include "corank/io/source.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

using corank::test::drop_cached_pages;
using corank::test::ResizeAtRead;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// How a regular input is read: O_DIRECT (its pages not cached), buffered
// through the engine, or by threads at once (read_threads, no engine).
enum class Path { direct, buffered, parallel };

const char* path_label(Path p) {
  switch (p) {
    case Path::direct: return "O_DIRECT";
    case Path::buffered: return "buffered";
    case Path::parallel: return "parallel pread";
  }
  return "";
}

class InputSnapshot : public ::testing::TestWithParam<Engine> {
protected:
  // Options for `path`, with the file's pages dropped for the direct path.
  IoOptions options(Path p, const std::string& file) {
    IoOptions o = options_for(GetParam());
    o.direct = p == Path::direct;
    if (p == Path::parallel) o.read_threads = 4;
    if (p == Path::direct) EXPECT_TRUE(drop_cached_pages(file));
    return o;
  }
  // Opens `file` as an input and checks that it is read the way `p` says.
  std::unique_ptr<ByteSource> open(Path p, const std::string& file, const IoOptions& o) {
    auto src = open_source(file, o);
    auto* ahead = dynamic_cast<ReadAheadSource*>(src.get());
    EXPECT_NE(ahead, nullptr);
    if (ahead) {
      EXPECT_EQ(ahead->direct(), p == Path::direct) << "not the path under test";
      EXPECT_EQ(ahead->engine_name() == "parallel pread", p == Path::parallel) << "not the path under test";
    }
    return src;
  }
  ScratchDir dir_;
};

// 9 MiB, of which 1 MiB is read before the file is cut to 5 MiB (past every
// read issued by then, so the cut is the same on every engine): the next
// reads find it short, and say so.
TEST_P(InputSnapshot, AFileThatShrinksWhileReadIsAnError) {
  CORANK_REQUIRE_ENGINE(GetParam());
  for (Path p : {Path::direct, Path::buffered, Path::parallel}) {
    SCOPED_TRACE(path_label(p));
    const std::string file = dir_.file("in");
    spit(file, pattern(9 * kMiB, 3));
    const IoOptions o = options(p, file);
    auto src = open(p, file, o);
    ASSERT_EQ(src->size(), 9 * kMiB);
    std::string buf(9 * kMiB, '\0');
    ASSERT_EQ(src->read(buf.data(), kMiB), kMiB);
    auto cut = ResizeAtRead::cut(file, 1, 5 * kMiB);
    ScopedFaultInjector scope(cut);
    try {
      std::uint64_t got = kMiB;
      while (std::size_t n = src->read(buf.data() + got, buf.size() - got)) got += n;
      ADD_FAILURE() << "read " << got << " bytes of a file that shrank, without an error";
    } catch (const IoError& e) {
      EXPECT_EQ(std::string(e.what()),
                "read failed: " + file + ": the file shrank while it was being read (from 9437184 to 5242880 bytes)");
    }
    EXPECT_TRUE(cut.resized());
  }
}

// A file that grows (a log being written) yields the bytes it had when opened.
TEST_P(InputSnapshot, AFileThatGrowsIsReadUpToItsSizeWhenOpened) {
  CORANK_REQUIRE_ENGINE(GetParam());
  for (Path p : {Path::direct, Path::buffered, Path::parallel}) {
    SCOPED_TRACE(path_label(p));
    const std::string file = dir_.file("log");
    const std::string data = pattern(5 * kMiB + 123, 4);
    spit(file, data);
    const IoOptions o = options(p, file);
    auto src = open(p, file, o);
    auto grow = ResizeAtRead::grow(file, 1, pattern(3 * kMiB, 5));
    ScopedFaultInjector scope(grow);
    std::string got(10 * kMiB, '\0');
    std::size_t n = 0;
    while (std::size_t k = src->read(got.data() + n, got.size() - n)) n += k;
    got.resize(n);
    EXPECT_TRUE(got == data) << n << " bytes read of " << data.size();
    EXPECT_TRUE(grow.resized());
  }
}

// The positional reader of the device pipeline and corank-mpi: sizes taken at
// construction; a shorter file is an error naming it, a longer one is read
// up to the size it had.
TEST_P(InputSnapshot, PositionalInputKeepsTheSizesItOpened) {
  const std::string a = dir_.file("a"), b = dir_.file("b");
  const std::string da = pattern(300'000, 6), db = pattern(500'000, 7);
  spit(a, da);
  spit(b, db);
  PositionalInput in({a, b});
  ASSERT_EQ(in.size(), 800'000u);
  std::string got(800'000, '\0');
  {
    auto grow = ResizeAtRead::grow(a, 1, "more");
    ScopedFaultInjector scope(grow);
    in.read(0, reinterpret_cast<std::byte*>(got.data()), got.size());
    EXPECT_TRUE(grow.resized());
  }
  EXPECT_TRUE(got == da + db);
  auto cut = ResizeAtRead::cut(b, 1, 499'900);
  ScopedFaultInjector scope(cut);
  try {
    in.read(250'000, reinterpret_cast<std::byte*>(got.data()), 550'000);
    ADD_FAILURE() << "a file that shrank was read without an error";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()),
              "read failed: " + b + ": the file shrank while it was being read (from 500000 to 499900 bytes)");
  }
}

// Held to sizes taken elsewhere (corank-mpi's rank 0): a file grown since is
// read to its given size, one already shorter says so through found_size and
// reports that it shrank when read past its end; a FIFO is not regular.
TEST_P(InputSnapshot, PositionalInputHeldToGivenSizes) {
  const std::string a = dir_.file("a"), b = dir_.file("b"), fifo = dir_.file("fifo");
  const std::string da = pattern(300'000, 8), db = pattern(1'000, 9);
  spit(a, da);
  spit(b, db);
  PositionalInput in({a, b}, {200'000, 1'200});
  EXPECT_EQ(in.size(), 201'200u);
  EXPECT_EQ(in.file_size(0), 200'000u);
  EXPECT_EQ(in.found_size(0), 300'000u);
  EXPECT_EQ(in.found_size(1), 1'000u);
  EXPECT_TRUE(in.regular(0));
  std::string got(200'000, '\0');
  in.read(0, reinterpret_cast<std::byte*>(got.data()), got.size());
  EXPECT_TRUE(got == da.substr(0, 200'000));
  try {
    in.read(200'500, reinterpret_cast<std::byte*>(got.data()), 700);
    ADD_FAILURE() << "a file shorter than its given size was read without an error";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()),
              "read failed: " + b + ": the file shrank while it was being read (from 1200 to 1000 bytes)");
  }
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int keep_open = ::open(fifo.c_str(), O_RDWR);  // the FIFO's open does not wait for a writer
  PositionalInput with_fifo({a, fifo}, {10, 0});
  EXPECT_FALSE(with_fifo.regular(1));
  ::close(keep_open);
}

// Standard input that is a regular file: read from its offset (what the shell
// or an earlier reader left) up to its size when opened, and an error, naming
// "-", when it shrinks.
TEST_P(InputSnapshot, StandardInputFromAFileKeepsItsSnapshot) {
  const std::string file = dir_.file("stdin");
  const std::string data = pattern(200'000, 8);
  spit(file, data);
  const int saved = ::dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  const int fd = ::open(file.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, 1000, SEEK_SET), 1000);
  ASSERT_EQ(::dup2(fd, STDIN_FILENO), STDIN_FILENO);
  ::close(fd);
  struct Restore {
    int saved;
    ~Restore() {
      ::dup2(saved, STDIN_FILENO);
      ::close(saved);
    }
  } restore{saved};
  {
    auto src = open_source("-", options_for(GetParam()));
    ASSERT_EQ(src->size(), 199'000u);
    auto grow = ResizeAtRead::grow(file, 1, "grown\n");
    ScopedFaultInjector scope(grow);
    std::string got(300'000, '\0');
    std::size_t n = 0;
    while (std::size_t k = src->read(got.data() + n, 4096)) n += k;
    got.resize(n);
    EXPECT_TRUE(got == data.substr(1000)) << n;
  }
  ASSERT_EQ(::lseek(STDIN_FILENO, 0, SEEK_SET), 0);
  auto src = open_source("-", options_for(GetParam()));
  std::string got(300'000, '\0');
  ASSERT_EQ(src->read(got.data(), 1000), 1000u);
  auto cut = ResizeAtRead::cut(file, 1, 150'000);
  ScopedFaultInjector scope(cut);
  try {
    while (src->read(got.data(), 4096) != 0) {
    }
    ADD_FAILURE() << "standard input shrank without an error";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "read failed: -: the file shrank while it was being read (from 200006 to 150000 bytes)");
  }
}

// A spilled run read back through the engine (make_run_source) that ends
// before its length: "run ended early", on every path.
TEST_P(InputSnapshot, ARunShorterThanWrittenEndedEarly) {
  CORANK_REQUIRE_ENGINE(GetParam());
  for (Path p : {Path::direct, Path::buffered}) {
    SCOPED_TRACE(path_label(p));
    const std::string file = dir_.file("run");
    spit(file, pattern(3 * kMiB, 9));
    const IoOptions o = options(p, file);
    const int fd = ::open(file.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    auto src = make_run_source(fd, "temporary file", o, 4096, 3 * kMiB);  // 4 KiB past the end
    std::string buf(4 * kMiB, '\0');
    EXPECT_THROW(
        {
          try {
            while (src->read(buf.data(), buf.size()) != 0) {
            }
          } catch (const IoError& e) {
            EXPECT_EQ(std::string(e.what()), "read failed: temporary file: run ended early");
            throw;
          }
        },
        IoError);
    src.reset();
    ::close(fd);
  }
}

// The kernel's pseudo files claim a size that is not their content's (0 for
// /proc, a page for /sys): they are read to their end, whatever it says.
TEST(PseudoFiles, AreReadToTheirEnd) {
  for (const std::string file : {"/proc/self/limits", "/sys/kernel/mm/transparent_hugepage/enabled"}) {
    if (::access(file.c_str(), R_OK) != 0) continue;
    SCOPED_TRACE(file);
    const std::string want = slurp(file);
    ASSERT_FALSE(want.empty());
    auto src = open_source(file, IoOptions{});
    EXPECT_EQ(src->size(), std::nullopt);
    std::string got(1 << 16, '\0');
    std::size_t n = 0;
    while (std::size_t k = src->read(got.data() + n, got.size() - n)) n += k;
    got.resize(n);
    EXPECT_EQ(got, want);
    EXPECT_FALSE(PositionalInput::suits({file}, IoOptions{}));
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, InputSnapshot, ::testing::Values(Engine::uring, Engine::pread),
                         [](const auto& info) { return std::string(engine_label(info.param)) == "io_uring" ? "uring" : "pread"; });

}  // namespace
}  // namespace corank::io::test
