#include "corank/text/line_comparator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace corank::text {
namespace {

LineComparator make(const std::vector<std::string>& keys, const char* global, bool stable = false,
                    bool unique = false, int tab = kNoTab) {
  std::vector<KeyField> k;
  for (const auto& s : keys) k.push_back(parse_keydef(s));
  KeyField g;
  apply_ordering_letters(global, g, BlankSide::Both);
  return LineComparator(resolve_ordering(std::move(k), g, tab, stable, unique, '\n'));
}

TEST(LineComparator, LastResortComparesWholeLinesUnlessStableOrUnique) {
  auto plain = make({"2,2n"}, "");
  EXPECT_LT(plain.compare("b 1", "a 2"), 0);
  EXPECT_GT(plain.compare("b 1", "a 1"), 0);  // keys equal: whole line decides
  EXPECT_EQ(make({"2,2n"}, "", true).compare("b 1", "a 1"), 0);
  EXPECT_EQ(make({"2,2n"}, "", false, true).compare("b 1", "a 1"), 0);
  EXPECT_LT(make({"2,2n"}, "r").compare("b 1", "a 1"), 0);  // global -r reverses the last resort too
}

// The prefix never contradicts the full comparison: a < b implies prefix(a) <= prefix(b).
// Found by line_compare_fuzz: the prefix of an empty line whose view has no
// data (a memcpy from null under UBSan).
TEST(LineComparator, PrefixOfAnEmptyViewWithoutData) {
  const LineComparator c = make({}, "");
  EXPECT_EQ(c.prefix(std::string_view{}), c.prefix(std::string_view("", 0)));
}

TEST(LineComparator, PrefixIsConsistentWithTheFullComparison) {
  std::mt19937 rng(3);
  const char* pieces[] = {"-", "0", "1", "9", ".", "5", "e", "K", "M", " ", "\t", "a", "B", "jan", "FEB", "x",
                          "10", "-0.0", "1e-5", "inf", "~", "\x80", "\x01"};
  std::vector<std::string> lines;
  for (int i = 0; i < 400; ++i) {
    std::string s;
    for (int j = 0, n = static_cast<int>(rng() % 8); j < n; ++j) s += pieces[rng() % std::size(pieces)];
    lines.push_back(s);
  }
  lines.push_back(std::string(100, '9'));
  lines.push_back("-" + std::string(100, '9'));
  for (const char* opts : {"", "n", "nr", "g", "h", "M", "V", "f", "d", "i", "fd", "b", "r"}) {
    for (const auto& keys : std::vector<std::vector<std::string>>{{}, {"1.2"}, {"2,2"}}) {
      auto cmp = make(keys, opts);
      for (const auto& a : lines)
        for (const auto& b : lines)
          if (cmp.compare(a, b) < 0)
            ASSERT_FALSE(cmp.prefix(b) < cmp.prefix(a)) << "-" << opts << " '" << a << "' < '" << b << "'";
    }
  }
}

}  // namespace
}  // namespace corank::text
