#include "corank/text/key_spec.hpp"

#include <gtest/gtest.h>

#include "corank/format.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::text {
namespace {

TEST(KeySpec, ParsesFieldsCharactersAndLetters) {
  KeyField k = parse_keydef("2.3b,4.5nr");
  EXPECT_EQ(k.sword, 1u);
  EXPECT_EQ(k.schar, 2u);
  EXPECT_EQ(k.eword, 3u);
  EXPECT_EQ(k.echar, 5u);
  EXPECT_TRUE(k.skip_start_blanks);
  EXPECT_FALSE(k.skip_end_blanks);  // b after POS1 only
  EXPECT_TRUE(k.numeric);
  EXPECT_TRUE(k.reverse);
}

TEST(KeySpec, FirstFieldFromItsStartMeansTheWholeLineStart) {
  KeyField k = parse_keydef("1");
  EXPECT_EQ(k.sword, kNoPosition);
  EXPECT_EQ(k.eword, kNoPosition);
  EXPECT_EQ(parse_keydef("1.1").sword, kNoPosition);
  EXPECT_EQ(parse_keydef("1,1").eword, 0u);
  EXPECT_EQ(parse_keydef("1,1").echar, 0u);
}

TEST(KeySpec, RejectsWhatGnuRejects) {
  for (const char* bad : {"0", "1.0", "1,0", "x", "1,1z", "", "1.", "1,", "2,3.x"})
    EXPECT_THROW(parse_keydef(bad), UsageError) << bad;
  EXPECT_NO_THROW(parse_keydef("1,1.0"));  // an end character of 0 means the field's end
}

TEST(KeySpec, KeysWithoutLettersInheritGlobalOptions) {
  KeyField global;
  apply_ordering_letters("nr", global, BlankSide::Both);
  LineOrdering o = resolve_ordering({parse_keydef("2,2"), parse_keydef("3,3f")}, global, kNoTab, false, false, '\n');
  ASSERT_EQ(o.keys.size(), 2u);
  EXPECT_TRUE(o.keys[0].numeric && o.keys[0].reverse);
  EXPECT_EQ(o.keys[0].sword, 1u);
  EXPECT_FALSE(o.keys[1].numeric || o.keys[1].reverse);  // has its own letter: inherits nothing
  EXPECT_TRUE(o.reverse);
}

TEST(KeySpec, GlobalOptionsWithoutKeysMakeAWholeLineKey) {
  KeyField global;
  apply_ordering_letters("f", global, BlankSide::Both);
  LineOrdering o = resolve_ordering({}, global, kNoTab, false, false, '\n');
  ASSERT_EQ(o.keys.size(), 1u);
  EXPECT_TRUE(o.keys[0].fold);
  KeyField reverse_only;
  apply_ordering_letters("r", reverse_only, BlankSide::Both);
  EXPECT_TRUE(resolve_ordering({}, reverse_only, kNoTab, false, false, '\n').keys.empty());
}

TEST(KeySpec, IncompatibleOrderingsAreRefusedWithGnusMessage) {
  KeyField global;
  apply_ordering_letters("nM", global, BlankSide::Both);
  try {
    resolve_ordering({}, global, kNoTab, false, false, '\n');
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "options '-Mn' are incompatible");
  }
  KeyField di;
  apply_ordering_letters("di", di, BlankSide::Both);
  EXPECT_EQ(di.ignore, &kNonDictionary);  // -d wins over -i in either order
}

TEST(KeySpec, TimeLetterT) {
  const KeyField k = parse_keydef("4,5T");
  EXPECT_TRUE(k.time);
  EXPECT_FALSE(k.is_default());
  EXPECT_EQ(k.letters(), "T");
  EXPECT_EQ(parse_keydef("1bT,3rT").letters(), "brT");
  for (const char* bad : {"nT", "TM", "gT", "hT", "TV", "dT", "Ti"}) {
    KeyField global;
    apply_ordering_letters(bad, global, BlankSide::Both);
    EXPECT_THROW(resolve_ordering({}, global, kNoTab, false, false, '\n'), UsageError) << bad;
  }
  try {
    resolve_ordering({parse_keydef("1,1nT")}, KeyField{}, kNoTab, false, false, '\n');
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "options '-nT' are incompatible");
  }
  // The time rules are a global setting that every key takes, with letters of its own or not.
  KeyField global;
  global.time_rules = std::make_shared<const TimeRules>();
  const LineOrdering o = resolve_ordering({parse_keydef("1,3T"), parse_keydef("4")}, global, kNoTab, false, false, '\n');
  EXPECT_EQ(o.keys[0].time_rules, global.time_rules);
  EXPECT_EQ(o.keys[1].time_rules, global.time_rules);
}

