#include "corank/text/field_finder.hpp"

#include <algorithm>
#include <cstring>

namespace corank::text {

namespace {

inline bool blank(char c) noexcept { return is_blank(static_cast<unsigned char>(c)); }

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
      while (p < lim && !blank(*p)) ++p;
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
      while (p < lim && !blank(*p)) ++p;
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
