// What corank leaves when it is killed: SIGKILL and SIGTERM at random points
// of spilling sorts (binary records and text; a new target, an existing one)
// leave nothing in -T or beside the target, the inputs as they were, and the
// target as it was or wholly sorted. Then the names around the output: a -T
// that takes no files.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
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
  pid_t start(const std::vector<std::string>& args, const std::string& err = "/dev/null") {
    std::vector<std::string> all{corank_bin()};
    all.insert(all.end(), args.begin(), args.end());
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(e, 2);
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

enum class Target { fresh, existing };

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
    const std::string in = path("in"), target = path("out");
    const auto prepare = [&] {
      fs::remove(path("out"));
      write_file(in, c.input);
      if (c.target == Target::existing) write_file(target, old);
    };
    std::vector<std::string> args = c.format_args;
    for (const std::string a : {"-S", "1M", "-T"}) args.push_back(a);  // tens of runs spill
    args.push_back(path("tmp"));
    args.push_back("-o");
    args.push_back(target);
    args.push_back(in);

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
        EXPECT_TRUE(read_file(in) == c.input) << "the input changed";
        const std::string now = exists ? read_file(target) : "";
        if (finished) {
          EXPECT_TRUE(now == c.sorted) << "exit 0 without the sorted output";
        } else if (c.target == Target::fresh) {
          EXPECT_TRUE(!exists || now == c.sorted) << "a partial output appeared";
        } else {
          EXPECT_TRUE(now == old || now == c.sorted) << "the target is neither as it was nor sorted";
        }
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

// ---- limits and names ------------------------------------------------------

TEST_F(CrashSafety, ATemporaryDirectoryThatTakesNoFilesSaysWhy) {
  write_file(path("in"), text_lines(40000, 6));
  const Result r = run("-S 64K -T /proc -o " + path("out") + " " + path("in"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "corank: cannot create temporary file in: /proc: the file system there takes no new files\n");
  EXPECT_EQ(entries(), (std::vector<std::string>{"corank.err", "in", "tmp"}));
}

}  // namespace
}  // namespace corank::test
