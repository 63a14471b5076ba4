#include "corank/text/line_comparator.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "corank/text/field_finder.hpp"
#include "corank/text/line_locale.hpp"
#include "corank/text/locale_compare.hpp"
#include "corank/text/numeric_compare.hpp"
#include "corank/text/time_rules.hpp"
#include "corank/text/time_value.hpp"
#include "corank/text/version_compare.hpp"

// xxHash's XXH3, inlined: a fast seeded hash for -R (GNU uses salted MD5; any
// well-mixed seeded hash gives a random order that keeps equal keys together).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace corank::text {

namespace {

constexpr std::size_t kPrefixBytes = Prefix::kBytes;

int bytes_compare(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = std::min(a.size(), b.size());
  const int c = n ? std::memcmp(a.data(), b.data(), n) : 0;  // an empty view may have no data
  if (c) return c < 0 ? -1 : 1;
  return (a.size() > b.size()) - (a.size() < b.size());
}

// The key's bytes as -f and -d/-i make them, for comparisons that need a copy.
std::string_view transformed(std::string_view s, const KeyField& key, std::string& buf) {
  if (!key.ignore && !key.fold) return s;
  buf.clear();
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (key.ignore && (*key.ignore)[u]) continue;
    buf.push_back(key.fold ? static_cast<char>(to_upper(u)) : c);
  }
  return buf;
}

// GNU applies -f and -d/-i to a key's text before -n -g -h -M -V -R compare
// it ("1m" is "1M" to -h under -f).
bool transforms_first(const KeyField& key) noexcept {
  return key.any_numeric() || key.month || key.version || key.random;
}

// A text key's bytes as compare_key_text compares them (ignored bytes left
// out, folded ones upper-cased), the first kPrefixBytes into p; with
// escape_nul each 0x00 as 00 FF, so that a key that ends (followed by 00 00)
// is less than one that goes on with a NUL. Returns the bytes written.
std::size_t text_key_bytes(const KeyField& key, std::string_view k, unsigned char* p, bool escape_nul) noexcept {
  std::size_t n = 0;
  for (std::size_t i = 0; i < k.size() && n < kPrefixBytes; ++i) {
    const auto u = static_cast<unsigned char>(k[i]);
    if (key.ignore && (*key.ignore)[u]) continue;
    p[n++] = key.fold ? to_upper(u) : u;
    if (escape_nul && p[n - 1] == 0 && n < kPrefixBytes) p[n++] = 0xFF;
  }
  return n;
}

std::uint64_t random_code(std::string_view s, std::uint64_t salt) noexcept {
  return XXH3_64bits_withSeed(s.empty() ? "" : s.data(), s.size(), salt);
}

std::uint64_t load_be(const unsigned char* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);  // std::byteswap is C++23
}

}  // namespace

Prefix prefix_from_bytes(const unsigned char* p, bool reverse) noexcept {
  Prefix r;
  for (int i = 0; i < 4; ++i) r.w[i] = load_be(p + 8 * i);
  if (reverse) r.invert();
  return r;
}

const TimeRules& time_rules_of(const KeyField& key) noexcept {
  return key.time_rules ? *key.time_rules : TimeRules::defaults();
}

LineComparator::LineComparator(LineOrdering ordering) : o_(std::move(ordering)) {
  if (o_.locale && !o_.locale->orders_as_c()) locale_ = o_.locale.get();
}

