// OutputFile's crash-safe files: the output has no name until commit() (a
// killed process leaves nothing); a file system without unnamed files gets an
// owned name, removed by the next run once its process is gone; a hard-linked
// target is staged in the staging directory, its space allocated before its
// old content is touched, the copy locked against other writers and a
// DeferTermination section; extended attributes, dangling symlinks and -o ''
// as GNU sort has them.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/owned_temporary.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/termination.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

IoOptions small_blocks() {
  IoOptions o;
  o.block_size = std::size_t{64} << 10;
  o.queue_depth = 4;
  return o;
}

void write_all(OutputFile& out, const std::string& data) {
  for (std::size_t at = 0; at < data.size(); at += 10000)
    out.sink().write(data.data() + at, std::min<std::size_t>(10000, data.size() - at));
}

std::string real(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

std::string host() {
  char h[65] = {};
  ::gethostname(h, 64);
  return h;
}

// A PID that no process has: a child's, once it has been reaped.
pid_t gone_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

class OutputFileTest : public ::testing::Test {
protected:
  ScratchDir dir_;
};

TEST_F(OutputFileTest, TheOutputHasNoNameUntilCommit) {
  const std::string target = dir_.file("out");
  spit(target, "old");
  const std::string data = pattern(std::size_t{1} << 20);
  {
    OutputFile out(target, small_blocks());
    write_all(out, data);
    out.finish_writing();
    EXPECT_EQ(dir_.entries(), std::vector<std::string>{"out"}) << "a name beside the target before commit";
    EXPECT_EQ(slurp(target), "old");
  }  // not committed
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"out"});
  EXPECT_EQ(slurp(target), "old");
  {
    OutputFile out(target, small_blocks());
    write_all(out, data);
    out.commit();
  }
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"out"});
  EXPECT_EQ(slurp(target), data);
}

// A writer that streamed records into the output and must merge them after
// all reads them back, and the output starts over: what was written before
// the restart is gone from what is committed, for a new target, a replaced
// one and a hard-linked one filled in place.
TEST_F(OutputFileTest, RestartReadsBackWhatWasWrittenAndStartsOver) {
  const std::string first = pattern(300000, 3), second = pattern(200000, 4);
  spit(dir_.file("old"), "old");
  spit(dir_.file("linked"), "old");
  ASSERT_EQ(::link(dir_.file("linked").c_str(), dir_.file("link2").c_str()), 0);
  for (const std::string name : {"new", "old", "linked"}) {
    SCOPED_TRACE(name);
    IoOptions opt = small_blocks();
    opt.staging_dir = dir_.path();
    OutputFile out(dir_.file(name), opt);
    ASSERT_TRUE(out.can_reserve_range() && out.can_read_back());
    write_all(out, first);
    out.sink().finish();
    {
      std::string back(first.size() + 1, '\0');
      const int fd = out.open_for_reading();
      ASSERT_GE(fd, 0);
      EXPECT_EQ(::pread(fd, back.data(), back.size(), 0), static_cast<ssize_t>(first.size()));
      back.resize(first.size());
      EXPECT_TRUE(back == first);
      ::close(fd);
    }
    out.restart();
    write_all(out, second);
    out.commit();
    EXPECT_TRUE(slurp(dir_.file(name)) == second);
  }
  EXPECT_TRUE(slurp(dir_.file("link2")) == second);
  EXPECT_THROW(OutputFile(dir_.file("c.gz"), small_blocks()).restart(), std::logic_error);
}

TEST_F(OutputFileTest, WithoutUnnamedFilesTheNameSaysWhoseItIs) {
  FailAfter no_tmpfile(FaultPoint::unnamed_file, 1);
  ScopedFaultInjector faults(no_tmpfile);
  const std::string target = dir_.file("out");
  const std::string prefix = ".out.corank-" + host() + "-" + std::to_string(::getpid()) + "-";
  {
    OutputFile out(target, small_blocks());
    write_all(out, "abc");
    out.finish_writing();
    const auto names = dir_.entries();
    ASSERT_EQ(names.size(), 1u);
    EXPECT_TRUE(names[0].starts_with(prefix)) << names[0];
  }
  EXPECT_TRUE(dir_.entries().empty()) << "the named temporary outlived its OutputFile";
  {
    OutputFile out(target, small_blocks());
    write_all(out, "abc");
    out.commit();
  }
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"out"});
  EXPECT_EQ(slurp(target), "abc");
  EXPECT_GE(no_tmpfile.requests(), 2u);
}

TEST_F(OutputFileTest, StaleNamesOfGoneProcessesAreRemoved) {
  const pid_t gone = gone_pid();
  const std::string stale = ".out.corank-" + host() + "-" + std::to_string(gone) + "-12345-abcdef";
  const std::string alive = ".out.corank-" + host() + "-" + std::to_string(::getppid()) + "-0-abcdef";
  spit(dir_.file(stale), "left by a killed sort");
  spit(dir_.file(alive), "a running sort's");
  {
    OutputFile out(dir_.file("out"), small_blocks());
    write_all(out, "abc");
    out.commit();
  }
  std::vector<std::string> names = dir_.entries();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{alive, "out"}));
}

