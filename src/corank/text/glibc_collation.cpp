#include "corank/text/glibc_collation.hpp"

#include <langinfo.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace corank::text {

namespace {

// `s` and a NUL after it, in a buffer of this thread's: strcoll_l and
// strxfrm_l read C strings.
const char* terminated(std::string_view s, std::string& buf) {
  buf.assign(s);
  return buf.c_str();
}

}  // namespace

std::uint32_t glibc_collation_rules(locale_t loc) noexcept {
  // A word item comes back in the first bytes of the pointer nl_langinfo_l returns.
  const char* p = nl_langinfo_l(_NL_COLLATE_NRULES, loc);
  std::uint32_t w;
  std::memcpy(&w, &p, sizeof w);
  return w;
}

GlibcCollation::GlibcCollation(locale_t loc, std::string name)
    : loc_(loc), name_(std::move(name)), level_one_(GlibcLevelOne::from(loc)) {}

int GlibcCollation::compare(std::string_view a, std::string_view b) const {
  if (a == b) return 0;
  thread_local std::string ba, bb;
  const char* pa = terminated(a, ba);
  const char* pb = terminated(b, bb);
  // Sizes with the terminators, as memcoll0 counts them: each piece ends at a NUL.
  std::size_t left_a = a.size() + 1, left_b = b.size() + 1;
  for (;;) {
    if (const int d = strcoll_l(pa, pb, loc_)) return d < 0 ? -1 : 1;
    const std::size_t na = std::strlen(pa) + 1, nb = std::strlen(pb) + 1;
    pa += na, pb += nb;
    left_a -= na, left_b -= nb;
    if (left_a == 0) return left_b == 0 ? 0 : -1;
    if (left_b == 0) return 1;
  }
}

void GlibcCollation::prefix(std::string_view text, unsigned char* out, std::size_t n) const {
  const std::size_t nul = text.find('\0');
  if (nul != std::string_view::npos) text = text.substr(0, nul);
  if (!level_one_ || !level_one_->weights(text, out, n)) strxfrm_level_one(text, loc_, out, n);
}

void GlibcCollation::sort_key(std::string_view text, std::string& out) const {
  out.clear();
  thread_local std::string piece, buf;
  std::size_t start = 0;
  do {
    const std::size_t nul = std::min(text.find('\0', start), text.size());
    const char* s = terminated(text.substr(start, nul - start), piece);
    std::size_t need = strxfrm_l(nullptr, s, 0, loc_);
    buf.resize(need + 1);
    strxfrm_l(buf.data(), s, buf.size(), loc_);
    out.append(buf.data(), need);
    out += '\0';
    start = nul + 1;
  } while (start <= text.size());
}

}  // namespace corank::text
