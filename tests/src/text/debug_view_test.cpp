#include "corank/text/debug_view.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace corank::text {
namespace {

LineOrdering ordering(const std::vector<std::string>& keys, const char* global, bool stable = false,
                      int tab = kNoTab) {
  std::vector<KeyField> k;
  for (const auto& s : keys) k.push_back(parse_keydef(s));
  KeyField g;
  apply_ordering_letters(global, g, BlankSide::Both);
  return resolve_ordering(std::move(k), g, tab, stable, false, '\n');
}

std::string view(const LineOrdering& o, std::string_view line) {
  std::string out;
  append_debug_view(o, line, out);
  return out;
}

TEST(DebugView, MarksEachKeyThenTheWholeLine) {
  EXPECT_EQ(view(ordering({"2,2"}, ""), "ab cd"), "ab cd\n  ___\n_____\n");  // the blank belongs to field 2
  EXPECT_EQ(view(ordering({"2b,2"}, ""), "ab cd"), "ab cd\n   __\n_____\n");
  EXPECT_EQ(view(ordering({"2,2b"}, ""), "ab cd"), "ab cd\n  ___\n_____\n");  // b at the end: trailing blanks
  EXPECT_EQ(view(ordering({"2,2"}, "", /*stable=*/true), "ab cd"), "ab cd\n  ___\n");
  EXPECT_EQ(view(ordering({}, ""), ""), "\n^ no match for key\n");
}

// Stable, so that no last-resort mark of the whole line follows.
TEST(DebugView, NumbersAndMonthsAreMarkedAsFarAsTheyGo) {
  auto global = [](const char* letters) { return ordering({}, letters, /*stable=*/true); };
  EXPECT_EQ(view(global("n"), "  -12.50x"), "  -12.50x\n  ______\n");
  EXPECT_EQ(view(global("n"), "5."), "5.\n__\n");
  EXPECT_EQ(view(global("n"), "-.x"), "-.x\n^ no match for key\n");
  EXPECT_EQ(view(global("h"), "3Kb"), "3Kb\n__\n");
  EXPECT_EQ(view(global("g"), "1e3,5"), "1e3,5\n___\n");
  EXPECT_EQ(view(global("g"), "x"), "x\n^ no match for key\n");
  EXPECT_EQ(view(global("M"), " february"), " february\n ___\n");
  EXPECT_EQ(view(global("T"), " 2026-10-10T13:55:36Z GET"), " 2026-10-10T13:55:36Z GET\n ____________________\n");
  EXPECT_EQ(view(global("T"), "[10/Oct/2026:13:55:36 +0000] x"), "[10/Oct/2026:13:55:36 +0000] x\n __________________________\n");
  EXPECT_EQ(view(global("T"), "13:55"), "13:55\n^ no match for key\n");
}

// A time key marks the timestamp it read: found anywhere (-k T), or with the
// UTC offset it took from past its end (-k4,4T on Common Log Format).
TEST(DebugView, TimeKeysMarkTheTimestamp) {
  EXPECT_EQ(view(ordering({"T"}, "", true), "a [Wed Nov 25 11:15:01 2026] b"),
            "a [Wed Nov 25 11:15:01 2026] b\n   ________________________\n");
  EXPECT_EQ(view(ordering({"T"}, "", true), "none"), "none\n^ no match for key\n");
  EXPECT_EQ(view(ordering({"2,2T"}, "", true), "h [1/Nov/2026:11:15:01 +0100] b"),
            "h [1/Nov/2026:11:15:01 +0100] b\n   _________________________\n");
}

TEST(DebugView, TabsShowAsOneColumnControlsAsNone) {
  EXPECT_EQ(view(ordering({"2"}, ""), "\t\x01x y"), ">\x01x y\n  __\n____\n");
}

TEST(DebugView, WarningsAboutKeys) {
  using V = std::vector<std::string>;
  const std::string head = "text ordering performed using simple byte comparison";
  EXPECT_EQ(debug_warnings(ordering({}, ""), KeyField{}, true), V{head});
  EXPECT_EQ(debug_warnings(ordering({"2,1"}, ""), KeyField{}, false), (V{head, "key 1 has zero width and will be ignored"}));
  EXPECT_EQ(debug_warnings(ordering({"2"}, ""), KeyField{}, false),
            (V{head, "leading blanks are significant in key 1; consider also specifying 'b'"}));
  KeyField reverse;
  reverse.reverse = true;
  EXPECT_EQ(debug_warnings(ordering({"1,1n"}, "r"), reverse, false),
            (V{head, "note numbers use '.' as a decimal point in this locale",
               "option '-r' only applies to last-resort comparison"}));
  EXPECT_EQ(debug_warnings(ordering({"1n"}, "", false, '.'), KeyField{}, false),
            (V{head, "key 1 is numeric and spans multiple fields",
               "field separator '.' is treated as a decimal point in numbers"}));
}

}  // namespace
}  // namespace corank::text
