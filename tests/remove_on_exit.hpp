#pragma once
// A directory a test makes outside its fixture's own, most often on the memory
// file system at /dev/shm (where the fixture's directory is on disk), removed
// with everything in it when the test leaves the scope, a failed assertion's
// early return included. Plain C++ with no corank headers, so that both the
// library tests (tests/src/library_test_util.hpp) and the command-line tests
// (tests/cli/cli_test_util.hpp) can include it.
#include <filesystem>
#include <system_error>
#include <utility>

namespace corank::test {

class RemoveOnExit {
public:
  explicit RemoveOnExit(std::filesystem::path path) : path_(std::move(path)) {}
  RemoveOnExit(const RemoveOnExit&) = delete;
  RemoveOnExit& operator=(const RemoveOnExit&) = delete;
  // Never throws: a directory that cannot be removed is left behind rather
  // than turning a test's end into a second failure.
  ~RemoveOnExit() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }

private:
  std::filesystem::path path_;
};

}  // namespace corank::test
