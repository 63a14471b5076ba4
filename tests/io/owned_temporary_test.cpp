// Owned temporary names: they carry host, PID and the process's start time,
// fit NAME_MAX whatever the stem, and a sweep removes exactly those of this
// host whose process is gone (or whose PID now serves another process). Runs
// on a file system without unnamed files are named for an instant only, and
// stale ones are swept first.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "corank/io/fault_injection.hpp"
#include "corank/io/owned_temporary.hpp"
#include "corank/io/temp_files.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

std::string host() {
  char h[65] = {};
  ::gethostname(h, 64);
  return h;
}

// Field 22 of /proc/PID/stat, read here independently of the library.
std::string start_of(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  std::size_t at = stat.rfind(')');
  for (int field = 2; field < 22; ++field) at = stat.find(' ', at + 1);
  return stat.substr(at + 1, stat.find(' ', at + 1) - at - 1);
}

pid_t gone_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

TEST(OwnedTemporary, TheNameSaysWhoseItIs) {
  ScratchDir dir;
  std::string path;
  const int fd = create_owned_temporary(dir.path(), "out.txt", 0600, &path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  const std::string want = dir.path() + "/.out.txt.corank-" + host() + "-" + std::to_string(::getpid()) + "-" +
                           start_of(::getpid()) + "-";
  EXPECT_TRUE(path.starts_with(want)) << path << " vs " << want;
  EXPECT_EQ(path.size(), want.size() + 6);
}

TEST(OwnedTemporary, ALongStemStillFits) {
  ScratchDir dir;
  std::string path;
  const int fd = create_owned_temporary(dir.path(), std::string(255, 'x'), 0600, &path);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  ::close(fd);
  remove_stale_temporaries(dir.path(), std::string(255, 'x'));
  EXPECT_EQ(dir.entries().size(), 1u) << "a live process's file was swept";
}

TEST(OwnedTemporary, TheSweepRemovesOnlyThoseWhoseProcessIsGone) {
  ScratchDir dir;
  const std::string h = host(), gone = std::to_string(gone_pid()), parent = std::to_string(::getppid());
  const std::string me = std::to_string(::getpid());
  const auto reused_start = std::to_string(std::stoull(start_of(::getpid())) + 1);
  const std::vector<std::string> removed = {
      ".out.corank-" + h + "-" + gone + "-77-abcdef",           // its process is gone
      ".out.corank-" + h + "-" + me + "-" + reused_start + "-abcdef",  // the PID now serves this process
  };
  const std::vector<std::string> kept = {
      ".out.corank-" + h + "-" + parent + "-" + start_of(::getppid()) + "-abcdef",  // alive
      ".out.corank-" + h + "-" + parent + "-0-abcdef",              // alive, start unknown
      ".out.corank-other-host-" + gone + "-77-abcdef",              // another host's
      ".other.corank-" + h + "-" + gone + "-77-abcdef",             // another stem's
      ".out.corank-" + h + "-" + gone + "-77-abc",                  // not a name of ours
      ".out.corank-garbage",
      "out",
  };
  for (const auto& n : removed) spit(dir.file(n), "x");
  for (const auto& n : kept) spit(dir.file(n), "x");
  remove_stale_temporaries(dir.path(), "out");
  auto names = dir.entries();
  std::sort(names.begin(), names.end());
  auto want = kept;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(names, want);
}

TEST(OwnedTemporary, RunsWithoutUnnamedFilesLeaveNoName) {
  ScratchDir dir;
  const std::string stale = ".run.corank-" + host() + "-" + std::to_string(gone_pid()) + "-1-abcdef";
  spit(dir.file(stale), "a run a killed sort left");
  spit(dir.file("kept"), "x");
  FailAfter no_tmpfile(FaultPoint::unnamed_file, 1);
  ScopedFaultInjector faults(no_tmpfile);
  TempDirectories temps({dir.path()});
  const FileDesc a = temps.create_anonymous(), b = temps.create_anonymous();
  EXPECT_TRUE(a.valid() && b.valid());
  EXPECT_EQ(no_tmpfile.requests(), 2u);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"kept"});
  EXPECT_EQ(::pwrite(a.get(), "run", 3, 0), 3);
}

}  // namespace
}  // namespace corank::io::test