int compare_key_text(const KeyField& key, std::string_view a, std::string_view b, std::string_view after_a,
                     std::string_view after_b) {
  if (transforms_first(key)) {
    thread_local std::string ba, bb;
    a = transformed(a, key, ba);
    b = transformed(b, key, bb);
  }
  int diff;
  if (key.random) {
    // By the keys' hashes; equal hashes (equal keys, or a collision) by bytes.
    const std::uint64_t ha = random_code(a, key.random_salt), hb = random_code(b, key.random_salt);
    diff = ha != hb ? (ha < hb ? -1 : 1) : bytes_compare(a, b);
  } else if (key.numeric) {
    diff = compare_numeric(a, b);
  } else if (key.general_numeric) {
    diff = compare_general(a, b);
  } else if (key.human_numeric) {
    diff = compare_human(a, b);
  } else if (key.month) {
    const int ma = month_of(a), mb = month_of(b);
    diff = (ma > mb) - (ma < mb);
  } else if (key.time) {
    const TimeRules& rules = time_rules_of(key);
    diff = compare_instants(key_instant(rules, key.time_extent(), a, after_a),
                            key_instant(rules, key.time_extent(), b, after_b));
  } else if (key.version) {
    diff = compare_version(a, b);
  } else if (key.ignore || key.fold) {
    // Compared byte by byte without copies: ignored bytes are skipped in both.
    std::size_t i = 0, j = 0;
    diff = 0;
    for (;;) {
      if (key.ignore) {
        while (i < a.size() && (*key.ignore)[static_cast<unsigned char>(a[i])]) ++i;
        while (j < b.size() && (*key.ignore)[static_cast<unsigned char>(b[j])]) ++j;
      }
      if (i == a.size() || j == b.size()) {
        diff = (i < a.size()) - (j < b.size());
        break;
      }
      auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[j]);
      if (key.fold) x = to_upper(x), y = to_upper(y);
      if (x != y) {
        diff = x < y ? -1 : 1;
        break;
      }
      ++i, ++j;
    }
  } else {
    diff = bytes_compare(a, b);
  }
  diff = (diff > 0) - (diff < 0);
  return key.reverse ? -diff : diff;
}

int LineComparator::compare_key(const KeyField& key, std::string_view line_a, std::string_view line_b) const {
  const KeySpan ka = find_key(line_a, key, o_.tab), kb = find_key(line_b, key, o_.tab);
  if (key.time)
    return compare_key_text(key, {ka.begin, ka.size()}, {kb.begin, kb.size()}, bytes_after(line_a, ka), bytes_after(line_b, kb));
  if (locale_) return compare_key_in_locale(key, {ka.begin, ka.size()}, {kb.begin, kb.size()}, *locale_);
  return compare_key_text(key, {ka.begin, ka.size()}, {kb.begin, kb.size()});
}

int LineComparator::compare_keys(std::string_view a, std::string_view b) const {
  for (const auto& key : o_.keys)
    if (int d = compare_key(key, a, b)) return d;
  return 0;
}

int LineComparator::compare_from(std::size_t first, std::string_view a, std::string_view b) const {
  if (!o_.keys.empty()) {
    for (std::size_t i = first; i < o_.keys.size(); ++i)
      if (int d = compare_key(o_.keys[i], a, b)) return d;
    if (o_.unique || o_.stable) return 0;
  }
  const int d = locale_ ? compare_lines_in_locale(a, b, *locale_) : bytes_compare(a, b);
  return o_.reverse ? -d : d;
}

int LineComparator::compare(std::string_view a, std::string_view b) const { return compare_from(0, a, b); }

int LineComparator::compare_tied(std::string_view a, std::string_view b) const {
  return compare_from(!o_.keys.empty() && o_.keys.front().time ? 1 : 0, a, b);
}

int LineComparator::compare_across(std::string_view a, const LineComparator& other, std::string_view b,
                                   bool tied) const {
  const std::size_t first = tied && !o_.keys.empty() && o_.keys.front().time ? 1 : 0;
  for (std::size_t i = first; i < o_.keys.size(); ++i) {
    const KeyField& key = o_.keys[i];
    int d;
    if (key.time) {
      const KeyField& theirs = other.o_.keys[i];
      const KeySpan ka = find_key(a, key, o_.tab), kb = find_key(b, theirs, o_.tab);
      d = compare_instants(key_instant(time_rules_of(key), key.time_extent(), {ka.begin, ka.size()}, bytes_after(a, ka)),
                           key_instant(time_rules_of(theirs), theirs.time_extent(), {kb.begin, kb.size()}, bytes_after(b, kb)));
      d = (d > 0) - (d < 0);
      if (key.reverse) d = -d;
    } else {
      d = compare_key(key, a, b);
    }
    if (d) return d;
  }
  if (!o_.keys.empty() && (o_.unique || o_.stable)) return 0;
  const int d = locale_ ? compare_lines_in_locale(a, b, *locale_) : bytes_compare(a, b);
  return o_.reverse ? -d : d;
}

