// GlibcLevelOne and GlibcCollation against glibc's own strxfrm_l and
// strcoll_l, in each test locale that is installed (tools/setup.sh generates
// them; elsewhere these tests are skipped with the reason).
#include "corank/text/glibc_collation.hpp"

#include <gtest/gtest.h>
#include <locale.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace corank::text {
namespace {

const char* const kLocales[] = {"en_US.UTF-8", "de_DE.UTF-8", "sv_SE.UTF-8"};

struct Locale {
  locale_t loc = nullptr;
  explicit Locale(const char* name) : loc(newlocale(LC_ALL_MASK, name, nullptr)) {}
  ~Locale() {
    if (loc) freelocale(loc);
  }
};

std::string utf8(std::uint32_t c) {
  std::string s;
  if (c < 0x80) return std::string(1, static_cast<char>(c));
  if (c < 0x800) {
    s += static_cast<char>(0xC0 | c >> 6);
  } else {
    s += static_cast<char>(0xE0 | c >> 12);
    s += static_cast<char>(0x80 | (c >> 6 & 0x3F));
  }
  s += static_cast<char>(0x80 | (c & 0x3F));
  return s;
}

// Texts of the kinds that trouble collations: cases and accents, ignorable
// punctuation, digits, combining marks, contractions (L·), CJK, invalid bytes.
std::string random_text(std::mt19937& rng, unsigned max_len = 24) {
  static const char* const kPieces[] = {"a", "A", "b", "e", "E", "\xc3\xa9", "\xc3\x89", "\xc3\xb6", "\xc3\xa5", "\xc3\xa4",
                                        "z", "Z", "-", " ", ".", ",", "'", "1", "9", "\xc3\x9f", "ss", "l",
                                        "L\xc2\xb7", "l\xc2\xb7", "\xcc\x81", "\xe4\xb8\xad", "\xff", "\x01", "ch", "aa"};
  std::string s;
  for (unsigned i = 0, n = rng() % (max_len + 1); i < n; ++i) {
    if (rng() % 8 == 0)
      s += utf8(0xA0 + rng() % 0x2000);
    else
      s += kPieces[rng() % (sizeof kPieces / sizeof kPieces[0])];
  }
  return s;
}

TEST(GlibcLevelOne, AgreesWithStrxfrm) {
  for (const char* name : kLocales) {
    SCOPED_TRACE(name);
    Locale l(name);
    if (!l.loc) GTEST_SKIP() << "locale " << name << " is not installed (tools/setup.sh generates it)";
    const auto tables = GlibcLevelOne::from(l.loc);
    ASSERT_TRUE(tables.has_value()) << "the tables of " << name << " could not be read: prefixes fall back to strxfrm_l";
    std::mt19937 rng(7);
    for (int i = 0; i < 20000; ++i) {
      const std::string s = random_text(rng, 40);
      unsigned char mine[48], theirs[48];
      strxfrm_level_one(s, l.loc, theirs, sizeof theirs);
      if (!tables->weights(s, mine, sizeof mine)) continue;
      ASSERT_EQ(std::memcmp(mine, theirs, sizeof mine), 0) << "text '" << s << "'";
    }
  }
}

TEST(GlibcLevelOne, NoneForTheCLocale) {
  Locale c("C");
  ASSERT_TRUE(c.loc);
  EXPECT_FALSE(GlibcLevelOne::from(c.loc).has_value());
}

// compare is gnulib's memcoll0 over strcoll_l, and a prefix never contradicts it.
TEST(GlibcCollation, PrefixesNeverContradictStrcoll) {
  for (const char* name : kLocales) {
    SCOPED_TRACE(name);
    Locale l(name);
    if (!l.loc) GTEST_SKIP() << "locale " << name << " is not installed (tools/setup.sh generates it)";
    const GlibcCollation c(l.loc, name);
    EXPECT_TRUE(c.reads_tables());
    std::mt19937 rng(11);
    for (int i = 0; i < 20000; ++i) {
      std::string a = random_text(rng), b = rng() % 4 ? random_text(rng) : a + random_text(rng, 3);
      const int want = strcoll_l(a.c_str(), b.c_str(), l.loc);
      const int got = c.compare(a, b);
      ASSERT_EQ((got > 0) - (got < 0), a == b ? 0 : (want > 0) - (want < 0)) << a << " | " << b;
      unsigned char pa[32], pb[32];
      c.prefix(a, pa, sizeof pa);
      c.prefix(b, pb, sizeof pb);
      const int p = std::memcmp(pa, pb, sizeof pa);
      if (got < 0) ASSERT_LE(p, 0) << a << " | " << b;
      if (got > 0) ASSERT_GE(p, 0) << a << " | " << b;
    }
  }
}

TEST(GlibcCollation, ComparesPiecesBetweenNulsAndKeepsTies) {
  Locale l("en_US.UTF-8");
  if (!l.loc) GTEST_SKIP() << "locale en_US.UTF-8 is not installed (tools/setup.sh generates it)";
  const GlibcCollation c(l.loc, "en_US.UTF-8");
  using namespace std::string_view_literals;
  EXPECT_GT(c.compare("a\0b"sv, "a"sv), 0);  // the same first piece; a has more
  EXPECT_LT(c.compare("a"sv, "a\0b"sv), 0);
  EXPECT_LT(c.compare("a\0b"sv, "a\0c"sv), 0);
  EXPECT_LT(c.compare("b\0a"sv, "c"sv), 0);  // the first pieces decide
  // Bytes glibc gives the same weights at every level are equal: GNU keeps
  // such lines in input order, settling nothing by bytes.
  EXPECT_EQ(c.compare("a\x01z", "a\xffz"), 0);
  unsigned char pa[32], pb[32];
  c.prefix("b\0zzz"sv, pa, sizeof pa);
  c.prefix("b"sv, pb, sizeof pb);
  EXPECT_EQ(std::memcmp(pa, pb, sizeof pa), 0);  // what follows a NUL is no part of the prefix
  std::string ka, kb;
  c.sort_key("a\x01z", ka);
  c.sort_key("a\xffz", kb);
  EXPECT_EQ(ka, kb);
  c.sort_key("a", kb);
  EXPECT_NE(ka, kb);
}

}  // namespace
}  // namespace corank::text
