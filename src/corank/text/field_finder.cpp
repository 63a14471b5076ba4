#include "corank/text/field_finder.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace corank::text {

namespace {

inline bool blank(char c) noexcept { return is_blank(static_cast<unsigned char>(c)); }

// The first blank in [p, lim), or lim. A field can be megabytes long (a JSON
// document, a base64 blob), and a comparison finds its key again each time:
// sixteen bytes a step where SSE2 is there (every x86-64), eight elsewhere, as
// a word whose bytes equal to a blank are flagged (the classic zero-byte test
// on the word xor a blank repeated: a flag's lowest set bit is exact, the
// higher ones may be spurious, and only the lowest is used).
const char* next_blank(const char* p, const char* lim) noexcept {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), newline = _mm_set1_epi8('\n');
  while (lim - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hits =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)), _mm_cmpeq_epi8(v, newline));
    if (const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hits)); mask != 0) return p + std::countr_zero(mask);
    p += 16;
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t kOnes = 0x0101010101010101u, kHighs = 0x8080808080808080u;
    auto zero_bytes = [](std::uint64_t v) noexcept { return (v - kOnes) & ~v & kHighs; };
    while (lim - p >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      const std::uint64_t hits = zero_bytes(w ^ (kOnes * ' ')) | zero_bytes(w ^ (kOnes * '\t')) |
                                 zero_bytes(w ^ (kOnes * '\n'));
      if (hits != 0) return p + std::countr_zero(hits) / 8;
      p += 8;
    }
  }
  while (p < lim && !blank(*p)) ++p;
  return p;
}

const char* skip_fields(const char* p, const char* lim, std::uint64_t n, int tab) noexcept {
  if (tab != kNoTab) {
    const char t = static_cast<char>(tab);
    while (p < lim && n--) {
      const void* hit = std::memchr(p, t, static_cast<std::size_t>(lim - p));
      p = hit ? static_cast<const char*>(hit) : lim;
      if (p < lim) ++p;
    }
  } else {
    while (p < lim && n--) {
      while (p < lim && blank(*p)) ++p;
      p = next_blank(p, lim);
    }
  }
  return p;
}

const char* field_begin(const char* p, const char* lim, const KeyField& key, int tab) noexcept {
  p = skip_fields(p, lim, key.sword, tab);
  if (key.skip_start_blanks)
    while (p < lim && blank(*p)) ++p;
  return static_cast<std::uint64_t>(lim - p) < key.schar ? lim : p + key.schar;
}

const char* field_limit(const char* p, const char* lim, const KeyField& key, int tab) noexcept {
  std::uint64_t eword = key.eword;
  const std::uint64_t echar = key.echar;
  if (echar == 0) ++eword;  // the whole of field eword
  if (tab != kNoTab) {
    const char t = static_cast<char>(tab);
    while (p < lim && eword--) {
      const void* hit = std::memchr(p, t, static_cast<std::size_t>(lim - p));
      p = hit ? static_cast<const char*>(hit) : lim;
      // The separator after the last wanted field is not part of the key.
      if (p < lim && (eword || echar)) ++p;
    }
  } else {
    while (p < lim && eword--) {
      while (p < lim && blank(*p)) ++p;
      p = next_blank(p, lim);
    }
  }
  if (echar != 0) {
    if (key.skip_end_blanks)
      while (p < lim && blank(*p)) ++p;
    p = static_cast<std::uint64_t>(lim - p) < echar ? lim : p + echar;
  }
  return p;
}

}  // namespace

KeySpan find_key(std::string_view line, const KeyField& key, int tab) noexcept {
  const char* text = line.data();
  const char* lim = text + line.size();
  const char* end = key.eword == kNoPosition ? lim : field_limit(text, lim, key, tab);
  const char* begin;
  if (key.sword != kNoPosition) {
    begin = field_begin(text, lim, key, tab);
  } else {
    begin = text;
    if (key.skip_start_blanks)
      while (begin < lim && blank(*begin)) ++begin;
  }
  return {begin, std::max(begin, end)};
}

}  // namespace corank::text
