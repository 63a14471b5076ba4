// The engines under the readers and writers: sizes around the sector and
// block edges, both engines, direct and buffered, and the error paths.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "corank/io/diagnostics.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/read_ahead_source.hpp"
#include "corank/io/run_file.hpp"
#include "corank/io/segment_reader.hpp"
#include "corank/io/source.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/write_behind_sink.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

constexpr std::uint64_t kSizes[] = {0, 1, 4095, 4096, 4097, (std::uint64_t{3} << 20) + 1};

struct Case {
  Engine engine;
  bool direct;
};

class EngineTest : public ::testing::TestWithParam<Case> {
protected:
  void SetUp() override { CORANK_REQUIRE_ENGINE(GetParam().engine); }
  IoOptions opt(std::size_t block = std::size_t{64} << 10, unsigned depth = 4) const {
    IoOptions o = options_for(GetParam().engine, block, depth);
    o.direct = GetParam().direct;
    return o;
  }
  ScratchDir dir_;
};

std::string read_all(ByteSource& s, std::size_t chunk) {
  std::string out, buf(chunk, '\0');
  for (;;) {
    std::size_t k = s.read(buf.data(), chunk);
    out.append(buf.data(), k);
    if (k < chunk) return out;
  }
}

TEST_P(EngineTest, ReadAheadSourceReadsEveryByte) {
  for (std::uint64_t n : kSizes) {
    const std::string data = pattern(n, static_cast<std::uint32_t>(n));
    const std::string path = dir_.file("in-" + std::to_string(n));
    spit(path, data);
    // Chunk sizes that straddle the engine's blocks in different ways.
    for (std::size_t chunk : {std::size_t{1000}, std::size_t{65536}, std::size_t{1} << 20}) {
      if (chunk == 1000 && n > (1u << 20)) continue;  // byte-sized reads of MiBs prove nothing more
      auto src = open_source(path, opt());
      ASSERT_TRUE(src->size());
      EXPECT_EQ(*src->size(), n);
      EXPECT_EQ(read_all(*src, chunk), data) << "size " << n << " chunk " << chunk;
    }
  }
  auto fd = FileDesc::open(dir_.file("in-4097"), O_RDONLY);
  ReadAheadSource probe(fd.get(), FileDesc{}, "probe", opt());
  std::printf("[engine] %s, direct requested %d, O_DIRECT used %d\n", std::string(probe.engine_name()).c_str(),
              GetParam().direct, probe.direct());
  EXPECT_EQ(probe.engine_name(), engine_label(GetParam().engine));
}

TEST_P(EngineTest, OutputFileWritesEveryByte) {
  for (std::uint64_t n : kSizes) {
    const std::string data = pattern(n, static_cast<std::uint32_t>(n) + 7);
    const std::string path = dir_.file("out-" + std::to_string(n));
    {
      OutputFile out(path, opt());
      // Uneven pieces, so block boundaries fall inside writes.
      std::size_t at = 0, piece = 1;
      while (at < n) {
        std::size_t k = std::min<std::size_t>(piece, n - at);
        out.sink().write(data.data() + at, k);
        at += k;
        piece = piece * 3 + 1;
      }
      EXPECT_EQ(out.sink().bytes_written(), n);
      out.commit();
    }
    EXPECT_EQ(slurp(path), data) << "size " << n;
  }
  EXPECT_EQ(dir_.entries().size(), std::size(kSizes)) << "temporary files left behind";
}

