// What a killed rank leaves: names carry the host and the process id, the
// next run removes those of processes that are gone (and nothing else), and
// SIGTERM, taken as corank-mpi takes it (cli/program_signals.hpp), removes
// what is registered and ends the process by the signal: at once, or after a
// section when one is open, and while the main thread is inside a call that
// takes no signal.
#include "corank/mpi/cleanup.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "corank/cli/program_signals.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/termination.hpp"
#include "test_files.hpp"

namespace corank::mpi {
namespace {

namespace fs = std::filesystem;
using testing::TestDir;
using testing::write_file;

// A process id that no process has: a child that has been waited for.
long dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

JobMark my_mark() {
  JobMark m;
  EXPECT_TRUE(parse_job_mark(job_mark() + ".0", m));
  EXPECT_EQ(m.pid, ::getpid());
  EXPECT_NE(m.start, 0u);
  return m;
}

TEST(MpiCleanup, JobMarksParsedFromTheRight) {
  JobMark m;
  ASSERT_TRUE(parse_job_mark(".out.txt.corank-mpi.node7.example.org.4242.98765.0", m));
  EXPECT_EQ(m.host, "node7.example.org");
  EXPECT_EQ(m.pid, 4242);
  EXPECT_EQ(m.start, 98765u);
  ASSERT_TRUE(parse_job_mark("corank-mpi.n1.17.5.Ab3xYz", m));
  EXPECT_EQ(m.host, "n1");
  EXPECT_FALSE(parse_job_mark("corank-mpi.n1.17.5", m));           // no tag
  EXPECT_FALSE(parse_job_mark(".out.corank-mpi.n1.x17.5.0", m));   // no pid
  EXPECT_FALSE(parse_job_mark("xcorank-mpi.n1.17.5.0", m));        // not a mark
  EXPECT_FALSE(parse_job_mark("out.corank-XXXXXX", m));
}

TEST(MpiCleanup, SweepRemovesWhatDeadJobsOfThisHostLeft) {
  TestDir dir;
  const JobMark me = my_mark();
  const std::string dead = "corank-mpi." + me.host + "." + std::to_string(dead_pid()) + ".12345";
  write_file(dir / (".out." + dead + ".0"), "dead shared output");
  write_file(dir / (".out.part-00001." + dead + ".new"), "dead staged part");
  fs::create_directory(dir / (dead + ".Xy12Zq"));
  write_file(dir / (dead + ".Xy12Zq/from-0"), "dead scratch");
  // This process's id, but another start: a process that had the id before.
  const std::string reused = "corank-mpi." + me.host + "." + std::to_string(me.pid) + "." + std::to_string(me.start + 1);
  write_file(dir / (".out." + reused + ".1"), "an id used again");
  const std::string live = ".out." + job_mark() + ".0";  // this process's
  write_file(dir / live, "alive");
  const std::string other = ".out.corank-mpi.another-host." + std::to_string(dead_pid()) + ".7.0";  // not ours to judge
  write_file(dir / other, "another host");
  write_file(dir / "out", "the target");
  sweep_dead_jobs(dir.path());
  std::set<std::string> left;
  for (const auto& e : fs::directory_iterator(dir.path())) left.insert(e.path().filename().string());
  EXPECT_EQ(left, (std::set<std::string>{live, other, "out"}));
}

// In a child that takes signals as corank-mpi does: registers `file` (and
// `dir`, with a file in it), then sends itself SIGTERM, inside a section when
// `section`, and writes `marker` before the section ends. Returns the child's
// wait status.
int child_gets_sigterm(const std::string& file, const std::string& dir, bool section, const std::string& marker) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    cli::take_program_signals(&remove_registered_paths);
    CleanupPath f(file, false), d(dir, true);
    {
      std::unique_ptr<io::DeferTermination> open = section ? std::make_unique<io::DeferTermination>() : nullptr;
      ::kill(::getpid(), SIGTERM);
      if (section) {
        ::usleep(200000);  // time for the signal's thread to take it and wait for the section
        if (const int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT, 0600); fd >= 0) ::close(fd);
      }
    }
    for (;;) ::pause();  // until the signal's thread ends the process
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(MpiCleanup, SigtermRemovesRegisteredPathsAndEndsTheProcess) {
  TestDir dir;
  write_file(dir / "temp", "x");
  fs::create_directory(dir / "scratch");
  write_file(dir / "scratch/a", "y");
  const int status = child_gets_sigterm(dir / "temp", dir / "scratch", false, dir / "lived-on");
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// A rank's main thread may be inside a call that takes a signal only when it
// returns (fsync() on a slow disk), while mpirun sends SIGKILL a second after
// its SIGTERM. The signal's own thread removes the registered paths while
// the main thread is still inside: here it waits in vfork() for a child that
// waits for the test's word.
TEST(MpiCleanup, SigtermIsTakenWhileTheMainThreadCannotTakeIt) {
  TestDir dir;
  write_file(dir / "temp", "x");
  int go[2], ready[2];
  ASSERT_EQ(::pipe(go), 0);
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    cli::take_program_signals(&remove_registered_paths);
    CleanupPath f(dir / "temp", false);
    if (::vfork() == 0) {
      char c;
      if (::write(ready[1], "r", 1) == 1 && ::read(go[0], &c, 1) >= 0) ::_exit(0);
      ::_exit(1);
    }
    for (;;) ::pause();
  }
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);  // the child's main thread is inside vfork() now
  ::kill(pid, SIGTERM);
  bool gone = false;
  for (int i = 0; i < 6000 && !(gone = !fs::exists(dir / "temp")); ++i) ::usleep(10000);
  EXPECT_EQ(::write(go[1], "g", 1), 1);  // lets the main thread out, if it still lives
  int status = 0;
  ::waitpid(pid, &status, 0);
  for (int fd : {go[0], go[1], ready[0], ready[1]}) ::close(fd);
  EXPECT_TRUE(gone) << "the registered file was still there a minute after SIGTERM";
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

// A mapped input that shrinks ends the process from the library's SIGBUS
// handler, which removes the files registered with the library: a rank's
// named files are among them, its scratch directories are the program's.
TEST(MpiCleanup, FilesAreRemovedByTheLibrarysDyingPathToo) {
  TestDir dir;
  write_file(dir / "temp", "x");
  {
    CleanupPath file(dir / "temp", false);
    io::unlink_registered_files();
    EXPECT_FALSE(fs::exists(dir / "temp"));
  }
  write_file(dir / "temp", "x");
  io::unlink_registered_files();  // released: no longer the library's to remove
  EXPECT_TRUE(fs::exists(dir / "temp"));
}

TEST(MpiCleanup, SigtermInASectionWaitsForItsEnd) {
  TestDir dir;
  write_file(dir / "temp", "x");
  const int status = child_gets_sigterm(dir / "temp", dir / "none", true, dir / "lived-on");
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::exists(dir / "lived-on"));  // the section finished
  EXPECT_FALSE(fs::exists(dir / "temp"));
}

}  // namespace
}  // namespace corank::mpi
