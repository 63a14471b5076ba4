// corank on a terminal: the progress line fits its width. corank runs on a
// pseudo-terminal (forkpty) of a given size and every drawing it makes there
// must be narrower than the terminal, so that none wraps.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace {

using corank::test::corank_bin;
using corank::test::write_file;

class Terminal : public corank::test::CorankTest {
protected:
  // What corank writes on a terminal `columns` wide (0: one that does not
  // know its size) with $COLUMNS set to `columns_env` (nullptr: unset), its
  // standard output going to a file.
  std::string on_terminal(unsigned short columns, const char* columns_env, const std::vector<std::string>& args) {
    winsize size{};
    size.ws_row = 24;
    size.ws_col = columns;
    int master = -1;
    const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
    if (pid == 0) {
      if (columns_env) ::setenv("COLUMNS", columns_env, 1);
      else ::unsetenv("COLUMNS");
      std::vector<char*> argv{const_cast<char*>("corank")};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(corank_bin().c_str(), argv.data());
      ::_exit(127);
    }
    EXPECT_GT(pid, 0);
    std::string said;
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(master, buf, sizeof buf);
      if (n > 0) said.append(buf, static_cast<std::size_t>(n));
      else if (n < 0 && errno == EINTR) continue;
      else break;  // EIO once corank has exited and closed the terminal
    }
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << said;
    return said;
  }

  // The widest drawing on a terminal: each carriage return starts the line over.
  static std::size_t widest_drawing(const std::string& said) {
    std::size_t widest = 0, column = 0;
    for (char c : said) {
      if (c == '\r' || c == '\n') column = 0;
      else widest = std::max(widest, ++column);
    }
    return widest;
  }

  std::vector<std::string> sort_args() {
    // A spilling sort: a sort phase and a merge phase.
    std::vector<std::uint64_t> v(50000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 2654435761u) % 1000003;
    write_file(path("in"), v.data(), v.size() * 8);
    return {"--format", "u64", "-S", "128K", "--no-fsync", "-T", path("tmp"), "-o", path("out"), path("in")};
  }
};

TEST_F(Terminal, TheProgressLineFitsTheTerminal) {
  const auto args = sort_args();
  for (unsigned short columns : {80, 40}) {
    SCOPED_TRACE(columns);
    const std::string said = on_terminal(columns, "200", args);  // the terminal's size wins over $COLUMNS
    EXPECT_NE(said.find("merge"), std::string::npos) << said;
    EXPECT_NE(said.find("100%"), std::string::npos) << said;
    EXPECT_LT(widest_drawing(said), columns) << said;
  }
}

// A terminal that does not know its size: $COLUMNS, else 80.
TEST_F(Terminal, WithoutItsSizeColumnsOrEighty) {
  const auto args = sort_args();
  std::string said = on_terminal(0, "50", args);
  EXPECT_NE(said.find("100%"), std::string::npos) << said;
  EXPECT_LT(widest_drawing(said), 50u) << said;
  said = on_terminal(0, nullptr, args);
  EXPECT_NE(said.find("100%"), std::string::npos) << said;
  EXPECT_LT(widest_drawing(said), 80u) << said;
  EXPECT_GT(widest_drawing(said), 50u) << said;  // the room is used
}

}  // namespace