TEST_P(EngineTest, WriteBehindSinkReportsEngine) {
  auto fd = FileDesc::open(dir_.file("w"), O_RDWR | O_CREAT | O_TRUNC, 0600);
  WriteBehindSink sink(fd.get(), "w", opt(), false);
  std::string data = pattern(300000);
  sink.write(data.data(), data.size());
  std::printf("[engine] write-behind: %s, O_DIRECT used %d\n", std::string(sink.engine_name()).c_str(),
              sink.direct());
  EXPECT_EQ(sink.engine_name(), engine_label(GetParam().engine));
  sink.finish();
  EXPECT_EQ(slurp(dir_.file("w")), data);
  // The descriptor's offset follows the data, as after write(2).
  EXPECT_EQ(::lseek(fd.get(), 0, SEEK_CUR), static_cast<off_t>(data.size()));
  // Writing on after finish() appends.
  sink.write("xyz", 3);
  sink.finish();
  EXPECT_EQ(slurp(dir_.file("w")), data + "xyz");
}

// Sinks given offsets fill disjoint parts of one file at once, whatever the
// parts' alignment: each part's first block ends on a sector boundary so that
// the rest can go direct. The descriptor's own offset is left alone.
TEST_P(EngineTest, WriteBehindSinksFillDisjointPartsAtOnce) {
  const std::string data = pattern((std::uint64_t{1} << 20) + 12345, 7);
  // Part boundaries on and off sector edges, a part shorter than a sector, an empty one.
  const std::uint64_t cuts[] = {0, 1, 4096, 4096, 5000, 200001, 200100, 700000, data.size()};
  auto fd = FileDesc::open(dir_.file("parts"), O_RDWR | O_CREAT | O_TRUNC, 0600);
  std::vector<std::jthread> writers;
  for (std::size_t p = 0; p + 1 < std::size(cuts); ++p)
    writers.emplace_back([&, p] {
      WriteBehindSink sink(fd.get(), "parts", opt(std::size_t{64} << 10, 3), false, cuts[p]);
      // Uneven write sizes, so blocks fill in different ways.
      for (std::uint64_t at = cuts[p]; at < cuts[p + 1];) {
        const std::uint64_t n = std::min<std::uint64_t>(cuts[p + 1] - at, 1 + (at * 7919) % 30000);
        sink.write(data.data() + at, n);
        at += n;
      }
      sink.finish();
    });
  writers.clear();
  EXPECT_EQ(slurp(dir_.file("parts")), data);
  EXPECT_EQ(::lseek(fd.get(), 0, SEEK_CUR), 0);
}

TEST_P(EngineTest, RunFileRoundTripAndSegmentReads) {
  TempDirectories temps({dir_.path()});
  for (std::uint64_t n : kSizes) {
    FileDesc fd = temps.create_anonymous();
    const std::string data = pattern(n, static_cast<std::uint32_t>(n) + 3);
    auto sink = make_run_sink(fd.get(), "run", opt());
    sink->write(data.data(), data.size());
    sink->finish();
    EXPECT_EQ(sink->stored_bytes(), n);
    auto src = make_run_source(fd.get(), "run", opt(), 0, sink->stored_bytes());
    EXPECT_EQ(read_all(*src, 1 << 16), data) << "size " << n;

    // Positional reads, as the merge loads a slab's run segments.
    SegmentReader reader(opt(), "run");
    std::mt19937_64 rng(n);
    std::vector<char> buf(200000 + 8192);
    for (int i = 0; i < 40; ++i) {
      const std::uint64_t off = n ? rng() % (n + 1) : 0;
      const std::size_t len = static_cast<std::size_t>(rng() % 200000);
      // Aligned and unaligned destinations, offsets and lengths; a segment is
      // read whole, so each ends inside the file.
      char* dst = buf.data() + (i % 2 ? 0 : 4096 - reinterpret_cast<std::uintptr_t>(buf.data()) % 4096);
      const std::uint64_t o = i % 3 == 0 ? off / 4096 * 4096 : off;
      const std::size_t l =
          static_cast<std::size_t>(std::min<std::uint64_t>(i % 3 == 0 ? len / 4096 * 4096 : len, n - o));
      const Segment segment{fd.get(), o, reinterpret_cast<std::byte*>(dst), l};
      reader.read({&segment, 1});
      ASSERT_EQ(std::memcmp(dst, data.data() + o, l), 0) << "size " << n << " offset " << o << " len " << l;
    }
    // One byte past the end of the run is an error, not a shorter read.
    const std::uint64_t tail = std::min<std::uint64_t>(n, 100);
    const Segment past_end{fd.get(), n - tail, reinterpret_cast<std::byte*>(buf.data()), tail + 1};
    EXPECT_THROW(reader.read({&past_end, 1}), IoError) << "size " << n;
    if (n > 3 * 65536) {
      // Several segments in flight at once, through one read.
      std::vector<std::string> outs(6, std::string(70000, '\0'));
      std::vector<Segment> segments;
      for (std::size_t i = 0; i < outs.size(); ++i)
        segments.push_back({fd.get(), i * 70001, reinterpret_cast<std::byte*>(outs[i].data()), 70000});
      reader.read(segments);
      for (std::size_t i = 0; i < outs.size(); ++i) EXPECT_EQ(outs[i], data.substr(i * 70001, 70000));
    }
  }
}

