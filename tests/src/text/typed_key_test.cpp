#include "corank/text/typed_key.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::text {
namespace {

TypedKey key(std::string_view spec, const char* global = "") {
  KeyField g;
  apply_ordering_letters(global, g, BlankSide::Both);
  return parse_column_key(spec, g).key;
}

FieldValue v(std::string_view s) { return {s, false}; }
const FieldValue kNull{{}, true};

TEST(TypedKey, ParsesTypesAndDirections) {
  const ColumnKeySpec s = parse_column_key("user.id:decimal:desc", KeyField{});
  EXPECT_EQ(s.column, "user.id");
  EXPECT_EQ(s.key.type, ValueType::Decimal);
  EXPECT_TRUE(s.key.key.reverse);
  EXPECT_TRUE(s.key.typed);
  EXPECT_EQ(key("a:n").type, ValueType::Number);
  EXPECT_EQ(key("a", "n").type, ValueType::Number);  // global -n, exponents too
  EXPECT_EQ(key("a:date").type, ValueType::Date);
  EXPECT_TRUE(key("a:time").key.time);
  EXPECT_TRUE(key("a:bT").key.time);
  EXPECT_TRUE(key("a:time:r").key.reverse);
  EXPECT_FALSE(key("a:time:desc", "r").key.reverse);  // -r reverses :desc back
  EXPECT_FALSE(key("a").typed);
  EXPECT_TRUE(key("a", "f").typed);
  KeyField g;
  g.time_rules = std::make_shared<const TimeRules>();
  EXPECT_EQ(parse_column_key("a:time", g).key.key.time_rules, g.time_rules);
  for (const char* bad : {":n", "a:q", "a:time:date", "a:date:n", "a:nM", "a:decimal:f", "a:"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_column_key(bad, KeyField{}), UsageError);
  }
}

TEST(TypedKey, NullsGoLastOrFirstWhateverTheDirection) {
  for (const char* spec : {"a:n", "a:n:desc", "a", "a:desc", "a:time:desc"}) {
    SCOPED_TRACE(spec);
    const TypedKey k = key(spec);
    EXPECT_EQ(compare_values(k, kNull, v("-1"), NullOrder::Last), 1);
    EXPECT_EQ(compare_values(k, v("3"), kNull, NullOrder::Last), -1);
    EXPECT_EQ(compare_values(k, kNull, v("-1"), NullOrder::First), -1);
    EXPECT_EQ(compare_values(k, kNull, kNull, NullOrder::First), 0);
    EXPECT_TRUE(value_prefix(k, v("3"), NullOrder::Last) < value_prefix(k, kNull, NullOrder::Last));
    EXPECT_TRUE(value_prefix(k, kNull, NullOrder::First) < value_prefix(k, v("3"), NullOrder::First));
  }
  // A key's own place (SQL's NULLS FIRST / NULLS LAST) overrides the format's.
  for (const char* spec : {"a:nulls_first", "a:n:desc:nulls_first", "a:nulls_first:time"}) {
    SCOPED_TRACE(spec);
    const TypedKey k = key(spec);
    ASSERT_EQ(k.nulls, NullOrder::First);
    EXPECT_EQ(compare_values(k, kNull, v("-1"), NullOrder::Last), -1);
    EXPECT_TRUE(value_prefix(k, kNull, NullOrder::Last) < value_prefix(k, v("-1"), NullOrder::Last));
  }
  const TypedKey last = key("a:desc:nulls_last", "r");
  EXPECT_EQ(last.nulls, NullOrder::Last);
  EXPECT_EQ(compare_values(last, kNull, v("-1"), NullOrder::First), 1);
  EXPECT_TRUE(value_prefix(last, v("-1"), NullOrder::First) < value_prefix(last, kNull, NullOrder::First));
  EXPECT_FALSE(key("a:nulls_last").typed);  // a place is no TYPE: JSON still orders by kinds
  EXPECT_EQ(key("a:n").nulls, std::nullopt);
  EXPECT_THROW(key("a:nulls_first:nulls_last"), UsageError);
  EXPECT_THROW(key("a:nulls"), UsageError);
  // An empty value that is not NULL is an ordinary value: 0 under :n.
  EXPECT_EQ(compare_values(key("a:n"), v(""), v("0"), NullOrder::Last), 0);
}

TEST(TypedKey, NumbersDecimalsDatesAndTimes) {
  EXPECT_EQ(compare_values(key("a:n"), v("1e3"), v("999"), NullOrder::Last), 1);
  EXPECT_EQ(compare_values(key("a:n:desc"), v("1e3"), v("999"), NullOrder::Last), -1);
  EXPECT_EQ(compare_values(key("a:decimal"), v("x"), v("-1e300"), NullOrder::Last), -1);  // unparsable first
  EXPECT_EQ(compare_values(key("a:decimal"), v("12abc"), v("x"), NullOrder::Last), 0);
  EXPECT_EQ(compare_values(key("a:decimal"), v("0.10"), v(".1"), NullOrder::Last), 0);
  EXPECT_EQ(compare_values(key("a:date"), v("2026-02-30"), v("0001-01-01"), NullOrder::Last), -1);
  EXPECT_EQ(compare_values(key("a:date"), v("2026-01-31"), v("2025-12-31"), NullOrder::Last), 1);
  EXPECT_EQ(compare_values(key("a:time"), v("2026-10-10T15:00:00+02:00"), v("2026-10-10T13:30:00Z"), NullOrder::Last),
            -1);
  EXPECT_EQ(compare_values(key("a:bn"), v("  5"), v("5"), NullOrder::Last), 0);
}

// PostgreSQL's order for numeric (:n, :decimal) and float8 (:float):
// -Infinity < numbers < Infinity < NaN.
TEST(TypedKey, NanAndInfinityAsPostgreSqlOrdersThem) {
  const std::vector<std::string> ascending = {"-Infinity", "-2", "1.5", "Infinity", "NaN"};
  for (const char* spec : {"a:n", "a:decimal", "a:float"}) {
    SCOPED_TRACE(spec);
    const TypedKey k = key(spec);
    for (std::size_t i = 0; i + 1 < ascending.size(); ++i) {
      EXPECT_EQ(compare_values(k, v(ascending[i]), v(ascending[i + 1]), NullOrder::Last), -1) << ascending[i];
      EXPECT_TRUE(value_prefix(k, v(ascending[i]), NullOrder::Last) < value_prefix(k, v(ascending[i + 1]), NullOrder::Last));
    }
    EXPECT_EQ(compare_values(k, v("nan"), v("NaN"), NullOrder::Last), 0);
    EXPECT_EQ(compare_values(k, v("-inf"), v("-Infinity"), NullOrder::Last), 0);
    EXPECT_EQ(compare_values(k, kNull, v("NaN"), NullOrder::Last), 1);  // NULL after NaN still
  }
  EXPECT_EQ(compare_values(key("a:float:desc"), v("NaN"), v("Infinity"), NullOrder::Last), -1);
  EXPECT_EQ(compare_values(key("a:float"), v("0.1"), v("0.1000000000000000000001"), NullOrder::Last), 0);
  EXPECT_EQ(compare_values(key("a:decimal"), v("0.1"), v("0.1000000000000000000001"), NullOrder::Last), -1);
  EXPECT_EQ(compare_values(key("a:float"), v("1e400"), v("-Infinity"), NullOrder::Last), -1);  // out of range: unparsable
  EXPECT_EQ(key("a:float").type, ValueType::Float);
  EXPECT_THROW(key("a:float:n"), UsageError);
}

// compare < 0 implies prefix <=, for every type, both directions and both NULL places.
TEST(TypedKey, PrefixIsConsistentWithTheComparison) {
  std::mt19937 rng(9);
  const char* pieces[] = {"1", "-", "0", "9", ".", "5", "e", "3", "2026-10-10", "T13:55:36", "Z", "+01:00",
                          "x", " ", "2026-02-30", "1791640536", "NULL", "abc", "NaN", "-Infinity", "inf", "0x1p"};
  std::vector<FieldValue> values{kNull};
  std::vector<std::string> texts;
  texts.reserve(300);
  for (int i = 0; i < 300; ++i) {
    std::string s;
    for (int j = 0, n = static_cast<int>(rng() % 4); j < n; ++j) s += pieces[rng() % std::size(pieces)];
    texts.push_back(s);
  }
  for (const auto& t : texts) values.push_back(v(t));
  for (const char* spec : {"a", "a:desc", "a:n", "a:n:desc", "a:decimal", "a:decimal:desc", "a:date", "a:date:desc",
                           "a:time", "a:time:desc", "a:g", "a:f", "a:float", "a:float:desc", "a:n:nulls_first",
                           "a:desc:nulls_last"}) {
    const TypedKey k = key(spec);
    for (NullOrder nulls : {NullOrder::Last, NullOrder::First})
      for (const auto& a : values)
        for (const auto& b : values)
          if (compare_values(k, a, b, nulls) < 0)
            ASSERT_FALSE(value_prefix(k, b, nulls) < value_prefix(k, a, nulls))
                << spec << " '" << a.text << "' < '" << b.text << "'";
  }
}

}  // namespace
}  // namespace corank::text