// A KEYDEF of ordering letters alone, T among them, is the time found anywhere in the line.
TEST(KeySpec, PositionlessTimeKey) {
  const KeyField k = parse_keydef("T");
  EXPECT_TRUE(k.time && k.time_search);
  EXPECT_EQ(k.sword, kNoPosition);
  EXPECT_EQ(k.eword, kNoPosition);
  const KeyField r = parse_keydef("Tr");
  EXPECT_TRUE(r.time_search && r.reverse);
  EXPECT_FALSE(parse_keydef("1T").time_search);
  // The global T (--sort=time): with no key, the whole line searched; a key
  // with positions that inherits it reads at its start.
  KeyField global;
  global.time = true;
  const LineOrdering alone = resolve_ordering({}, global, kNoTab, false, false, '\n');
  ASSERT_EQ(alone.keys.size(), 1u);
  EXPECT_TRUE(alone.keys[0].time && alone.keys[0].time_search);
  const LineOrdering inherited = resolve_ordering({parse_keydef("2")}, global, kNoTab, false, false, '\n');
  EXPECT_TRUE(inherited.keys[0].time && !inherited.keys[0].time_search);
  for (const char* bad : {"r", "b", "nT", "T,2", "Tx"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(resolve_ordering({parse_keydef(bad)}, KeyField{}, kNoTab, false, false, '\n'), UsageError);
  }
}

TEST(KeySpec, Tabs) {
  EXPECT_EQ(parse_tab(","), ',');
  EXPECT_EQ(parse_tab("\\0"), 0);
  EXPECT_THROW(parse_tab(""), UsageError);
  EXPECT_THROW(parse_tab("ab"), UsageError);
}

TEST(KeySpec, ObsoletePositionsBecomeTheKeydefsGnuMakesOfThem) {
  // GNU's table: +A.x -B.y is -k A+1.x+1,B.y (y = 0) or -k A+1.x+1,B+1.y.
  EXPECT_EQ(obsolete_keydef("1", ""), "2");
  EXPECT_EQ(obsolete_keydef("1", "2"), "2,2");
  EXPECT_EQ(obsolete_keydef("0.2", "1.3"), "1.3,2.3");
  EXPECT_EQ(obsolete_keydef("1n", "2r"), "2n,2r");
  EXPECT_EQ(obsolete_keydef("0", "0"), "1,1");
  EXPECT_EQ(obsolete_keydef("2b", ""), "3b");
  // Not a POS1: the operand is a file name.
  for (const char* file : {"", "x", "1x", "1.", ".1", "1.2.3"}) EXPECT_FALSE(obsolete_keydef(file, "").has_value()) << file;
  // A bad POS2 is an error, as in GNU.
  EXPECT_THROW(obsolete_keydef("1", "2x"), UsageError);
  EXPECT_THROW(obsolete_keydef("1", "2.x"), UsageError);
  // Each result is a KEYDEF parse_keydef takes.
  for (const char* ok : {"1", "0.2", "1n"}) EXPECT_NO_THROW(parse_keydef(*obsolete_keydef(ok, "3.1"))) << ok;
}

TEST(KeySpec, RandomOrderIsAKindOfItsOwn) {
  KeyField k = parse_keydef("2,2R");
  EXPECT_TRUE(k.random);
  EXPECT_FALSE(k.is_default());
  EXPECT_EQ(k.letters(), "R");
  // GNU counts R, V and d/i as one kind: -RV and -Rd are accepted, -Rn is not.
  for (const char* bad : {"1Rn", "1Rg", "1Rh", "1RM"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(resolve_ordering({parse_keydef(bad)}, KeyField{}, kNoTab, false, false, '\n'), UsageError);
  }
  for (const char* ok : {"1Rf", "1RV", "1Rd", "1Ri"}) {
    SCOPED_TRACE(ok);
    EXPECT_NO_THROW(resolve_ordering({parse_keydef(ok)}, KeyField{}, kNoTab, false, false, '\n'));
  }
  std::vector<KeyField> keys{parse_keydef("1R"), parse_keydef("2")};
  seed_random_keys(keys, 42);
  EXPECT_EQ(keys[0].random_salt, 42u);
  EXPECT_EQ(keys[1].random_salt, 0u);
}

}  // namespace
}  // namespace corank::text
