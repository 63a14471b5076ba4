#pragma once
// GNU sort's comparison of two lines (keycompare, then the last-resort
// whole-line comparison unless -s or -u), and the fixed-width normalized
// prefix of a line's first key that orders most pairs without it: in the C
// locale here, under another locale by locale_compare.hpp.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "corank/text/key_spec.hpp"

namespace corank::text {

// 32 bytes, compared as four big-endian words: wide enough for an ISO
// timestamp or the start of most keys, so that ties (which need the full
// comparison) stay rare even between the heads of a many-way merge. For any
// records a, b: compare(a, b) < 0 implies prefix(a) <= prefix(b), so unequal
// prefixes decide and equal prefixes fall back to compare().
// How records whose prefixes tie are ordered (LineComparator::tie_order).
enum class TieOrder { other, collation, key_then_collation };

struct Prefix {
  static constexpr std::size_t kBytes = 32;
  std::uint64_t w[4] = {0, 0, 0, 0};
  friend bool operator==(const Prefix& a, const Prefix& b) noexcept {
    return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3];
  }
  friend bool operator<(const Prefix& a, const Prefix& b) noexcept {
    if (a.w[0] != b.w[0]) return a.w[0] < b.w[0];
    if (a.w[1] != b.w[1]) return a.w[1] < b.w[1];
    if (a.w[2] != b.w[2]) return a.w[2] < b.w[2];
    return a.w[3] < b.w[3];
  }
  void invert() noexcept {
    for (auto& x : w) x = ~x;
  }
};

// The prefix whose big-endian words are p[0..32), inverted when `reverse`.
Prefix prefix_from_bytes(const unsigned char* p, bool reverse) noexcept;

// One key's comparison, on the key's bytes as found in the record (-r
// included). `after_a`/`after_b`: what follows each key in its record, where
// a time key may find the UTC offset its end cut off (time_rules.hpp).
int compare_key_text(const KeyField& key, std::string_view a, std::string_view b, std::string_view after_a = {},
                     std::string_view after_b = {});
// The prefix of one key's bytes (-r included).
Prefix key_prefix(const KeyField& key, std::string_view key_bytes, std::string_view after = {});
// How T reads timestamps under `key`.
const TimeRules& time_rules_of(const KeyField& key) noexcept;

class LineComparator {
public:
  explicit LineComparator(LineOrdering ordering);

  // <0, 0, >0 like GNU's compare(): the keys in order, then (without -s and -u)
  // the whole lines' bytes, reversed by the global -r. Lines exclude their terminator.
  int compare(std::string_view a, std::string_view b) const;
  // compare(a, b) for lines whose prefixes are equal. A first key that is a
  // time key is then equal: its prefix holds its whole instant (13 bytes;
  // time_value.hpp), so it is not parsed again. Ties are where parsing would
  // cost most: lines without a time all share one code, and a stack trace's
  // lines their first bytes too.
  int compare_tied(std::string_view a, std::string_view b) const;
  // The keys only (0 when there are none): what -u calls equal.
  int compare_keys(std::string_view a, std::string_view b) const;
  // compare(a, b) where `b` came from another input whose time keys read
  // timestamps by `other`'s rules (the same keys otherwise: its own year
  // reference and formats, time_inputs.hpp). `tied`: their prefixes (each
  // by its own rules) are equal, as for compare_tied.
  int compare_across(std::string_view a, const LineComparator& other, std::string_view b, bool tied = false) const;
  Prefix prefix(std::string_view line) const;

  // Whether compare() is the memcmp order of a byte string of each line (the
  // C locale; no key, or one text key with neither -f, -d, -i nor a numeric
  // kind, or one time key; neither -s nor -u): the key's code, then the
  // line, of which prefix() holds the first kPrefixBytes. Lines whose
  // prefixes tie are then sorted by the next bytes of it (tied_records.hpp).
  bool orders_by_bytes() const noexcept;
  // Where orders_by_bytes(): bytes [depth, depth + kPrefixBytes) of the
  // line's byte string (depth at least kPrefixBytes), zeros past its end
  // (inverted, as the line's bytes are, under -r), and its length in
  // `length`. False for a key with a NUL byte, whose code is escaped.
  bool prefix_at(std::string_view line, std::size_t depth, Prefix& out, std::size_t& length) const;
  // How lines whose prefixes tie are ordered where a locale's strcoll is the
  // last resort (neither -s nor -u): by it alone (no key, or one time key,
  // whose tied prefixes hold its whole instant), or by one text key and then
  // by it; TieOrder::other elsewhere.
  TieOrder tie_order() const noexcept;
  // Where tie_order() is not TieOrder::other: the first n bytes of the
  // collation's digest of the line (inverted under -r), zeros past its end,
  // which keep the last resort's order at any length: a line that the last
  // resort puts first has a digest that memcmp puts first or equal.
  void last_resort_digest(std::string_view line, unsigned char* out, std::size_t n) const;

  const LineOrdering& ordering() const noexcept { return o_; }

private:
  int compare_key(const KeyField& key, std::string_view a, std::string_view b) const;
  // compare() from key `first` on.
  int compare_from(std::size_t first, std::string_view a, std::string_view b) const;

  LineOrdering o_;
  // The locale, where it orders anything unlike the C locale; null: the C path.
  const LineLocale* locale_ = nullptr;
};

}  // namespace corank::text
