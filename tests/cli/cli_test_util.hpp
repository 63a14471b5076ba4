#pragma once
// What the end-to-end tests of the corank program share: where the binary is,
// running it with its stderr captured, whole-file reads and writes, and a
// fixture that gives each test a fresh directory (with tmp/ for -T) and
// removes it afterwards (kept when CORANK_KEEP is set, for a look), and
// RemoveOnExit for a directory made elsewhere (on /dev/shm, say).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../remove_on_exit.hpp"

namespace corank::test {

namespace fs = std::filesystem;

// CORANK_BIN_DIR is the build tree (set by ctest); the program is src/corank in it.
inline std::string corank_bin() {
  const char* dir = std::getenv("CORANK_BIN_DIR");
  return std::string(dir ? dir : ".") + "/src/corank";
}

struct Result {
  int status;       // the exit status, or 128 + the signal
  std::string err;  // what went to stderr
};

// Runs `cmd` (shell syntax) with stderr into `err_file`, and reads it back.
inline Result run_shell(const std::string& cmd, const fs::path& err_file) {
  const int rc = std::system((cmd + " 2>" + err_file.string()).c_str());
  std::ifstream f(err_file, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(f)), {});
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc), text};
}

// `cmd` (one command, no shell syntax around it) under an open-file limit of
// `n`, soft and hard, with only standard input, output and error open:
// descriptors that the test runner leaves open would take from the limit and
// decide which path the sort takes (under a sanitizer, leave its runtime none
// for the pipe that UBSan's type checks probe memory through).
inline std::string under_open_file_limit(int n, const std::string& cmd) {
  return "bash -c 'for p in /proc/$$/fd/*; do f=${p##*/}; [ \"$f\" -gt 2 ] && eval \"exec $f>&-\"; done; "
         "ulimit -n " + std::to_string(n) + " && exec " + cmd + "'";
}

// corank with `args` (shell syntax), stderr captured through a temporary file.
inline Result run_corank(const std::string& args) {
  static int n = 0;
  const fs::path err =
      fs::temp_directory_path() / ("corank-err-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
  Result r = run_shell(corank_bin() + " " + args, err);
  fs::remove(err);
  return r;
}

inline std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), {});
}

inline std::vector<char> read_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(f)), {});
}

inline void write_file(const fs::path& p, const void* data, std::size_t n) {
  std::ofstream f(p, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
}

inline void write_file(const fs::path& p, const std::string& s) { write_file(p, s.data(), s.size()); }

// A sweep of option sets, each under several budgets (or codecs, or flags).
// Everywhere but the sanitizer job every pair runs. There
// (CORANK_TEST_SWEEP=rotate, tools/sanitize.sh), where each process costs
// several times as much, an option set runs under one budget and the next set
// under the next: every option set and every budget still run, in a fraction
// of the processes, and the release job runs them all.
class Sweep {
public:
  // Whether the current option set runs under choice `i` of `n`.
  bool takes(std::size_t i, std::size_t n) const { return full_ || i == turn_ % n; }
  // Moves on to the next option set.
  void next() noexcept { ++turn_; }

private:
  static bool full() {
    const char* mode = std::getenv("CORANK_TEST_SWEEP");
    return mode == nullptr || std::string(mode) != "rotate";
  }
  bool full_ = full();
  std::size_t turn_ = 0;
};

// A fresh directory per test: TEMP/corank-SUITE-PID-TEST, with tmp/ inside.
class CorankTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("corank-" + std::string(info->test_suite_name()) + "-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
    // corank follows the locale for lines, as GNU sort does: the tests'
    // expectations are in byte order unless a test names a locale itself
    // (LC_ALL=... on its command line), whatever the machine's LANG.
    ::setenv("LC_ALL", "C", 1);
  }
  void TearDown() override {
    if (!std::getenv("CORANK_KEEP")) fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // corank with `args` (shell syntax; redirections allowed), stderr captured.
  Result run(const std::string& args) { return run_shell(corank_bin() + " " + args, dir_ / "corank.err"); }
  // The exit status, and stderr into *err when asked.
  int corank(const std::string& args, std::string* err = nullptr) {
    Result r = run(args);
    if (err) *err = std::move(r.err);
    return r.status;
  }

  fs::path dir_;
};

}  // namespace corank::test
