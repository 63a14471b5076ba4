#include "corank/text/line_comparator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
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
  for (const char* opts : {"", "n", "nr", "g", "h", "M", "V", "f", "d", "i", "fd", "b", "r", "R", "Rf", "Rr", "fh",
                           "fn", "fM", "fg"}) {
    for (const auto& keys : std::vector<std::vector<std::string>>{{}, {"1.2"}, {"2,2"}}) {
      auto cmp = make(keys, opts);
      for (const auto& a : lines)
        for (const auto& b : lines)
          if (cmp.compare(a, b) < 0)
            ASSERT_FALSE(cmp.prefix(b) < cmp.prefix(a)) << "-" << opts << " '" << a << "' < '" << b << "'";
    }
  }
}

// GNU folds (-f) and drops characters (-d, -i) before the numeric, month,
// version and random comparisons see the key: "1m" is "1M" to -h under -f.
TEST(LineComparator, FoldingComesBeforeNumericComparisons) {
  EXPECT_LT(make({}, "h").compare("1m", "2K"), 0);  // "m" is no unit: 1 < 2K
  EXPECT_GT(make({}, "fh").compare("1m", "2K"), 0);  // 1M > 2K
  EXPECT_FALSE(make({}, "fh").prefix("1m") < make({}, "fh").prefix("2K"));
  EXPECT_EQ(make({}, "fM", true).compare("feb", "FEB"), 0);
}

// -R orders by a seeded hash of the key: equal keys are neighbours, the seed
// fixes the order, and a different seed gives another.
TEST(LineComparator, RandomOrderGroupsEqualKeysAndFollowsTheSeed) {
  auto ordered = [](std::uint64_t salt) {
    std::vector<KeyField> k{parse_keydef("2,2R")};
    LineOrdering o = resolve_ordering(std::move(k), KeyField{}, kNoTab, false, false, '\n');
    seed_random_keys(o.keys, salt);
    LineComparator cmp(std::move(o));
    std::vector<std::string> lines;
    for (int i = 0; i < 300; ++i) lines.push_back(std::to_string(i) + " k" + std::to_string(i % 50));
    std::sort(lines.begin(), lines.end(), [&](const auto& a, const auto& b) { return cmp.compare(a, b) < 0; });
    for (std::size_t i = 1; i < lines.size(); ++i)
      EXPECT_FALSE(cmp.prefix(lines[i]) < cmp.prefix(lines[i - 1]));
    std::vector<std::string> keys;
    for (const auto& l : lines) keys.push_back(l.substr(l.find(' ') + 1));
    return keys;
  };
  const auto a = ordered(1), again = ordered(1), b = ordered(2);
  EXPECT_EQ(a, again);
  EXPECT_NE(a, b);
  // Each key's 6 lines are together: the sequence of keys has 50 runs.
  const auto runs = 1 + std::inner_product(a.begin() + 1, a.end(), a.begin(), 0, std::plus<>(),
                                           [](const auto& x, const auto& y) { return x != y ? 1 : 0; });
  EXPECT_EQ(runs, 50);
  std::vector<std::string> sorted_keys = a;
  std::sort(sorted_keys.begin(), sorted_keys.end());
  EXPECT_NE(a, sorted_keys);  // not byte order
}

}  // namespace
}  // namespace corank::text
