#include "corank/text/locale_compare.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "corank/text/locale_number.hpp"
#include "corank/text/numeric_compare.hpp"
#include "corank/text/time_value.hpp"
#include "corank/text/version_compare.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace corank::text {

namespace {

constexpr std::size_t kPrefixBytes = Prefix::kBytes;
using UpperTable = std::array<unsigned char, 256>;

// The C locale's -f, for keys that name a collation but no locale.
const UpperTable& c_upper() {
  static const UpperTable t = [] {
    UpperTable u{};
    for (int i = 0; i < 256; ++i) u[i] = to_upper(static_cast<unsigned char>(i));
    return u;
  }();
  return t;
}

// What a key's text goes through before it is compared: the bytes -d or -i
// drop, and -f's upper-case table (null: no -f).
struct TextRules {
  const ByteTable* ignore;
  const UpperTable* upper;
};

std::string_view transformed(std::string_view s, const TextRules& r, std::string& buf) {
  if (!r.ignore && !r.upper) return s;
  buf.clear();
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (r.ignore && (*r.ignore)[u]) continue;
    buf.push_back(r.upper ? static_cast<char>((*r.upper)[u]) : c);
  }
  return buf;
}

int bytes_compare(std::string_view a, std::string_view b) noexcept {
  const int c = a.compare(b);
  return (c > 0) - (c < 0);
}

// GNU's text comparison in a hard locale: an empty text first, whatever the
// collation says of it; bytes where there is no collation.
int compare_text(std::string_view a, std::string_view b, const Collation* c) {
  if (!c) return bytes_compare(a, b);
  if (a.empty()) return b.empty() ? 0 : -1;
  if (b.empty()) return 1;
  return c->compare(a, b);
}

void text_prefix(std::string_view k, const Collation* c, unsigned char* p, std::size_t n) {
  if (c) {
    if (!k.empty()) c->prefix(k, p, n);  // an empty text keeps the lowest prefix
  } else if (!k.empty()) {
    std::memcpy(p, k.data(), std::min(k.size(), n));
  }
}

// -R: by a hash of what the collation compares (its sort key), then by that.
std::string_view random_basis(std::string_view k, const Collation* c, std::string& buf) {
  if (!c) return k;
  c->sort_key(k, buf);
  return buf;
}

std::uint64_t random_code(std::string_view s, std::uint64_t salt) noexcept {
  return XXH3_64bits_withSeed(s.empty() ? "" : s.data(), s.size(), salt);
}

int compare_random(std::string_view a, std::string_view b, std::uint64_t salt, const Collation* c) {
  thread_local std::string ka, kb;
  a = random_basis(a, c, ka);
  b = random_basis(b, c, kb);
  const std::uint64_t ha = random_code(a, salt), hb = random_code(b, salt);
  return ha != hb ? (ha < hb ? -1 : 1) : bytes_compare(a, b);
}

void random_prefix(std::string_view k, std::uint64_t salt, const Collation* c, unsigned char* p) {
  thread_local std::string buf;
  k = random_basis(k, c, buf);
  const std::uint64_t h = random_code(k, salt);
  for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(h >> (56 - 8 * i));
  if (!k.empty()) std::memcpy(p + 8, k.data(), std::min(k.size(), kPrefixBytes - 8));
}

int sign(int v) noexcept { return (v > 0) - (v < 0); }

}  // namespace

bool takes_collation(const KeyField& key) noexcept {
  return !(key.any_numeric() || key.month || key.version || key.time || key.random);
}

int compare_key_in_locale(const KeyField& key, std::string_view a, std::string_view b, const LineLocale& locale) {
  const TextRules rules{locale.ignore_table(key.ignore), key.fold ? &locale.upper() : nullptr};
  const Collation* c = locale.collation();
  int diff;
  if (key.time) {
    return compare_key_text(key, a, b);  // on the key as it is, as in the C locale
  } else {
    thread_local std::string ba, bb;
    a = transformed(a, rules, ba);
    b = transformed(b, rules, bb);
    if (key.numeric) {
      diff = compare_locale_numeric(a, b, locale.numbers());
    } else if (key.general_numeric) {
      diff = compare_general_in(a, b, locale.handle());
    } else if (key.human_numeric) {
      diff = compare_locale_human(a, b, locale.numbers());
    } else if (key.month) {
      diff = month_in_locale(a, locale) - month_in_locale(b, locale);
    } else if (key.version) {
      diff = compare_version(a, b);
    } else if (key.random) {
      diff = compare_random(a, b, key.random_salt, c);
    } else {
      diff = compare_text(a, b, c);
    }
  }
  diff = sign(diff);
  return key.reverse ? -diff : diff;
}

Prefix key_prefix_in_locale(const KeyField& key, std::string_view k, const LineLocale& locale) {
  unsigned char p[kPrefixBytes] = {};
  const TextRules rules{locale.ignore_table(key.ignore), key.fold ? &locale.upper() : nullptr};
  if (key.time) {
    return key_prefix(key, k);  // as in the C locale
  }
  thread_local std::string buf, digits;
  k = transformed(k, rules, buf);
  if (key.numeric) {
    encode_decimal(parse_locale_decimal(k, locale.numbers(), digits), p, kPrefixBytes);
  } else if (key.human_numeric) {
    p[0] = static_cast<unsigned char>(0x80 + locale_unit_order(skip_blanks(k), locale.numbers()));
    encode_decimal(parse_locale_decimal(k, locale.numbers(), digits), p + 1, kPrefixBytes - 1);
  } else if (key.general_numeric) {
    encode_general(parse_general_in(k, locale.handle()), p);
  } else if (key.month) {
    p[0] = static_cast<unsigned char>(month_in_locale(k, locale));
  } else if (key.version) {
    // No cheap order-preserving code: every pair goes to the full comparison.
  } else if (key.random) {
    random_prefix(k, key.random_salt, locale.collation(), p);
  } else {
    text_prefix(k, locale.collation(), p, kPrefixBytes);
  }
  return prefix_from_bytes(p, key.reverse);
}

int compare_lines_in_locale(std::string_view a, std::string_view b, const LineLocale& locale) {
  return compare_text(a, b, locale.collation());
}

Prefix line_prefix_in_locale(std::string_view line, const LineLocale& locale, bool reverse) {
  unsigned char p[kPrefixBytes] = {};
  text_prefix(line, locale.collation(), p, kPrefixBytes);
  return prefix_from_bytes(p, reverse);
}

void line_digest_in_locale(std::string_view line, const LineLocale& locale, bool reverse, unsigned char* p,
                           std::size_t n) {
  text_prefix(line, locale.collation(), p, n);
  if (reverse)
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(~p[i]);
}

int compare_collated_key(const KeyField& key, std::string_view a, std::string_view b, const Collation& collation) {
  const TextRules rules{key.ignore, key.fold ? &c_upper() : nullptr};
  thread_local std::string ba, bb;
  const int diff = sign(compare_text(transformed(a, rules, ba), transformed(b, rules, bb), &collation));
  return key.reverse ? -diff : diff;
}

Prefix collated_key_prefix(const KeyField& key, std::string_view k, const Collation& collation) {
  const TextRules rules{key.ignore, key.fold ? &c_upper() : nullptr};
  thread_local std::string buf;
  unsigned char p[kPrefixBytes] = {};
  text_prefix(transformed(k, rules, buf), &collation, p, kPrefixBytes);
  return prefix_from_bytes(p, key.reverse);
}

}  // namespace corank::text
