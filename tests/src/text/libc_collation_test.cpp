// Collations by name (libc_collation.hpp): glibc locale names open the
// locale's LC_COLLATE (its order as GNU sort -s in that locale gives it,
// independent of corank), byte order names open none, ICU names stay ICU's,
// and a locale the system lacks is an error naming it. Skips the glibc
// orders where en_US.UTF-8 is not installed.
#include "corank/text/libc_collation.hpp"

#include <gtest/gtest.h>

#include <locale.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "corank/errors.hpp"

namespace corank::text {
namespace {

bool has_locale(const char* name) {
  locale_t l = newlocale(LC_COLLATE_MASK, name, nullptr);
  if (l) freelocale(l);
  return l != nullptr;
}

std::vector<std::string> sorted(std::vector<std::string> v, const Collation& c) {
  std::stable_sort(v.begin(), v.end(), [&](const std::string& a, const std::string& b) { return c.compare(a, b) < 0; });
  return v;
}

TEST(CollationNamed, NamesOfByteOrderOpenNone) {
  for (const char* name : {"C", "POSIX", "C.UTF-8", "C.utf8"}) EXPECT_EQ(collation_named(name), nullptr) << name;
  EXPECT_TRUE(is_libc_locale_name("en_US.utf8"));
  EXPECT_TRUE(is_libc_locale_name("de_DE.UTF-8@euro"));
  EXPECT_FALSE(is_libc_locale_name("en"));
  EXPECT_FALSE(is_libc_locale_name("und-x-icu"));
  EXPECT_FALSE(is_libc_locale_name("de@collation=phonebook"));
  EXPECT_THROW(collation_named("xx_YY.utf8"), UsageError);
}

// GNU sort -s under LC_ALL=en_US.UTF-8 orders these so (punctuation and case
// weigh only at later levels): "ab" before "a-c", "a" before "A" before "b".
TEST(CollationNamed, AGlibcLocaleOrdersByItsRules) {
  if (!has_locale("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed";
  const auto en = collation_named("en_US.UTF-8");
  ASSERT_NE(en, nullptr);
  EXPECT_EQ(en->name(), "en_US.UTF-8");
  EXPECT_EQ(sorted({"a-c", "b", "A", "ab", "a"}, *en), (std::vector<std::string>{"a", "A", "ab", "a-c", "b"}));
  // Prefixes never contradict the comparison.
  const std::vector<std::string> v{"a-c", "ab", "A", "a", "b", "\xc3\xa9", "e", "E", "z"};
  for (const auto& x : v)
    for (const auto& y : v) {
      unsigned char px[16], py[16];
      en->prefix(x, px, sizeof px);
      en->prefix(y, py, sizeof py);
      if (en->compare(x, y) < 0) EXPECT_LE(std::memcmp(px, py, sizeof px), 0) << x << " " << y;
    }
  // Equal only when the bytes are: ties settled by them, as PostgreSQL does.
  EXPECT_EQ(en->compare("ab", "ab"), 0);
  std::string kx, ky;
  en->sort_key("a", kx);
  en->sort_key("A", ky);
  EXPECT_NE(kx, ky);
}

}  // namespace
}  // namespace corank::text
