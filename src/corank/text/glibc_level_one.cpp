#include "corank/text/glibc_level_one.hpp"

#include <langinfo.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

namespace corank::text {

namespace {

// glibc's rule bits (locale/localeinfo.h): a level weighed backward, or with
// the positions of ignored characters, is no plain sequence of weights.
constexpr unsigned char kBackward = 2, kPosition = 4;
// The lists in the extra table keep each entry's int32 index aligned to 4 bytes.
constexpr std::size_t kAlign = 4;

std::uint32_t word_item(nl_item item, locale_t loc) {
  // A word item comes back in the first bytes of the pointer nl_langinfo_l returns.
  const char* p = nl_langinfo_l(item, loc);
  std::uint32_t w;
  std::memcpy(&w, &p, sizeof w);
  return w;
}

std::int32_t load_i32(const unsigned char* p) noexcept {
  std::int32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::size_t padded(std::size_t n) noexcept { return (n + kAlign - 1) / kAlign * kAlign; }

std::string utf8(std::uint32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | c >> 6);
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | c >> 12);
    s += static_cast<char>(0x80 | (c >> 6 & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | c >> 18);
    s += static_cast<char>(0x80 | (c >> 12 & 0x3F));
    s += static_cast<char>(0x80 | (c >> 6 & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

// Texts on which the tables must agree with strxfrm_l: every character of one
// and two bytes, a sample of longer ones, and random texts of letters that
// start contractions in some locale (l, c, d, ...), combining marks and the
// middle dot, invalid bytes, in a fixed sequence.
std::vector<std::string> probes() {
  std::vector<std::string> out;
  for (std::uint32_t c = 1; c < 0x800; ++c) out.push_back(utf8(c));
  for (std::uint32_t c = 0x800; c < 0x30000; c += 251)
    if (c < 0xD800 || c >= 0xE000) out.push_back(utf8(c));
  for (unsigned b = 0x80; b < 0x100; ++b) out.push_back(std::string(1, static_cast<char>(b)) + "a");
  std::mt19937 rng(20261201);
  const std::string_view starters = "lLcCdDgGnNsStTzZaAyYhH";
  for (int i = 0; i < 800; ++i) {
    std::string s;
    for (unsigned k = 0, len = 1 + rng() % 16; k < len; ++k) {
      switch (rng() % 6) {
        case 0: s += starters[rng() % starters.size()]; break;
        case 1: s += static_cast<char>(0x20 + rng() % 95); break;
        case 2: s += utf8(0xA0 + rng() % 0x1E0); break;  // Latin-1 and Latin Extended
        case 3: s += utf8(0x300 + rng() % 0x70); break;  // combining marks
        case 4: s += utf8(rng() % 2 ? 0xB7 : 0x387); break;  // middle dots (L·)
        default: s += utf8(0x400 + rng() % 0xD00); break;   // Cyrillic to Thai
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

void strxfrm_level_one(std::string_view text, locale_t loc, unsigned char* out, std::size_t n) {
  thread_local std::string src, dst;
  src.assign(text);
  // A guess of the transform's size; strxfrm_l says what it needs when short.
  if (dst.size() < 4 * text.size() + 64) dst.resize(4 * text.size() + 64);
  std::size_t need = strxfrm_l(dst.data(), src.c_str(), dst.size(), loc);
  if (need >= dst.size()) {
    dst.resize(need + 1);
    need = strxfrm_l(dst.data(), src.c_str(), dst.size(), loc);
  }
  const char* const separator = std::find(dst.data(), dst.data() + need, '\1');
  const auto level_one = static_cast<std::size_t>(separator - dst.data());
  const std::size_t k = std::min(level_one, n);
  std::memcpy(out, dst.data(), k);
  std::memset(out + k, 0, n - k);
}

std::optional<GlibcLevelOne> GlibcLevelOne::from(locale_t loc) {
  GlibcLevelOne t;
  t.levels_ = word_item(_NL_COLLATE_NRULES, loc);
  if (t.levels_ == 0 || t.levels_ > 4) return std::nullopt;  // byte order, or tables not as expected
  t.table_ = reinterpret_cast<const std::int32_t*>(nl_langinfo_l(_NL_COLLATE_TABLEMB, loc));
  t.weights_ = reinterpret_cast<const unsigned char*>(nl_langinfo_l(_NL_COLLATE_WEIGHTMB, loc));
  t.extra_ = reinterpret_cast<const unsigned char*>(nl_langinfo_l(_NL_COLLATE_EXTRAMB, loc));
  t.indirect_ = reinterpret_cast<const std::int32_t*>(nl_langinfo_l(_NL_COLLATE_INDIRECTMB, loc));
  t.rulesets_ = reinterpret_cast<const unsigned char*>(nl_langinfo_l(_NL_COLLATE_RULESETS, loc));
  if (!t.table_ || !t.weights_ || !t.extra_ || !t.indirect_ || !t.rulesets_) return std::nullopt;
  t.index_characters();
  // A sort loads its locale several times (validation, --debug, the sort):
  // each locale is checked once per process.
  static std::mutex mutex;
  static std::map<std::string, bool> checked;
  const std::string name = nl_langinfo_l(_NL_LOCALE_NAME(LC_COLLATE), loc);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = checked.find(name); it != checked.end()) return it->second ? std::optional(t) : std::nullopt;
  }
  constexpr std::size_t kCheck = 48;  // more than a prefix's 32 bytes
  unsigned char mine[kCheck], theirs[kCheck];
  bool agree = true;
  for (const std::string& p : probes()) {
    strxfrm_level_one(p, loc, theirs, kCheck);
    if (!t.weights(p, mine, kCheck)) continue;  // weighed by strxfrm_l anyway
    if (std::memcmp(mine, theirs, kCheck) != 0) {
      agree = false;
      break;
    }
  }
  const std::lock_guard<std::mutex> lock(mutex);
  checked[name] = agree;
  return agree ? std::optional(t) : std::nullopt;
}

// The list of the sequences that start with one byte, in the order glibc
// tries them, the first that matches winning: single characters and
// contractions (an index >= 0, the bytes after the first), ranges of
// characters (an index < 0 into indirect_, the first and last sequence), and
// last the byte alone (an index >= 0, no bytes).
std::int32_t GlibcLevelOne::search(const unsigned char*& p, const unsigned char* end) const {
  const std::int32_t first = table_[*p++];
  if (first >= 0) return first;
  const auto avail = static_cast<std::size_t>(end - p);
  const unsigned char* e = extra_ - first;
  for (;;) {
    const std::int32_t index = load_i32(e);
    const std::size_t n = e[4];
    const unsigned char* bytes = e + 5;
    if (index >= 0) {
      if (n <= avail && (n == 0 || bytes[0] == p[0]) && std::memcmp(bytes, p, n) == 0) {
        p += n;
        return index;
      }
      e += 4 + padded(1 + n);
      continue;
    }
    // A range: [lo, hi] compared as byte strings of n bytes.
    const unsigned char* lo = bytes;
    const unsigned char* hi = bytes + n;
    const bool inside = n <= avail && p[0] >= lo[0] && p[0] <= hi[0] && std::memcmp(p, lo, n) >= 0 &&
                        std::memcmp(p, hi, n) <= 0;
    if (!inside) {
      e += 4 + padded(1 + 2 * n);
      continue;
    }
    // The offset in the range: the bytes from the first that differs from lo on, as a number.
    std::size_t at = 0;
    while (at < n && p[at] == lo[at]) ++at;
    // Later bytes may be below lo's: their differences are negative, and the
    // sum wraps as glibc's does.
    std::size_t offset = 0;
    for (; at < n; ++at) offset = (offset << 8) + static_cast<std::size_t>(static_cast<int>(p[at]) - lo[at]);
    p += n;
    return indirect_[-index + static_cast<std::ptrdiff_t>(offset)];
  }
}

GlibcLevelOne::CharWeights GlibcLevelOne::plain_weights(std::int32_t index) const {
  CharWeights c;
  const std::uint32_t ruleset = static_cast<std::uint32_t>(index) >> 24;
  if (rulesets_[ruleset * levels_] & (kBackward | kPosition)) return c;
  const unsigned char* w = weights_ + (index & 0xFFFFFF);
  if (w[0] > c.bytes.size()) return c;
  c.size = w[0];
  std::memcpy(c.bytes.data(), w + 1, c.size);
  return c;
}

void GlibcLevelOne::index_characters() {
  chars_.assign(128 + 32 * 64, CharWeights{});
  for (unsigned b = 0; b < 0x80; ++b) {
    const std::int32_t first = table_[b];
    if (first >= 0) {
      chars_[b] = plain_weights(first);
      continue;
    }
    // A list: the longer sequences give the bytes that may follow; the entry
    // without bytes (the last) is the byte alone.
    for (const unsigned char* e = extra_ - first;;) {
      const std::int32_t index = load_i32(e);
      const std::size_t n = e[4];
      const unsigned char* bytes = e + 5;
      if (index >= 0 && n == 0) {
        chars_[b] = plain_weights(index);
        break;
      }
      if (index >= 0) {
        continues_[b].set(bytes[0]);
        e += 4 + padded(1 + n);
      } else {
        for (unsigned c = bytes[0]; c <= bytes[n]; ++c) continues_[b].set(c);
        e += 4 + padded(1 + 2 * n);
      }
    }
  }
  for (unsigned lead = 0xC2; lead < 0xE0; ++lead) {
    const std::int32_t first = table_[lead];
    if (first >= 0) continue;  // the lead byte alone is an element: search
    bool decided[64] = {};
    const auto slot = [&](unsigned c) -> CharWeights& { return chars_[128 + (lead - 0xC0) * 64 + (c - 0x80)]; };
    for (const unsigned char* e = extra_ - first;;) {
      const std::int32_t index = load_i32(e);
      const std::size_t n = e[4];
      const unsigned char* bytes = e + 5;
      if (n == 0) break;  // the lead byte alone: the rest stay undecided (search)
      if (index >= 0) {
        if (bytes[0] >= 0x80 && bytes[0] < 0xC0 && !decided[bytes[0] - 0x80]) {
          // The first entry that can match a continuation byte decides it:
          // the character itself, or a longer sequence that must be searched.
          decided[bytes[0] - 0x80] = true;
          if (n == 1) slot(bytes[0]) = plain_weights(index);
        }
        e += 4 + padded(1 + n);
        continue;
      }
      for (unsigned c = std::max(0x80u, static_cast<unsigned>(bytes[0])); c < 0xC0 && c <= bytes[n]; ++c) {
        if (decided[c - 0x80]) continue;
        decided[c - 0x80] = true;
        if (n == 1) slot(c) = plain_weights(indirect_[-index + static_cast<std::int32_t>(c - bytes[0])]);
      }
      e += 4 + padded(1 + 2 * n);
    }
  }
}

bool GlibcLevelOne::weights(std::string_view text, unsigned char* out, std::size_t n) const {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* end = p + text.size();
  std::size_t o = 0;
  while (p < end && o < n) {
    const unsigned char b = *p;
    const CharWeights* known = nullptr;
    std::size_t step = 0;
    if (b < 0x80) {
      if (end - p == 1 || !continues_[b].test(p[1])) known = &chars_[b], step = 1;
    } else if (b >= 0xC0 && b < 0xE0 && end - p >= 2 && (p[1] & 0xC0) == 0x80) {
      known = &chars_[128 + (b - 0xC0) * 64 + (p[1] - 0x80)], step = 2;
    }
    if (known && known->size != CharWeights::kSearch) {
      const std::size_t len = std::min<std::size_t>(known->size, n - o);
      std::memcpy(out + o, known->bytes.data(), len);
      o += len;
      p += step;
      continue;
    }
    const std::int32_t e = search(p, end);
    const std::uint32_t ruleset = static_cast<std::uint32_t>(e) >> 24;
    if (rulesets_[ruleset * levels_] & (kBackward | kPosition)) return false;
    const unsigned char* w = weights_ + (e & 0xFFFFFF);
    const std::size_t len = std::min<std::size_t>(w[0], n - o);
    std::memcpy(out + o, w + 1, len);
    o += len;
  }
  std::memset(out + o, 0, n - o);
  return true;
}

}  // namespace corank::text
