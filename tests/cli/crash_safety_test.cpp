// What corank leaves when it is killed or cut short: SIGKILL and SIGTERM at
// random points of spilling sorts (binary records and text; a new target, an
// existing one, a hard-linked one, a hard-linked input as its own target)
// leave nothing in -T or beside the target, the inputs as they were, and the
// target as it was or wholly sorted (SIGKILL may leave a mix in a hard-linked
// target, which is filled in place: only the leftovers are checked there).
// Then the limits and names around the output: `ulimit -f`, -o '', a dangling
// symlink, extended attributes, a -T that takes no files, a hard-linked target
// staged in -T and written by several sorts at once.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace corank::test {
namespace {

class CrashSafety : public CorankTest {
protected:
  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
  std::vector<std::string> tmp_entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_ / "tmp")) v.push_back(e.path().filename().string());
    return v;
  }

  // Starts corank with `args` (no shell), stderr to `err` when given, else /dev/null.
  pid_t start(const std::vector<std::string>& args, const std::string& err = "/dev/null",
              rlim_t file_size_limit = RLIM_INFINITY) {
    std::vector<std::string> all{corank_bin()};
    all.insert(all.end(), args.begin(), args.end());
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(e, 2);
      if (file_size_limit != RLIM_INFINITY) {
        const rlimit lim{file_size_limit, file_size_limit};
        ::setrlimit(RLIMIT_FSIZE, &lim);
      }
      std::vector<char*> argv;
      for (auto& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    return pid;
  }

  static int wait_for(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
  }
};

// ---- kills at random points ------------------------------------------------

std::string u64_records(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = rng() % 1000000;
  return std::string(reinterpret_cast<const char*>(v.data()), n * 8);
}

std::string sorted_u64(std::string bytes) {
  std::vector<std::uint64_t> v(bytes.size() / 8);
  std::memcpy(v.data(), bytes.data(), bytes.size());
  std::sort(v.begin(), v.end());
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

std::string text_lines(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += "k" + std::to_string(rng() % 100000) + " line " + std::to_string(i) + "\n";
  return s;
}

// Byte order, as GNU sort in the C locale.
std::string sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl + 1 - at));
    at = nl + 1;
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l;
  return out;
}

enum class Target { fresh, existing, hard_linked, hard_linked_input };

struct KillCase {
  std::vector<std::string> format_args;
  std::string input;   // the input's bytes
  std::string sorted;  // what the output must be
  Target target;
};

class Kills : public CrashSafety {
protected:
  // Sorts c, killed by SIGKILL and SIGTERM `trials` times each at random
  // points up to a little past how long an unkilled sort takes, and checks
  // what is left each time.
  void kill_at_random_points(const KillCase& c, int trials) {
    const std::string old = "an earlier result\n";
    const std::string in = path("in"), target = c.target == Target::hard_linked_input ? in : path("out");
    const auto prepare = [&] {
      fs::remove(path("out"));
      fs::remove(path("alias"));
      write_file(in, c.input);
      if (c.target == Target::existing || c.target == Target::hard_linked) write_file(target, old);
      if (c.target == Target::hard_linked || c.target == Target::hard_linked_input)
        fs::create_hard_link(target, path("alias"));
    };
    std::vector<std::string> args = c.format_args;
    for (const std::string a : {"-S", "1M", "-T"}) args.push_back(a);  // tens of runs spill
    args.push_back(path("tmp"));
    args.push_back("-o");
    args.push_back(target);
    args.push_back(in);
    const std::string before = c.target == Target::hard_linked_input ? c.input : old;

    prepare();
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(wait_for(start(args)), 0) << "the unkilled sort failed";
    const auto whole = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0);
    ASSERT_EQ(read_file(target), c.sorted) << "the unkilled sort is wrong";
    const auto want_entries = entries();

    std::mt19937 rng(static_cast<std::uint32_t>(c.input.size()));
    for (int sig : {SIGKILL, SIGTERM})
      for (int trial = 0; trial < trials; ++trial) {
        prepare();
        const long at = static_cast<long>(rng() % static_cast<std::uint64_t>(whole.count() * 11 / 10 + 1));
        SCOPED_TRACE(std::string(sig == SIGKILL ? "SIGKILL" : "SIGTERM") + " after " + std::to_string(at) + " us");
        const pid_t pid = start(args);
        ::usleep(static_cast<useconds_t>(at));
        ::kill(pid, sig);
        const int status = wait_for(pid);
        const bool finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        EXPECT_TRUE(finished || (WIFSIGNALED(status) && WTERMSIG(status) == sig))
            << "status " << status << " (neither killed by the signal nor a finished sort)";
        EXPECT_EQ(tmp_entries(), std::vector<std::string>{}) << "left in -T";
        const bool exists = fs::exists(target);
        std::vector<std::string> want = want_entries;
        if (!exists) want.erase(std::remove(want.begin(), want.end(), "out"), want.end());
        EXPECT_EQ(entries(), want) << "left beside the target";
        if (c.target != Target::hard_linked_input) EXPECT_TRUE(read_file(in) == c.input) << "the input changed";
        const std::string now = exists ? read_file(target) : "";
        if (finished) {
          EXPECT_TRUE(now == c.sorted) << "exit 0 without the sorted output";
        } else if (c.target == Target::fresh) {
          EXPECT_TRUE(!exists || now == c.sorted) << "a partial output appeared";
        } else if (sig == SIGTERM || c.target == Target::existing) {
          EXPECT_TRUE(now == before || now == c.sorted) << "the target is neither as it was nor sorted";
        }
        if (c.target == Target::hard_linked || c.target == Target::hard_linked_input)
          EXPECT_EQ(fs::hard_link_count(target), 2u) << "the hard link was split";
      }
  }
};