Prefix key_prefix(const KeyField& key, std::string_view k, std::string_view after) {
  unsigned char p[kPrefixBytes] = {};
  thread_local std::string buf;
  if (transforms_first(key)) k = transformed(k, key, buf);
  if (key.random) {
    // The hash, then the key's first bytes: the order compare_key_text uses.
    const std::uint64_t h = random_code(k, key.random_salt);
    for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(h >> (56 - 8 * i));
    if (!k.empty()) std::memcpy(p + 8, k.data(), std::min(k.size(), kPrefixBytes - 8));
  } else if (key.numeric) {
    encode_decimal(parse_decimal(k), p, kPrefixBytes);
  } else if (key.human_numeric) {
    p[0] = static_cast<unsigned char>(0x80 + human_unit_order(skip_blanks(k)));
    encode_decimal(parse_decimal(k), p + 1, kPrefixBytes - 1);
  } else if (key.general_numeric) {
    encode_general(parse_general(k), p);
  } else if (key.month) {
    p[0] = static_cast<unsigned char>(month_of(k));
  } else if (key.time) {
    encode_time(key_instant(time_rules_of(key), key.time_extent(), k, after), p);  // unparsable: all zeros, the lowest
  } else if (key.version) {
    // No cheap order-preserving code: every pair goes to the full comparison.
  } else {
    text_key_bytes(key, k, p, /*escape_nul=*/false);
  }
  return prefix_from_bytes(p, key.reverse);
}

namespace {

// Whether a text key's bytes begin every line, as they are (-k1 without b,
// -f, -d or -i): lines whose keys tie then share their first bytes, and the
// last resort's comparison is that of the lines' bytes after their keys.
bool starts_lines(const KeyField& key) noexcept {
  return (key.sword == 0 || key.sword == kNoPosition) && key.schar == 0 && !key.skip_start_blanks && !key.fold &&
         !key.ignore;
}

// The prefix of a line sorted by one key and then, as the last resort, by its
// bytes (the C locale, neither -s nor -u): p[0, code) holds the key's code
// (inverted here where the key is reversed), and the line's first bytes
// follow it (inverted where the last resort is; those after the key where the
// key starts every line: starts_lines), so that lines whose keys tie (log
// lines of one second, one month name, one host) seldom tie in their
// prefixes and need compare().
Prefix key_then_line(unsigned char* p, std::size_t code, bool key_reverse, std::string_view line, bool reverse) {
  code = std::min(code, kPrefixBytes);
  if (key_reverse)
    for (std::size_t i = 0; i < code; ++i) p[i] = static_cast<unsigned char>(~p[i]);
  if (!line.empty()) std::memcpy(p + code, line.data(), std::min(line.size(), kPrefixBytes - code));
  if (reverse)
    for (std::size_t i = code; i < kPrefixBytes; ++i) p[i] = static_cast<unsigned char>(~p[i]);
  return prefix_from_bytes(p, false);
}

}  // namespace

