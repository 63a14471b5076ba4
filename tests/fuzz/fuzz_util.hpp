// Shared by the libFuzzer targets: a broken invariant aborts (libFuzzer then
// saves the input as a crash), with what broke on stderr.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace corank::fuzz {

inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
  }
}

// The sign of a three-way comparison.
inline int sign(int c) { return (c > 0) - (c < 0); }

// Splits data at the first `sep`: (before, after); after is empty without one.
inline std::pair<std::string_view, std::string_view> split_once(std::string_view s, char sep) {
  const auto at = s.find(sep);
  if (at == std::string_view::npos) return {s, {}};
  return {s.substr(0, at), s.substr(at + 1)};
}

}  // namespace corank::fuzz
