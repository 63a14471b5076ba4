// What a killed rank leaves: names carry the host and the process id, the
// next run removes those of processes that are gone (and nothing else), and
// SIGTERM removes what is registered and ends the process by the signal, at
// once, or after a hold when one is in force.
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

#include "corank/io/temp_files.hpp"
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

// In a child: registers `file` (and `dir`, with a file in it), then raises
// SIGTERM, under a hold when `hold`; `marker` is written when the process
// lives on after the raise. Returns the child's wait status.
int child_raises_sigterm(const std::string& file, const std::string& dir, bool hold, const std::string& marker) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    install_cleanup_handlers();
    CleanupPath f(file, false), d(dir, true);
    {
      std::unique_ptr<SignalHold> h = hold ? std::make_unique<SignalHold>() : nullptr;
      ::raise(SIGTERM);
      if (const int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT, 0600); fd >= 0) ::close(fd);
    }
    ::_exit(0);
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
  const int status = child_raises_sigterm(dir / "temp", dir / "scratch", false, dir / "lived-on");
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::is_empty(dir.path()));
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

TEST(MpiCleanup, SigtermUnderAHoldWaitsForItsEnd) {
  TestDir dir;
  write_file(dir / "temp", "x");
  const int status = child_raises_sigterm(dir / "temp", dir / "none", true, dir / "lived-on");
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::exists(dir / "lived-on"));  // the held step finished
  EXPECT_FALSE(fs::exists(dir / "temp"));
}

}  // namespace
}  // namespace corank::mpi