Prefix LineComparator::prefix(std::string_view line) const {
  if (!o_.keys.empty()) {
    const KeyField& key = o_.keys.front();
    const KeySpan span = find_key(line, key, o_.tab);
    const std::string_view k{span.begin, span.size()};
    if (o_.keys.size() == 1 && !o_.unique && !o_.stable && key.time) {
      unsigned char p[kPrefixBytes] = {};
      encode_time(key_instant(time_rules_of(key), key.time_extent(), k, bytes_after(line, span)), p);
      if (!locale_) return key_then_line(p, kTimeCodeBytes, key.reverse, line, o_.reverse);
      // In another locale the last resort is strcoll's: the collation's
      // digest of the line follows the code, so that lines of one second
      // (or none: a stack trace's) seldom tie and need strcoll.
      if (key.reverse)
        for (std::size_t i = 0; i < kTimeCodeBytes; ++i) p[i] = static_cast<unsigned char>(~p[i]);
      line_digest_in_locale(line, *locale_, o_.reverse, p + kTimeCodeBytes, kPrefixBytes - kTimeCodeBytes);
      return prefix_from_bytes(p, false);
    }
    // In another locale the last resort is strcoll's, which bytes do not follow.
    if (o_.keys.size() == 1 && !o_.unique && !o_.stable && !locale_) {
      unsigned char p[kPrefixBytes] = {};
      if (!transforms_first(key))  // a text key: its bytes, each NUL as 00 FF, then 00 00
        return key_then_line(p, text_key_bytes(key, k, p, /*escape_nul=*/true) + 2, key.reverse,
                             starts_lines(key) ? bytes_after(line, span) : line, o_.reverse);
    }
    if (locale_ && !key.time) return key_prefix_in_locale(key, k, *locale_);
    return key_prefix(key, k, bytes_after(line, span));
  }
  if (locale_) return line_prefix_in_locale(line, *locale_, o_.reverse);
  unsigned char p[kPrefixBytes] = {};
  if (!line.empty()) std::memcpy(p, line.data(), std::min(line.size(), kPrefixBytes));  // an empty view may have no data
  return prefix_from_bytes(p, o_.reverse);
}

TieOrder LineComparator::tie_order() const noexcept {
  if (!locale_ || !locale_->collation() || o_.unique || o_.stable || o_.keys.size() > 1) return TieOrder::other;
  if (o_.keys.empty() || o_.keys.front().time) return TieOrder::collation;
  return TieOrder::key_then_collation;
}

void LineComparator::last_resort_digest(std::string_view line, unsigned char* out, std::size_t n) const {
  std::memset(out, 0, n);
  line_digest_in_locale(line, *locale_, o_.reverse, out, n);
}

bool LineComparator::orders_by_bytes() const noexcept {
  if (locale_) return false;
  if (o_.keys.empty()) return true;
  if (o_.keys.size() != 1 || o_.unique || o_.stable) return false;
  const KeyField& key = o_.keys.front();
  return key.time || (!transforms_first(key) && !key.fold && !key.ignore);
}

// The byte string, as prefix() and key_then_line lay it out: a time key's
// code (kTimeCodeBytes) or a text key's bytes and 00 00 (inverted where the
// key is reversed), then the line (after the key, where it starts_lines;
// inverted under -r), then zeros (inverted under -r). Without keys, the line
// alone.
bool LineComparator::prefix_at(std::string_view line, std::size_t depth, Prefix& out, std::size_t& length) const {
  unsigned char p[kPrefixBytes] = {};
  const std::size_t end = depth + kPrefixBytes;
  // Copies the segment that takes bytes [at, at + n) of the string.
  auto put = [&](const char* s, std::size_t n, std::size_t at, bool invert) {
    for (std::size_t i = std::max(at, depth); i < std::min(at + n, end); ++i)
      p[i - depth] = static_cast<unsigned char>(invert ? ~s[i - at] : s[i - at]);
  };
  std::size_t at = 0;
  if (!o_.keys.empty()) {
    const KeyField& key = o_.keys.front();
    if (key.time) {
      at = kTimeCodeBytes;  // within the first prefix, which the lines share
    } else {
      const KeySpan span = find_key(line, key, o_.tab);
      const std::size_t n = span.size();
      if (n > 0 && std::memchr(span.begin, 0, n)) return false;
      static constexpr char kEnd[2] = {0, 0};
      put(span.begin, n, 0, key.reverse);
      put(kEnd, 2, n, key.reverse);
      at = n + 2;
      if (starts_lines(key)) line = bytes_after(line, span);
    }
  }
  put(line.data(), line.size(), at, o_.reverse);
  length = at + line.size();
  if (o_.reverse)
    for (std::size_t i = std::max(length, depth); i < end; ++i) p[i - depth] = 0xFF;
  out = prefix_from_bytes(p, false);
  return true;
}

}  // namespace corank::text
