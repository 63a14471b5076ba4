#include "corank/text/line_comparator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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

// Writes the instant `utc` as a Common Log Format time in the zone `offset_minutes`
// east of UTC, by std::chrono's calendar (apart from the parser's own arithmetic).
std::string clf_time(std::int64_t utc, int offset_minutes) {
  using namespace std::chrono;
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const sys_seconds local{seconds{utc + std::int64_t{offset_minutes} * 60}};
  const auto day = floor<days>(local);
  const year_month_day ymd{day};
  const hh_mm_ss hms{local - day};
  const int off = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%02u/%s/%04d:%02d:%02d:%02d %c%02d%02d]", static_cast<unsigned>(ymd.day()),
                kMonths[static_cast<unsigned>(ymd.month()) - 1], static_cast<int>(ymd.year()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()), offset_minutes < 0 ? '-' : '+', off / 60, off % 60);
  return buf;
}

// nginx lines whose time (fields 4 and 5) was written in many zones: -k4,5T
// orders them by the instant, which the generator knows.
TEST(LineComparator, TimeKeysOrderCommonLogLinesByInstant) {
  std::mt19937_64 rng(2026);
  struct Line {
    std::int64_t utc;
    std::string text;
  };
  std::vector<Line> lines;
  for (int i = 0; i < 2000; ++i) {
    // Close instants (a few hours apart at most) so that zones reorder them.
    const std::int64_t utc = 1791640536 + static_cast<std::int64_t>(rng() % 20000);
    const int offset = (static_cast<int>(rng() % 113) - 56) * 15;  // -14:00 .. +14:00
    lines.push_back({utc, "10.0." + std::to_string(rng() % 256) + ".1 - - " + clf_time(utc, offset) +
                              " \"GET /" + std::to_string(i) + " HTTP/1.1\" 200 " + std::to_string(rng() % 5000)});
  }
  lines.push_back({INT64_MIN, "10.0.0.1 - - [garbage] \"GET / HTTP/1.1\" 200 0"});  // unparsable: first
  for (const char* opts : {"T", "rT"}) {
    SCOPED_TRACE(opts);
    const LineComparator cmp = make({std::string("4,5") + opts}, "", /*stable=*/true);
    const bool reverse = opts[0] == 'r';
    std::vector<Line> sorted = lines;
    std::stable_sort(sorted.begin(), sorted.end(), [&](const Line& a, const Line& b) {
      const Prefix pa = cmp.prefix(a.text), pb = cmp.prefix(b.text);
      if (!(pa == pb)) return pa < pb;
      return cmp.compare(a.text, b.text) < 0;
    });
    for (std::size_t i = 1; i < sorted.size(); ++i)
      ASSERT_TRUE(reverse ? sorted[i - 1].utc >= sorted[i].utc : sorted[i - 1].utc <= sorted[i].utc)
          << sorted[i - 1].text << "\n" << sorted[i].text;
  }
}

TEST(LineComparator, TimePrefixIsConsistentWithTheFullComparison) {
  std::mt19937 rng(5);
  const char* pieces[] = {"2026-10-10", "T", " ", "13:55:36", "13:55:37", ".5", "Z", "+02:00", "-0100",
                          "[", "]", "10/Oct/2026:13:55:36", "Oct 10 ", "1791640536", "1791640536123", "-1", "x"};
  std::vector<std::string> lines;
  for (int i = 0; i < 400; ++i) {
    std::string s;
    for (int j = 0, n = static_cast<int>(rng() % 5); j < n; ++j) s += pieces[rng() % std::size(pieces)];
    lines.push_back(s);
  }
  for (const char* opts : {"T", "Tr", "bT"}) {
    const LineComparator cmp = make({}, opts);
    int ordered = 0;
    for (const auto& a : lines)
      for (const auto& b : lines)
        if (cmp.compare(a, b) < 0) {
          ++ordered;
          ASSERT_FALSE(cmp.prefix(b) < cmp.prefix(a)) << "-" << opts << " '" << a << "' < '" << b << "'";
        }
    EXPECT_GT(ordered, 1000);
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

namespace corank::text {
namespace {

// A lone time key's prefix holds the instant, then the line's first bytes:
// lines of one instant are ordered by the prefix as the last resort orders
// them (reversed by a global -r), and the key's r reverses the instant only.
TEST(LineComparator, TimeKeyPrefixesCarryTheLastResort) {
  const std::string a = "10.0.0.1 - - [25/Nov/2026:12:00:00 +0100] a", b = "10.0.0.2 - - [25/Nov/2026:12:00:00 +0100] b",
                    later = "10.0.0.0 - - [25/Nov/2026:12:00:01 +0100] c";
  for (const char* global : {"", "r"}) {
    for (const char* key : {"T", "Tr", "4,5T"}) {
      SCOPED_TRACE(std::string(key) + " -" + global);
      const LineComparator c = make({key}, global);
      for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}, std::pair{a, later}, std::pair{later, b}}) {
        const int d = c.compare(x, y);
        ASSERT_NE(d, 0);
        EXPECT_TRUE(d < 0 ? c.prefix(x) < c.prefix(y) : c.prefix(y) < c.prefix(x)) << x << " | " << y;
      }
    }
  }
  // Stable: no last resort, so lines of one instant share their prefix.
  const LineComparator s = make({"T"}, "", true);
  EXPECT_TRUE(s.prefix(a) == s.prefix(b));
}

}  // namespace
}  // namespace corank::text
