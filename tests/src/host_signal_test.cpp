// The library leaves signals to its host: a host's own SIGTERM handler runs
// during corank::sort() (here it ends the process), and the sort it cut short
// leaves nothing behind, neither in -T nor beside its target.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

TEST(HostSignal, TheHostsSigtermHandlerRunsDuringASortThatLeavesNothing) {
  const fs::path dir = fs::temp_directory_path() / ("corank-host-signal-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "tmp");
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> records(200000);
  for (auto& v : records) v = rng();
  std::ofstream(dir / "in", std::ios::binary)
      .write(reinterpret_cast<const char*>(records.data()), static_cast<std::streamsize>(records.size() * 8));
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);

  const pid_t host = ::fork();
  ASSERT_GE(host, 0);
  if (host == 0) {
    ::execl(CORANK_SIGNAL_HOST, "signal_host", dir.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Opening blocks until the host's second sort opens the FIFO; the sort
  // cannot end before the FIFO does, so the signal comes while it runs.
  const int fifo = ::open((dir / "fifo").c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fifo, 0);
  const auto bytes = static_cast<ssize_t>(records.size() * 8);
  EXPECT_EQ(::write(fifo, records.data(), static_cast<std::size_t>(bytes)), bytes);  // read, and runs spilled
  ::kill(host, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(host, &status, 0), host);
  ::close(fifo);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 42)
      << "the host's handler did not run: "
      << (WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                              : "exit " + std::to_string(WEXITSTATUS(status)));
  std::vector<std::string> left;
  for (const auto& e : fs::recursive_directory_iterator(dir)) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"fifo", "first", "in", "tmp"}));
  fs::remove_all(dir);
}

}  // namespace