TEST_P(EngineTest, MissingFileNamesPathAndReason) {
  try {
    open_source(dir_.file("missing"), opt());
    FAIL() << "opened a missing file";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("open failed: " + dir_.file("missing") + ": No such file"), std::string::npos)
        << e.what();
  }
}

TEST_P(EngineTest, ReadErrorNamesSyscallPathAndReason) {
  // A write-only descriptor: every read fails with EBADF, inside the engine.
  const std::string path = dir_.file("wo");
  spit(path, pattern(100000));
  auto fd = FileDesc::open(path, O_WRONLY);
  try {
    ReadAheadSource src(fd.get(), FileDesc{}, path, opt());
    char buf[100];
    src.read(buf, sizeof buf);
    FAIL() << "read from a write-only descriptor succeeded";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "read failed: " + path + ": Bad file descriptor");
    EXPECT_EQ(e.error_code(), EBADF);
  }
}

TEST_P(EngineTest, OutputIntoDirectoryFails) {
  const std::string sub = dir_.file("sub");
  ASSERT_EQ(::mkdir(sub.c_str(), 0700), 0);
  // The target is a directory: the data goes to a temporary file, and the
  // rename over a directory fails, leaving nothing behind.
  try {
    OutputFile out(sub, opt());
    out.sink().write("abc", 3);
    out.commit();
    FAIL() << "committed over a directory";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(sub), std::string::npos) << e.what();
  }
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"sub"});
}

TEST_P(EngineTest, DirectoryAsInputFails) {
  try {
    open_source(dir_.path(), opt());
    FAIL() << "read a directory as input";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "read failed: " + dir_.path() + ": Is a directory");
  }
}

TEST_P(EngineTest, PermissionDenied) {
  const std::string path = dir_.file("secret");
  spit(path, "x");
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  ASSERT_EQ(::chmod(dir_.path().c_str(), 0755), 0);
  // Root ignores file modes, so as root the check runs in a child that has
  // dropped to an unprivileged user; otherwise in a child as we are.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
    if (::geteuid() != 0 && ::access(path.c_str(), R_OK) == 0) {
      ::chmod(path.c_str(), 0);  // our own file: take the permission away
    }
    try {
      open_source(path, opt());
      ::_exit(1);
    } catch (const IoError& e) {
      ::_exit(std::string(e.what()) == "open failed: " + path + ": Permission denied" ? 0 : 2);
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 3) GTEST_SKIP() << "cannot drop root privileges to test EACCES";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: opened an unreadable file; 2: wrong message";
}