// A target with two links: staged, then copied in.
class InPlaceTest : public OutputFileTest {
protected:
  void SetUp() override {
    ASSERT_EQ(::mkdir(dir_.file("stage").c_str(), 0700), 0);
    ASSERT_EQ(::mkdir(dir_.file("t").c_str(), 0700), 0);
    spit(target_, old_);
    ASSERT_EQ(::link(target_.c_str(), dir_.file("t/other-link").c_str()), 0);
    opt_.staging_dir = dir_.file("stage");
  }
  void expect_old() {
    EXPECT_EQ(slurp(target_), old_);
    EXPECT_EQ(slurp(dir_.file("t/other-link")), old_);
  }
  std::string target_ = dir_.file("t/out"), old_ = pattern(300000, 5);
  std::string data_ = pattern(std::size_t{1} << 20, 6);
  IoOptions opt_ = small_blocks();
};

TEST_F(InPlaceTest, StagedInTheStagingDirectoryWhichMessagesName) {
  try {
    FailAfter full(FaultPoint::write, 1);
    ScopedFaultInjector faults(full);
    OutputFile out(target_, opt_);
    write_all(out, data_);
    out.commit();
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()),
              "write failed: temporary file in '" + real(dir_.file("stage")) + "': No space left on device");
  }
  expect_old();
  {
    OutputFile out(target_, opt_);
    write_all(out, data_);
    out.commit();
  }
  EXPECT_EQ(slurp(dir_.file("t/other-link")), data_);
}

TEST_F(InPlaceTest, NoSpaceForTheNewContentLeavesTheOldWhole) {
  OutputFile out(target_, opt_);
  write_all(out, data_);
  out.finish_writing();
  FailAfter full(FaultPoint::write, 1);  // the first request of the commit: the target's allocation
  ScopedFaultInjector faults(full);
  EXPECT_THROW(out.commit(), IoError);
  expect_old();
}

// Records, at each write request, whether termination was deferred then.
class DeferralProbe final : public FaultInjector {
public:
  bool fail(FaultPoint point) noexcept override {
    if (point == FaultPoint::write) seen.push_back(termination_deferred());
    return false;
  }
  std::vector<bool> seen;
};

TEST_F(InPlaceTest, TheCopyDefersTermination) {
  OutputFile out(target_, opt_);
  write_all(out, data_);
  out.finish_writing();
  DeferralProbe probe;
  {
    ScopedFaultInjector faults(probe);
    out.commit();
  }
  EXPECT_FALSE(termination_deferred());
  ASSERT_GE(probe.seen.size(), 2u);
  EXPECT_FALSE(probe.seen[0]) << "the allocation, before the old content is touched, need not defer";
  for (std::size_t i = 1; i < probe.seen.size(); ++i) EXPECT_TRUE(probe.seen[i]) << "write request " << i;
  EXPECT_EQ(slurp(dir_.file("t/other-link")), data_);
}

TEST_F(InPlaceTest, ConcurrentCopiesTakeTurns) {
  OutputFile out(target_, opt_);
  write_all(out, data_);
  out.finish_writing();
  // Another writer holds the target's lock: the copy waits for it.
  const FileDesc other(::open(target_.c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_EQ(::flock(other.get(), LOCK_EX), 0);
  std::atomic<bool> done{false};
  std::thread commit([&] {
    out.commit();
    done = true;
  });
  ::usleep(200000);
  EXPECT_FALSE(done) << "copied while another writer held the lock";
  expect_old();
  ::flock(other.get(), LOCK_UN);
  commit.join();
  EXPECT_EQ(slurp(dir_.file("t/other-link")), data_);
}

TEST_F(OutputFileTest, ReplacingKeepsExtendedAttributes) {
  const std::string target = dir_.file("out");
  spit(target, "old");
  if (::setxattr(target.c_str(), "user.corank.test", "kept", 4, 0) != 0)
    GTEST_SKIP() << "no user.* extended attributes on " << dir_.path() << ": " << std::strerror(errno);
  {
    OutputFile out(target, small_blocks());
    write_all(out, "new");
    out.commit();
  }
  EXPECT_EQ(slurp(target), "new");
  char value[16] = {};
  ASSERT_EQ(::getxattr(target.c_str(), "user.corank.test", value, sizeof value), 4) << std::strerror(errno);
  EXPECT_EQ(std::string(value, 4), "kept");
}

TEST_F(OutputFileTest, ADanglingSymlinkGetsItsFileCreated) {
  ASSERT_EQ(::symlink("made", dir_.file("link").c_str()), 0);
  {
    OutputFile out(dir_.file("link"), small_blocks());
    write_all(out, "new");
    out.commit();
  }
  struct stat st {};
  ASSERT_EQ(::lstat(dir_.file("link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link was replaced";
  EXPECT_EQ(slurp(dir_.file("made")), "new");
}

TEST_F(OutputFileTest, AnEmptyTargetIsNoFile) {
  try {
    OutputFile out("", small_blocks());
    FAIL() << "an empty name was accepted";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "open failed: '': No such file or directory");
  }
}

TEST_F(OutputFileTest, TemporaryDirectoriesSayWhyTheyTakeNoFiles) {
  try {
    TempDirectories({"/proc"}).create_anonymous();
    FAIL() << "a temporary file in /proc";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot create temporary file in '/proc': the file system there takes no new files");
  }
  TempDirectories temps({dir_.path()});
  const FileDesc run = temps.create_anonymous();
  EXPECT_EQ(file_name_in_errors(run.get(), std::string(kTemporaryFile)), "temporary file in '" + real(dir_.path()) + "'");
  EXPECT_EQ(file_name_in_errors(run.get(), "out"), "out");
}

}  // namespace
}  // namespace corank::io::test
