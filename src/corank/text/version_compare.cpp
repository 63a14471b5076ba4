#include "corank/text/version_compare.hpp"

#include <cstddef>

#include "corank/text/char_classes.hpp"

namespace corank::text {

namespace {

bool digit(char c) noexcept { return is_digit(static_cast<unsigned char>(c)); }
bool alpha(char c) noexcept { return is_alpha(static_cast<unsigned char>(c)); }

// Length of s without its suffix, the longest match of (\.[A-Za-z~][A-Za-z0-9~]*)*$
// that starts after the first byte: as in current gnulib (coreutils 9.4), a
// name such as ".bashrc" is all prefix. (coreutils 9.1 took it for a suffix.)
std::size_t prefix_length(std::string_view s) noexcept {
  const std::size_t n = s.size();
  std::size_t prefix = 0;
  for (std::size_t i = 0;;) {
    if (i == n) return prefix;
    prefix = ++i;
    while (i + 1 < n && s[i] == '.' && (alpha(s[i + 1]) || s[i + 1] == '~'))
      for (i += 2; i < n && (alpha(s[i]) || digit(s[i]) || s[i] == '~'); ++i) {
      }
  }
}

// Ranks the byte at pos: the end sorts before everything but '~', letters
// before other bytes, '~' before all.
int order(std::string_view s, std::size_t pos) noexcept {
  if (pos == s.size()) return -1;
  const unsigned char c = static_cast<unsigned char>(s[pos]);
  if (is_digit(c)) return 0;
  if (is_alpha(c)) return c;
  if (c == '~') return -2;
  return c + 256;
}

int verrevcmp(std::string_view a, std::string_view b) noexcept {
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    int first_diff = 0;
    while ((i < a.size() && !digit(a[i])) || (j < b.size() && !digit(b[j]))) {
      const int ac = order(a, i), bc = order(b, j);
      if (ac != bc) return ac - bc;
      ++i, ++j;
    }
    while (i < a.size() && a[i] == '0') ++i;
    while (j < b.size() && b[j] == '0') ++j;
    while (i < a.size() && j < b.size() && digit(a[i]) && digit(b[j])) {
      if (!first_diff) first_diff = a[i] - b[j];
      ++i, ++j;
    }
    if (i < a.size() && digit(a[i])) return 1;
    if (j < b.size() && digit(b[j])) return -1;
    if (first_diff) return first_diff;
  }
  return 0;
}

}  // namespace

int compare_version(std::string_view a, std::string_view b) noexcept {
  if (a.empty()) return b.empty() ? 0 : -1;
  if (b.empty()) return 1;
  // "." first, then "..", then other names with a leading dot, then the rest.
  if (a[0] == '.') {
    if (b[0] != '.') return -1;
    const bool adot = a.size() == 1, bdot = b.size() == 1;
    if (adot) return bdot ? 0 : -1;
    if (bdot) return 1;
    const bool adotdot = a[1] == '.' && a.size() == 2, bdotdot = b[1] == '.' && b.size() == 2;
    if (adotdot) return bdotdot ? 0 : -1;
    if (bdotdot) return 1;
  } else if (b[0] == '.') {
    return 1;
  }
  const std::size_t ap = prefix_length(a), bp = prefix_length(b);
  const int r = verrevcmp(a.substr(0, ap), b.substr(0, bp));
  if (r || (ap == a.size() && bp == b.size())) return r;
  return verrevcmp(a, b);
}

}  // namespace corank::text