TEST_P(EngineTest, FullDiskLeavesNoOutputAndNoTemporaryFile) {
  const std::string path = dir_.file("out.bin");
  const std::string data = pattern(std::size_t{1} << 20);
  // A write fault at the first, a middle, and the last (tail) write request.
  for (std::uint64_t nth : {1u, 5u, 17u}) {
    try {
      FailAfter full_disk(FaultPoint::write, nth);
      ScopedFaultInjector faults(full_disk);
      OutputFile out(path, opt());
      for (std::size_t at = 0; at < data.size(); at += 10000)
        out.sink().write(data.data() + at, std::min<std::size_t>(10000, data.size() - at));
      out.sink().write("tail", 4);
      out.commit();
      FAIL() << "write fault " << nth << " was not reported";
    } catch (const IoError& e) {
      EXPECT_EQ(std::string(e.what()), "write failed: " + path + ": No space left on device");
    }
    EXPECT_TRUE(dir_.entries().empty()) << "after fault at write " << nth << ": " << dir_.entries().size()
                                        << " entries left";
  }
}

TEST_P(EngineTest, FailedCommitKeepsOldTarget) {
  const std::string path = dir_.file("keep");
  spit(path, "old contents");
  try {
    FailAfter full_disk(FaultPoint::write, 1);
    ScopedFaultInjector faults(full_disk);
    OutputFile out(path, opt());
    out.sink().write("new", 3);
    out.commit();
    FAIL() << "no error";
  } catch (const IoError&) {
  }
  EXPECT_EQ(slurp(path), "old contents");
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"keep"});
}

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
  return std::string(i.param.engine == Engine::uring ? "uring" : "pread") + (i.param.direct ? "_direct" : "_buffered");
}

INSTANTIATE_TEST_SUITE_P(Engines, EngineTest,
                         ::testing::Values(Case{Engine::uring, true}, Case{Engine::uring, false},
                                           Case{Engine::pread, true}, Case{Engine::pread, false}),
                         case_name);

TEST(EngineSelection, EnvironmentForcesPread) {
  ::setenv("CORANK_IO", "pread", 1);
  IoOptions o;
  auto e = make_engine(o);
  ::unsetenv("CORANK_IO");
  EXPECT_EQ(e->name(), "pread");
  std::printf("[engine] io_uring available here: %s\n", uring_available() ? "yes" : "no");
  EXPECT_EQ(make_engine(o)->name(), uring_available() ? "io_uring" : "pread");
}

// The notes an engine's choice sends to its options' Diagnostics.
struct NoteRecorder final : Diagnostics {
  std::vector<std::string> notes;
  void note(std::string_view line) override { notes.emplace_back(line); }
  void warning(std::string_view) override {}
};

TEST(EngineSelection, FailedRingSetupFallsBackAndSaysSo) {
  if (!uring_available()) GTEST_SKIP() << "io_uring unavailable: every engine here is already the fallback";
  // More entries than io_uring_queue_init accepts (32768): it fails with EINVAL.
  // The note goes to the options' Diagnostics, not to stderr.
  NoteRecorder said;
  IoOptions o;
  o.queue_depth = 100000;
  o.verbose = true;
  o.diagnostics = &said;
  ::testing::internal::CaptureStderr();
  auto e = make_engine(o);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(e->name(), "pread");
  EXPECT_EQ(err, "");
  EXPECT_EQ(said.notes, std::vector<std::string>{"io_uring unavailable (Invalid argument), using pread/pwrite"});
}

TEST(EngineSelection, PreadNoteNamesWhoChoseIt) {
  // -v says why io_uring is not used: the user's option, the environment, or
  // corank's own reason; never an option the user did not give.
  NoteRecorder said;
  IoOptions o;
  o.verbose = true;
  o.diagnostics = &said;
  o.use_uring = false;
  EXPECT_EQ(make_engine(o)->name(), "pread");
  o.pread_reason = "a reason of the test's";
  EXPECT_EQ(make_engine(o)->name(), "pread");
  EXPECT_EQ(said.notes, (std::vector<std::string>{"using pread/pwrite (--io-engine=pread)",
                                                  "using pread/pwrite (a reason of the test's)"}));
}

}  // namespace
}  // namespace corank::io::test
