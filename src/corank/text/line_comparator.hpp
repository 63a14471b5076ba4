#pragma once
// GNU sort's comparison of two lines in the C locale (keycompare, then the
// last-resort whole-line comparison unless -s or -u), and the fixed-width
// normalized prefix of a line's first key that orders most pairs without it.
#include <cstdint>
#include <string_view>

#include "corank/text/key_spec.hpp"

namespace corank::text {

// 16 bytes, compared as two big-endian words. For any lines a, b:
// compare(a, b) < 0 implies prefix(a) <= prefix(b), so unequal prefixes decide
// and equal prefixes fall back to compare().
struct Prefix {
  std::uint64_t hi = 0, lo = 0;
  friend bool operator==(const Prefix&, const Prefix&) = default;
  friend bool operator<(const Prefix& a, const Prefix& b) noexcept {
    return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
  }
};

// One key's comparison, on the key's bytes as found in the record (-r included).
int compare_key_text(const KeyField& key, std::string_view a, std::string_view b);
// The prefix of one key's bytes (-r included).
Prefix key_prefix(const KeyField& key, std::string_view key_bytes);

class LineComparator {
public:
  explicit LineComparator(LineOrdering ordering);

  // <0, 0, >0 like GNU's compare(): the keys in order, then (without -s and -u)
  // the whole lines' bytes, reversed by the global -r. Lines exclude their terminator.
  int compare(std::string_view a, std::string_view b) const;
  // The keys only (0 when there are none): what -u calls equal.
  int compare_keys(std::string_view a, std::string_view b) const;
  Prefix prefix(std::string_view line) const;

  const LineOrdering& ordering() const noexcept { return o_; }

private:
  int compare_key(const KeyField& key, std::string_view a, std::string_view b) const;

  LineOrdering o_;
};

}  // namespace corank::text
