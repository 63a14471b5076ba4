#pragma once
// What the tests that call the library in this process (corank::sort() and
// its neighbours, in tests/src/ and tests/gpu/) share: a Diagnostics that
// keeps what the library says, whole-file reads, and RemoveOnExit for a
// scratch directory outside the fixture's. The end-to-end tests of the
// program have theirs in tests/cli/cli_test_util.hpp.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "../remove_on_exit.hpp"
#include "corank/io/diagnostics.hpp"

namespace corank::test {

// The library prints nothing; a test hands it this as io.diagnostics and
// looks at its notes (what -v asks for) and warnings (the fallbacks a sort
// took on its own), each in the order said.
struct Recorder final : io::Diagnostics {
  std::vector<std::string> notes, warnings;
  void note(std::string_view line) override { notes.emplace_back(line); }
  void warning(std::string_view line) override { warnings.emplace_back(line); }
  void clear() {
    notes.clear();
    warnings.clear();
  }
  // Whether any note or warning contains `what`.
  bool said(std::string_view what) const {
    for (const auto* lines : {&notes, &warnings})
      for (const auto& l : *lines)
        if (l.find(what) != std::string::npos) return true;
    return false;
  }
};

// The whole file, bytes as they are; empty where it cannot be read.
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), {});
}

}  // namespace corank::test