constexpr int kTrials = 5;

TEST_F(Kills, BinaryRecordsIntoAnExistingTarget) {
  const std::string in = u64_records(150000, 1);
  kill_at_random_points({{"--format", "u64"}, in, sorted_u64(in), Target::existing}, kTrials);
}

TEST_F(Kills, TextIntoANewTarget) {
  const std::string in = text_lines(40000, 2);
  kill_at_random_points({{}, in, sorted_lines(in), Target::fresh}, kTrials);
}

TEST_F(Kills, BinaryRecordsIntoAHardLinkedTarget) {
  const std::string in = u64_records(150000, 3);
  kill_at_random_points({{"--format", "u64"}, in, sorted_u64(in), Target::hard_linked}, kTrials);
}

TEST_F(Kills, TextIntoItsOwnHardLinkedInput) {
  const std::string in = text_lines(40000, 4);
  kill_at_random_points({{}, in, sorted_lines(in), Target::hard_linked_input}, kTrials);
}

// SIGTERM once the copy into a hard-linked target has begun (its first bytes
// changed) waits for the copy: the target ends wholly sorted, never a mix.
TEST_F(CrashSafety, SigtermDuringTheCopyIntoAHardLinkedTargetWaitsForIt) {
  const std::string in = u64_records(std::size_t{2} << 20, 8);
  const std::string sorted = sorted_u64(in);
  write_file(path("in"), in);
  write_file(path("out"), std::string(in.size(), '\xff'));  // no sorted record starts so
  fs::create_hard_link(path("out"), path("alias"));
  const int watch = ::open(path("alias").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(watch, 0);
  const pid_t pid = start({"--format", "u64", "-T", path("tmp"), "-o", path("out"), path("in")});
  bool signalled = false;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    unsigned char first = 0xff;
    if (::pread(watch, &first, 1, 0) == 1 && first != 0xff) {
      ::kill(pid, SIGTERM);
      signalled = true;
      status = wait_for(pid);
      break;
    }
  }
  ::close(watch);
  if (!signalled) GTEST_SKIP() << "the copy ended before its start was seen";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "status " << status;
  EXPECT_TRUE(read_file(path("alias")) == sorted) << "SIGTERM cut the copy short";
  EXPECT_EQ(tmp_entries(), std::vector<std::string>{});
}

// ---- limits and names ------------------------------------------------------

// `ulimit -f`: a clean EFBIG (one line naming the file, exit 2), not a death by
// SIGXFSZ, and nothing left: spilled runs past the limit name -T, an output
// past it names the target.
TEST_F(CrashSafety, AFileSizeLimitIsACleanError) {
  const std::string in = text_lines(40000, 5);
  write_file(path("in"), in);
  struct Case {
    std::vector<std::string> args;
    std::string named;
  };
  char real_tmp[PATH_MAX];
  ASSERT_NE(::realpath(path("tmp").c_str(), real_tmp), nullptr);
  for (const Case& c : {Case{{"-S", "256K"}, std::string("temporary file in '") + real_tmp + "'"},  // runs spill
                        Case{{}, path("out")}}) {
    std::vector<std::string> args = c.args;
    for (const std::string& a : std::vector<std::string>{"-T", path("tmp"), "-o", path("out"), path("in")}) args.push_back(a);
    // Below the input's size, above a 256K run's (the limit counts bytes here).
    const int status = wait_for(start(args, path("err"), 300000));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2)
        << (WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status)) : "exit") << " " << status;
    EXPECT_EQ(read_file(path("err")), "corank: write failed: " + c.named + ": File too large\n");
    EXPECT_EQ(tmp_entries(), std::vector<std::string>{});
    EXPECT_EQ(entries(), (std::vector<std::string>{"err", "in", "tmp"}));
  }
}

