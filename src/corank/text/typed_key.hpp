#pragma once
// The keys of formats whose records hold named or numbered values, CSV/TSV
// columns and JSON lines fields: KEY[:TYPE][:asc|:desc][:collate=NAME],
// compared SQL-like.
//
// TYPE is GNU's ordering letters (b d f g h i M n R V, and T for time), or one
// of the words
//   n        exact decimal numbers with an exponent (1e3 = 1000); text that
//            starts with no number reads as 0, as under GNU's -n; NaN and
//            +-Infinity as PostgreSQL's numeric orders them (exact_number.hpp)
//   decimal  the same, but a value that is not wholly one number is
//            unparsable: unparsable values first, then numbers
//   float    doubles as PostgreSQL's float8 (float_value.hpp); unparsable first
//   time     timestamps as UTC instants (time_rules.hpp); unparsable first
//   date     YYYY-MM-DD; unparsable first
//   text     the bytes (or the collation's order), whatever the global letters
// and optionally collate=NAME: an ICU collation for a text key
// (icu_collation.hpp), or C for bytes where --collation names one.
// A value may be NULL (a format decides which: an empty CSV field, a JSON
// null or missing field). NULLs go where the key's :nulls_first or
// :nulls_last says (SQL's NULLS FIRST and NULLS LAST), else where the format's
// null order says: last by default, as DuckDB's ORDER BY puts them, ascending
// or descending alike. Either is a fixed place that :desc and -r do not move
// (PostgreSQL instead puts them first under DESC by default: DESC NULLS FIRST).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "corank/sort_options.hpp"
#include "corank/text/collation.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/line_comparator.hpp"

namespace corank::text {

enum class NullOrder { Last, First };

enum class ValueType : std::uint8_t {
  Letters,  // GNU ordering letters, T included (compare_key_text)
  Number,   // n: exact, with exponents, no number reads as 0
  Decimal,  // decimal: exact, unparsable first
  Float,    // float: PostgreSQL's float8, unparsable first
  Date,     // date: YYYY-MM-DD, unparsable first
};

struct TypedKey {
  KeyField key;  // letters for ValueType::Letters; key.reverse is the direction
  ValueType type = ValueType::Letters;
  // A TYPE, or global ordering letters, chose the order. Formats with values
  // of their own kinds (JSON) order untyped keys by those kinds.
  bool typed = false;
  std::optional<NullOrder> nulls;  // :nulls_first or :nulls_last; else the format's
  // The collation of a text key; null: bytes.
  std::shared_ptr<const Collation> collation;
  // The decimal point of n, decimal and float values: '.', or ',' under
  // --decimal-separator=, (CSV/TSV exports written under a locale such as de_DE).
  char decimal_point = '.';
};

// Where the NULLs of `key` go: its own place, else `fallback` (the format's).
inline NullOrder null_order(const TypedKey& key, NullOrder fallback) noexcept { return key.nulls.value_or(fallback); }

struct ColumnKeySpec {
  std::string column;  // the KEY part, as given
  TypedKey key;
};

// Parses KEY[:TYPE][:asc|:desc][:nulls_first|:nulls_last][:collate=NAME], the
// parts after KEY in any order. A key without TYPE takes the global letters
// (`global`; its r reverses every key, and its time_rules are T's), a text key
// without collate= the `default_collation` (--collation's). Throws UsageError
// naming the spec.
ColumnKeySpec parse_column_key(std::string_view spec, const KeyField& global,
                               std::shared_ptr<const Collation> default_collation = nullptr);

// A value as a format found it: its bytes (unescaped), or NULL.
struct FieldValue {
  std::string_view text;
  bool null = false;
};

// -1, 0, 1. `nulls` is the format's null order, for keys without their own.
int compare_values(const TypedKey& key, const FieldValue& a, const FieldValue& b, NullOrder nulls);
// compare_values(k, a, b, n) < 0 implies value_prefix(k, a, n) <= value_prefix(k, b, n).
Prefix value_prefix(const TypedKey& key, const FieldValue& v, NullOrder nulls);

// What a value of `key` that does not read lacks ("time", "decimal", "float",
// "date"), or "" where every text reads (text, n, JSON's own kinds).
const char* unread_kind(const TypedKey& key) noexcept;
// Whether `v` (not NULL) does not read as `key`'s type: it sorts with the
// unparsable, before every value (after, descending).
bool value_unread(const TypedKey& key, const FieldValue& v);
// KeyValueCounts for a key of a record format: its kind, and where its
// unread values and NULLs go under the format's null order.
KeyValueCounts value_check(const TypedKey& key, unsigned number, std::string name, NullOrder nulls);

// The prefix NULLs get: above or below every other prefix.
Prefix null_prefix(NullOrder nulls) noexcept;

}  // namespace corank::text
