// ICU collations by name: the orders CLDR defines (independent of corank),
// ties settled by bytes as PostgreSQL settles them, prefixes that never
// contradict the comparison, and per-thread clones.
#include "corank/text/icu_collation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "corank/errors.hpp"

namespace corank::text {
namespace {

std::vector<std::string> sorted(std::vector<std::string> v, const Collation& c) {
  std::stable_sort(v.begin(), v.end(), [&](const std::string& a, const std::string& b) { return c.compare(a, b) < 0; });
  return v;
}

TEST(IcuCollation, OrdersAsCldrSays) {
  const auto und = icu_collation("und");
  EXPECT_EQ(sorted({"b", "A", "a", "\xc3\xa9", "e", "E", "-x", "x"}, *und),
            (std::vector<std::string>{"-x", "a", "A", "b", "e", "E", "\xc3\xa9", "x"}));
  // Swedish: å ä ö after z.
  const auto sv = icu_collation("sv");
  EXPECT_EQ(sorted({"\xc3\xb6", "\xc3\xa4", "z", "\xc3\xa5", "a"}, *sv),
            (std::vector<std::string>{"a", "z", "\xc3\xa5", "\xc3\xa4", "\xc3\xb6"}));
  // German phone book order: Ä is AE, so Ärger comes before Af; in the root order after it.
  const auto phonebook = icu_collation("de-u-co-phonebk");
  EXPECT_LT(phonebook->compare("\xc3\x84rger", "Af"), 0);
  EXPECT_GT(und->compare("\xc3\x84rger", "Af"), 0);
  EXPECT_LT(icu_collation("de@collation=phonebook")->compare("\xc3\x84rger", "Af"), 0);
}

TEST(IcuCollation, NamesAsPostgresqlAndIcuWriteThem) {
  EXPECT_EQ(icu_collation("und-x-icu")->compare("a", "B"), -1);
  EXPECT_EQ(icu_collation("und"), icu_collation("und"));  // opened once
  EXPECT_EQ(icu_collation("en")->name(), "en");
  EXPECT_THROW(icu_collation("xx"), UsageError);
  EXPECT_THROW(icu_collation("not a tag"), UsageError);
  EXPECT_THROW(icu_collation("en-"), UsageError);
}

TEST(IcuCollation, EqualTextsAreOrderedByTheirBytes) {
  // Primary strength: case and accents do not count, then the bytes decide.
  const auto primary = icu_collation("und-u-ks-level1");
  EXPECT_LT(primary->compare("A", "a"), 0);
  EXPECT_GT(primary->compare("a", "A"), 0);
  EXPECT_LT(primary->compare("a", "\xc3\xa1"), 0);
  EXPECT_EQ(primary->compare("a", "a"), 0);
  unsigned char pa[32], pb[32];
  primary->prefix("A", pa, sizeof pa);
  primary->prefix("a", pb, sizeof pb);
  EXPECT_EQ(std::memcmp(pa, pb, sizeof pa), 0);  // the tie is left to the full comparison
}

std::string random_text(std::mt19937& rng) {
  static const char* const kPieces[] = {"a", "A", "b", "\xc3\xa9", "E", "\xc3\xb6", "\xc3\xa5", "z", "-", " ", "'",
                                        "1", "\xc3\x9f", "ss", "\xcc\x81", "\xe4\xb8\xad", "\xff", "\xf0\x9f\x98\x80",
                                        "\x01", "ch", "aa", "\xef\xac\x81", "\xd0\x96", "\xd0\xb6", "10", "9", "\xe2\x82\xac"};
  std::string s;
  for (unsigned i = 0, n = rng() % 30; i < n; ++i) s += kPieces[rng() % (sizeof kPieces / sizeof kPieces[0])];
  return s;
}

TEST(IcuCollation, PrefixesAndSortKeysNeverContradictTheComparison) {
  // Numbers by value (kn), variable characters shifted (ka-shifted), scripts
  // reordered (Russian puts Cyrillic first).
  for (const char* name : {"und", "sv", "de-u-co-phonebk", "und-u-ks-level2", "und-u-kn", "und-u-ka-shifted", "ru"}) {
    SCOPED_TRACE(name);
    const auto c = icu_collation(name);
    std::mt19937 rng(3);
    for (int i = 0; i < 20000; ++i) {
      const std::string a = random_text(rng), b = random_text(rng);
      const int d = c->compare(a, b);
      ASSERT_EQ(d, -c->compare(b, a));
      unsigned char pa[32], pb[32];
      c->prefix(a, pa, sizeof pa);
      c->prefix(b, pb, sizeof pb);
      const int p = std::memcmp(pa, pb, sizeof pa);
      if (d < 0) ASSERT_LE(p, 0) << a << " | " << b;
      if (d > 0) ASSERT_GE(p, 0) << a << " | " << b;
      std::string ka, kb;
      c->sort_key(a, ka);
      c->sort_key(b, kb);
      // Sort keys order as the collation does, before the bytes settle ties.
      if (ka != kb) ASSERT_EQ(ka < kb ? -1 : 1, d) << a << " | " << b;
      ASSERT_EQ(std::memcmp(pa, ka.data(), std::min<std::size_t>(32, ka.size())), 0);
    }
  }
}

TEST(IcuCollation, ThreadsCompareWithTheirOwnClones) {
  const auto c = icu_collation("sv");
  std::mt19937 rng(5);
  std::vector<std::string> texts(4000);
  for (auto& t : texts) t = random_text(rng);
  std::vector<int> want(texts.size() - 1);
  for (std::size_t i = 0; i + 1 < texts.size(); ++i) want[i] = c->compare(texts[i], texts[i + 1]);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round)
        for (std::size_t i = 0; i + 1 < texts.size(); ++i) mismatches[t] += c->compare(texts[i], texts[i + 1]) != want[i];
    });
  for (auto& th : threads) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

}  // namespace
}  // namespace corank::text