TEST_F(CrashSafety, AnEmptyOutputNameIsNoFile) {
  write_file(path("in"), "b\na\n");
  const Result r = run("-o '' " + path("in") + " > " + path("stdout"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "corank: open failed: '': No such file or directory\n");
  EXPECT_EQ(read_file(path("stdout")), "") << "sorted to standard output";
}

TEST_F(CrashSafety, ADanglingSymlinkGetsItsFileCreated) {
  write_file(path("in"), "b\na\n");
  fs::create_symlink("made", path("link"));
  const Result r = run("-o " + path("link") + " " + path("in"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("link"))) << "the link was replaced";
  EXPECT_EQ(read_file(path("made")), "a\nb\n");
}

TEST_F(CrashSafety, ReplacingTheTargetKeepsItsExtendedAttributes) {
  write_file(path("in"), "b\na\n");
  write_file(path("out"), "old\n");
  if (::setxattr(path("out").c_str(), "user.origin", "kept", 4, 0) != 0)
    GTEST_SKIP() << "no user.* extended attributes here: " << std::strerror(errno);
  const Result r = run("-o " + path("out") + " " + path("in"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "a\nb\n");
  char value[16] = {};
  EXPECT_EQ(::getxattr(path("out").c_str(), "user.origin", value, sizeof value), 4) << std::strerror(errno);
  EXPECT_EQ(std::string(value, 4), "kept");
}

TEST_F(CrashSafety, ATemporaryDirectoryThatTakesNoFilesSaysWhy) {
  write_file(path("in"), text_lines(40000, 6));
  const Result r = run("-S 64K -T /proc -o " + path("out") + " " + path("in"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "corank: cannot create temporary file in '/proc': the file system there takes no new files\n");
  EXPECT_EQ(entries(), (std::vector<std::string>{"corank.err", "in", "tmp"}));
}

// A hard-linked target is staged in the first -T directory, not $TMPDIR.
TEST_F(CrashSafety, AHardLinkedTargetIsStagedInTheTemporaryDirectory) {
  const std::string in = text_lines(20000, 7);
  write_file(path("in"), in);
  write_file(path("out"), "old\n");
  fs::create_hard_link(path("out"), path("alias"));
  const Result s =
      run_shell("TMPDIR=" + path("no-such-dir") + " " + corank_bin() + " -T " + path("tmp") + " -o " + path("out") +
                    " " + path("in"),
                dir_ / "corank.err");
  EXPECT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(read_file(path("alias")), sorted_lines(in));
  EXPECT_EQ(fs::hard_link_count(path("out")), 2u);
}

// Writers of one hard-linked target waiting for its lock (flock), as listed in
// /proc/locks ("-> FLOCK ... PID MAJ:MIN:INODE ...").
int lock_waiters(ino_t inode) {
  std::ifstream locks("/proc/locks");
  int n = 0;
  for (std::string line; std::getline(locks, line);)
    if (line.find("-> FLOCK") != std::string::npos &&
        line.find(":" + std::to_string(inode) + " ") != std::string::npos)
      ++n;
  return n;
}

// Several sorts into one hard-linked target at once: each copies its whole
// output in turn under the target's lock, so the target ends as one of them,
// never a mix. The test holds the lock first: all must wait for it.
TEST_F(CrashSafety, ConcurrentSortsIntoAHardLinkedTargetTakeTurns) {
  write_file(path("out"), "old\n");
  fs::create_hard_link(path("out"), path("alias"));
  struct stat st {};
  ASSERT_EQ(::stat(path("out").c_str(), &st), 0);
  std::vector<std::string> outputs;
  for (int i = 0; i < 4; ++i) {
    const std::string in = text_lines(30000 + 10000 * static_cast<std::size_t>(i), 10 + i);
    write_file(path("in" + std::to_string(i)), in);
    outputs.push_back(sorted_lines(in));
  }
  const int held = ::open(path("alias").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  std::vector<pid_t> pids;
  for (int i = 0; i < 4; ++i)
    pids.push_back(start({"-T", path("tmp"), "-o", path("out"), path("in" + std::to_string(i))}));
  bool one_ended = false;
  for (int polls = 0; polls < 60000 && !one_ended && lock_waiters(st.st_ino) < 4; ++polls) {
    for (pid_t& p : pids) {
      int status = 0;
      if (p > 0 && ::waitpid(p, &status, WNOHANG) == p) {
        one_ended = true;
        p = -1;
      }
    }
    ::usleep(1000);
  }
  EXPECT_FALSE(one_ended) << "a sort ended while another writer held the target's lock";
  EXPECT_EQ(read_file(path("alias")), "old\n");
  ::close(held);
  for (const pid_t p : pids)
    if (p > 0) EXPECT_EQ(wait_for(p), 0);
  const std::string now = read_file(path("alias"));
  EXPECT_NE(std::find(outputs.begin(), outputs.end(), now), outputs.end())
      << "the target is none of the outputs (" << now.size() << " bytes)";
  EXPECT_EQ(tmp_entries(), std::vector<std::string>{});
}

}  // namespace
}  // namespace corank::test
