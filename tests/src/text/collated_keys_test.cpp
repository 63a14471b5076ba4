// CSV/TSV and JSON lines keys under ICU collations: the collate= part, the
// text TYPE, --collation as the default of text keys only, and the formats'
// orders (CLDR's: Swedish puts å ä ö after z, German phone books read ä as ae).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/text/csv_format.hpp"
#include "corank/text/icu_collation.hpp"
#include "corank/text/jsonl_format.hpp"
#include "corank/text/typed_key.hpp"

namespace corank::text {
namespace {

std::vector<std::string> sorted(const TextFormat& f, std::vector<std::string> records) {
  std::stable_sort(records.begin(), records.end(), [&](const std::string& a, const std::string& b) {
    if (!(f.prefix(a) == f.prefix(b))) return f.prefix(a) < f.prefix(b);
    return f.compare(a, b) < 0;
  });
  return records;
}

TEST(CollatedKeys, CollateNamesAKeysCollation) {
  const KeyField global;
  const ColumnKeySpec k = parse_column_key("name:text:collate=sv", global);
  EXPECT_EQ(k.column, "name");
  ASSERT_TRUE(k.key.collation);
  EXPECT_EQ(k.key.collation->name(), "sv");
  EXPECT_EQ(parse_column_key("name:collate=sv:desc", global).key.collation, icu_collation("sv"));
  EXPECT_THROW(parse_column_key("price:n:collate=de", global), UsageError);
  EXPECT_THROW(parse_column_key("name:collate=", global), UsageError);
  EXPECT_THROW(parse_column_key("name:collate=xx", global), UsageError);
  EXPECT_THROW(parse_column_key("name:collate=sv:collate=de", global), UsageError);
  // --collation's default: for text keys, not numbers; C opts out.
  const auto und = icu_collation("und");
  EXPECT_EQ(parse_column_key("name", global, und).key.collation, und);
  EXPECT_EQ(parse_column_key("price:n", global, und).key.collation, nullptr);
  EXPECT_EQ(parse_column_key("name:collate=C", global, und).key.collation, nullptr);
  // text: plain text whatever the global letters.
  KeyField numeric;
  numeric.numeric = true;
  const ColumnKeySpec t = parse_column_key("name:text", numeric, und);
  EXPECT_EQ(t.key.type, ValueType::Letters);
  EXPECT_FALSE(t.key.key.numeric);
  EXPECT_EQ(t.key.collation, und);
}

TEST(CollatedKeys, CsvRowsByEachKeysCollation) {
  CsvOptions o;
  o.header = true;
  o.keys = {"city:collate=de-u-co-phonebk", "name:collate=sv", "id:n"};
  o.collation = icu_collation("und");
  CsvFormat f(o);
  f.set_header("id,name,city", "t.csv");
  EXPECT_EQ(sorted(f, {"1,\xc3\xb6sten,Af", "2,zorn,Af", "3,\xc3\xa5sa,\xc3\x84rger", "4,Zorn,Af", "5,,Af"}),
            (std::vector<std::string>{"3,\xc3\xa5sa,\xc3\x84rger", "2,zorn,Af", "4,Zorn,Af", "1,\xc3\xb6sten,Af", "5,,Af"}));
  // Without keys, the columns by --collation.
  CsvOptions plain;
  plain.collation = icu_collation("sv");
  CsvFormat rows(plain);
  EXPECT_EQ(sorted(rows, {"\xc3\xa4,1", "z,2", "a,3", "A,4"}),
            (std::vector<std::string>{"a,3", "A,4", "z,2", "\xc3\xa4,1"}));
}

TEST(CollatedKeys, JsonStringsByTheCollationAmongTheKinds) {
  JsonlOptions o;
  o.keys = {"name"};
  o.collation = icu_collation("sv");
  JsonlFormat f(o);
  EXPECT_EQ(sorted(f, {R"({"name":"\u00e5"})", R"({"name":2})", R"({"name":"z"})", R"({"name":"A"})",
                       R"({"name":"a"})"}),
            (std::vector<std::string>{R"({"name":"a"})", R"({"name":"A"})", R"({"name":"z"})",
                                      R"({"name":"\u00e5"})", R"({"name":2})"}));
}

}  // namespace
}  // namespace corank::text
