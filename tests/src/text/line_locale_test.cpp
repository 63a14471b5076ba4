// What LineLocale reads from a locale, and -n -h -g -M under it, against what
// GNU sort 9.1 does under the same locales (the expected orders below are
// GNU's output; tests are skipped where a locale is not installed).
#include "corank/text/line_locale.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "corank/text/key_spec.hpp"
#include "corank/text/line_comparator.hpp"
#include "corank/text/locale_number.hpp"

namespace corank::text {
namespace {

std::shared_ptr<const LineLocale> load_or_null(const char* name) {
  auto l = LineLocale::load(name, nullptr);
  return l->failed() ? nullptr : l;
}

#define LOAD_OR_SKIP(var, name)                                                                      \
  const auto var = load_or_null(name);                                                               \
  if (!var) GTEST_SKIP() << "locale " << name << " is not installed (tools/setup.sh generates it)"

template <class Less>
std::vector<std::string> sorted(std::vector<std::string> v, Less less) {
  std::stable_sort(v.begin(), v.end(), less);
  return v;
}

TEST(LineLocale, ReadsNumbersMonthsAndCollation) {
  LOAD_OR_SKIP(de, "de_DE.UTF-8");
  EXPECT_EQ(de->numbers().decimal_point, ',');
  EXPECT_EQ(de->numbers().thousands_separator, '.');
  EXPECT_TRUE(de->collation() != nullptr);
  EXPECT_TRUE(de->hard_collate());
  EXPECT_FALSE(de->orders_as_c());
  EXPECT_TRUE(de->utf8());
  EXPECT_EQ(de->quote(","), "\u2018,\u2019");
  std::size_t end = 0;
  EXPECT_EQ(month_in_locale(" M\xc3\xa4r 3", *de, &end), 3);
  EXPECT_EQ(end, 5u);  // the blank and M, ä (two bytes), r
  EXPECT_EQ(month_in_locale("mai", *de), 5);
  EXPECT_EQ(month_in_locale("Ma", *de), 0);
  EXPECT_EQ(month_in_locale("Oct", *de), 0);
  EXPECT_EQ(month_in_locale("okt", *de), 10);
  LOAD_OR_SKIP(sv, "sv_SE.UTF-8");
  // Swedish groups thousands with a narrow no-break space: several bytes, which GNU ignores.
  EXPECT_EQ(sv->numbers().thousands_separator, kNoThousandsSeparator);
  EXPECT_TRUE(sv->numbers().multibyte_separator_ignored);
  EXPECT_EQ(month_in_locale("maj", *sv), 5);
}

TEST(LineLocale, CodePointOrderIsTheCPathAndAFailureIsC) {
  LOAD_OR_SKIP(c_utf8, "C.UTF-8");
  EXPECT_TRUE(c_utf8->hard_collate());  // GNU names it in --debug ...
  EXPECT_EQ(c_utf8->collation(), nullptr);  // ... but it has no rules: bytes
  EXPECT_TRUE(c_utf8->orders_as_c());
  EXPECT_EQ(c_utf8->debug_notes(), std::vector<std::string>{"text ordering performed using \u2018C.UTF-8\u2019 sorting rules"});
  const auto missing = LineLocale::load("xx_NO.UTF-8", nullptr);
  EXPECT_TRUE(missing->failed());
  EXPECT_TRUE(missing->orders_as_c());
  EXPECT_EQ(missing->debug_notes(),
            (std::vector<std::string>{"failed to set locale", "text ordering performed using simple byte comparison"}));
}

TEST(LineLocale, TheEmptyNameReadsTheEnvironment) {
  LOAD_OR_SKIP(probe, "de_DE.UTF-8");
  const char* saved = std::getenv("LC_ALL");
  const std::string keep = saved ? saved : "";
  ::setenv("LC_ALL", "de_DE.UTF-8", 1);
  const auto l = LineLocale::load("", nullptr);
  if (saved) ::setenv("LC_ALL", keep.c_str(), 1); else ::unsetenv("LC_ALL");
  EXPECT_EQ(l->collation_name(), "de_DE.UTF-8");
  EXPECT_EQ(l->numbers().decimal_point, ',');
}

// A time key under a collation: lines of one instant are ordered by strcoll,
// and their prefixes hold the collation's digest after the time, so that
// they seldom tie; never against the full comparison, -r and Tr included.
TEST(LineLocale, TimeKeyPrefixesFollowTheCollation) {
  LOAD_OR_SKIP(en, "en_US.UTF-8");
  const std::vector<std::string> lines = {
      "2026-11-25 10:00:01 apple", "2026-11-25 10:00:01 Zebra", "2026-11-25 10:00:01 \xc3\x84" "pfel",
      "2026-11-25 10:00:01 eclair", "2026-11-25 10:00:01 \xc3\xa9" "clair", "2026-11-25 10:00:01 Eclair",
      "2026-11-25 10:00:01 a-b", "2026-11-25 10:00:01 ab", "2026-11-25T09:00:01Z x", "no time, apple",
      "\tat com.example.A(A.java:1)", "\tat com.example.A(A.java:2)", "2026-11-25 10:00:02 apple", ""};
  for (const char* key : {"T", "Tr"})
    for (bool reverse : {false, true}) {
      LineOrdering o = resolve_ordering({parse_keydef(key)}, KeyField{}, kNoTab, false, false, '\n');
      o.reverse = reverse;
      o.locale = en;
      const LineComparator cmp(std::move(o));
      for (const auto& a : lines)
        for (const auto& b : lines)
          if (cmp.compare(a, b) < 0) EXPECT_FALSE(cmp.prefix(b) < cmp.prefix(a)) << key << reverse << " " << a << " < " << b;
      EXPECT_LT(cmp.compare(lines[0], lines[1]) * (reverse ? -1 : 1), 0) << key << reverse;  // apple before Zebra, as strcoll has it
      EXPECT_FALSE(cmp.prefix(lines[0]) == cmp.prefix(lines[1]));
    }
}

TEST(LocaleNumbers, GermanNumbersAsGnuSortOrdersThem) {
  LOAD_OR_SKIP(de, "de_DE.UTF-8");
  const LocaleNumbers& n = de->numbers();
  // LC_ALL=de_DE.UTF-8 sort -n (stable for the equal ones)
  EXPECT_EQ(sorted({"1.234,5", "999", "1,5", "1,50001", "-1.000", "-999", ",5", "0.0.0,4", "1..2", "5.", "12", "13"},
                   [&](const std::string& a, const std::string& b) { return compare_locale_numeric(a, b, n) < 0; }),
            (std::vector<std::string>{"-1.000", "-999", "0.0.0,4", ",5", "1,5", "1,50001", "5.", "1..2", "12", "13",
                                      "999", "1.234,5"}));
  // LC_ALL=de_DE.UTF-8 sort -h
  EXPECT_EQ(sorted({"1.234,5", "999", "1.2K", "13", "2K", "5.K", "1M", "900K"},
                   [&](const std::string& a, const std::string& b) { return compare_locale_human(a, b, n) < 0; }),
            (std::vector<std::string>{"5.K", "13", "999", "1.234,5", "2K", "1.2K", "900K", "1M"}));
  // LC_ALL=de_DE.UTF-8 sort -g: strtold reads "1.5" as 1.
  EXPECT_EQ(sorted({"1,5", "1.5", "2", "1e1"},
                   [&](const std::string& a, const std::string& b) {
                     return compare_general_in(a, b, de->handle()) < 0;
                   }),
            (std::vector<std::string>{"1.5", "1,5", "2", "1e1"}));
  EXPECT_EQ(locale_number_mark_end("1.234,5x", n, false), 7u);
  EXPECT_EQ(locale_number_mark_end("5.K", n, true), 1u);  // a number that ends in a separator has no unit
  EXPECT_EQ(locale_number_mark_end("1.2Kb", n, true), 4u);
  EXPECT_EQ(locale_number_mark_end("-x", n, false), 0u);
}

}  // namespace
}  // namespace corank::text
