#include "corank/text/typed_key.hpp"

#include <cstring>
#include <optional>

#include "corank/format.hpp"
#include "corank/text/exact_number.hpp"
#include "corank/text/float_value.hpp"
#include "corank/text/libc_collation.hpp"
#include "corank/text/locale_compare.hpp"
#include "corank/text/time_rules.hpp"
#include "corank/text/time_value.hpp"

namespace corank::text {

namespace {

[[noreturn]] void bad_key(std::string_view spec, const std::string& why) {
  throw UsageError("invalid key '" + std::string(spec) + "': " + why);
}

std::string_view trim_blanks(std::string_view v, const KeyField& key) {
  if (key.skip_start_blanks)
    while (!v.empty() && is_blank(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  return v;
}

int sign(int v) noexcept { return (v > 0) - (v < 0); }

// Unparsable values (nullopt) before parsable ones, which compare by value.
template <class T>
int compare_parsed(const std::optional<T>& a, const std::optional<T>& b) noexcept {
  if (!a || !b) return a.has_value() - b.has_value();
  return (*a > *b) - (*a < *b);
}

Prefix prefix_of(const unsigned char* p, bool reverse) noexcept {
  Prefix r;
  for (int w = 0; w < 4; ++w) {
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = v << 8 | p[8 * w + k];
    r.w[w] = v;
  }
  if (reverse) r.invert();
  return r;
}

}  // namespace

namespace {

// Where KEY ends in KEY[:TYPE]...: at the first ':' that is neither escaped
// (\:) nor inside a name in brackets and quotes (a JSON path's ["a:b"]).
std::size_t key_name_end(std::string_view spec) noexcept {
  for (std::size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] == '\\') {
      ++i;
    } else if (spec.substr(i, 2) == "[\"") {
      for (i += 2; i < spec.size() && spec[i] != '"'; ++i)
        if (spec[i] == '\\') ++i;
    } else if (spec[i] == ':') {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

ColumnKeySpec parse_column_key(std::string_view spec, const KeyField& global,
                               std::shared_ptr<const Collation> default_collation) {
  ColumnKeySpec out;
  TypedKey& tk = out.key;
  const std::size_t colon = key_name_end(spec);
  out.column = std::string(spec.substr(0, colon));
  if (out.column.empty()) bad_key(spec, "no column");
  bool letters = false, word = false, desc = false;
  std::optional<std::string> collate;
  std::string_view rest = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  for (bool more = colon != std::string_view::npos; more;) {
    const std::size_t next = rest.find(':');
    const std::string_view part = rest.substr(0, next);
    more = next != std::string_view::npos;
    if (more) rest.remove_prefix(next + 1);
    if (part == "desc") {
      desc = true;
    } else if (part == "asc") {
    } else if (part == "nulls_first" || part == "nulls_last") {
      if (tk.nulls) bad_key(spec, "two NULL places");
      tk.nulls = part == "nulls_first" ? NullOrder::First : NullOrder::Last;
    } else if (part.starts_with("collate=")) {
      if (collate) bad_key(spec, "two collations");
      collate = std::string(part.substr(8));
      if (collate->empty()) bad_key(spec, "collate= names no collation");
    } else if (part == "time" || part == "date" || part == "decimal" || part == "float" || part == "text") {
      if (word) bad_key(spec, "two types");
      word = true;
      if (part == "text") {
        // Plain text: no global letters.
      } else if (part == "time") tk.key.time = true;
      else tk.type = part == "date" ? ValueType::Date : part == "float" ? ValueType::Float : ValueType::Decimal;
    } else {
      if (part.empty() || apply_ordering_letters(part, tk.key, BlankSide::Both) != part.size())
        bad_key(spec, "unknown type '" + std::string(part) +
                          "' (ordering letters b d f g h i M n R T V, or time, date, decimal, float, text; asc, desc; "
                          "nulls_first, nulls_last; collate=NAME)");
      letters = true;
    }
  }
  if (word && letters) {
    KeyField other = tk.key;  // the letters besides b, r (and T, where the word is time)
    other.skip_start_blanks = other.skip_end_blanks = other.reverse = false;
    other.time = other.time && tk.type != ValueType::Letters;
    if (!other.is_default()) bad_key(spec, "time, date, decimal, float and text take no ordering letters but b and r");
  }
  if (!letters && !word) {
    const bool r = tk.key.reverse;
    tk.key = global;
    tk.key.reverse = r;
  }
  tk.typed = letters || word || !global.is_default();
  tk.key.reverse = tk.key.reverse != desc;
  tk.key.reverse = tk.key.reverse != global.reverse;
  tk.key.sword = tk.key.eword = kNoPosition;
  tk.key.time_rules = global.time_rules;
  tk.key.time_search = false;  // a value is a timestamp, and nothing else
  tk.key.time_whole = tk.key.time;
  tk.key.random_salt = global.random_salt;  // the seed of R, set with the global letters
  if (tk.type == ValueType::Letters && tk.key.numeric) tk.type = ValueType::Number;
  check_compatible(tk.key);
  // "C" (and C.UTF-8, POSIX) names byte order, in place of a global --collation.
  tk.collation = collate ? collation_named(*collate) : std::move(default_collation);
  if (tk.type != ValueType::Letters || !takes_collation(tk.key)) {
    if (collate && tk.collation) bad_key(spec, "collate= applies to text keys");
    tk.collation = nullptr;  // numbers, times and the like ignore --collation
  }
  return out;
}

Prefix null_prefix(NullOrder nulls) noexcept {
  Prefix p;
  if (nulls == NullOrder::Last) p.invert();
  return p;
}

int compare_values(const TypedKey& k, const FieldValue& a, const FieldValue& b, NullOrder nulls) {
  if (a.null || b.null) {
    // A fixed place, whatever the key's direction.
    const int d = a.null - b.null;
    return null_order(k, nulls) == NullOrder::Last ? d : -d;
  }
  const std::string_view x = trim_blanks(a.text, k.key), y = trim_blanks(b.text, k.key);
  const char pt = k.decimal_point;
  int d;
  switch (k.type) {
    case ValueType::Letters:  // reversed there
      return k.collation ? compare_collated_key(k.key, x, y, *k.collation) : compare_key_text(k.key, x, y);
    case ValueType::Number: d = compare_exact(parse_exact_number(x, pt), parse_exact_number(y, pt)); break;
    case ValueType::Decimal: {
      const ExactNumber p = parse_exact_number(x, pt), q = parse_exact_number(y, pt);
      d = p.whole && q.whole ? compare_exact(p, q) : p.whole - q.whole;
      break;
    }
    case ValueType::Date: d = compare_parsed(parse_date(x), parse_date(y)); break;
    case ValueType::Float: d = compare_float8(parse_float8(x, pt), parse_float8(y, pt)); break;
  }
  d = sign(d);
  return k.key.reverse ? -d : d;
}

const char* unread_kind(const TypedKey& k) noexcept {
  switch (k.type) {
    case ValueType::Letters: return k.key.time ? "time" : "";
    case ValueType::Number: return "";
    case ValueType::Decimal: return "decimal";
    case ValueType::Float: return "float";
    case ValueType::Date: return "date";
  }
  return "";
}

bool value_unread(const TypedKey& k, const FieldValue& v) {
  if (v.null) return false;
  const std::string_view text = trim_blanks(v.text, k.key);
  switch (k.type) {
    case ValueType::Letters: return k.key.time && !key_instant(time_rules_of(k.key), TimeExtent::whole, text, {});
    case ValueType::Number: return false;
    case ValueType::Decimal: return !parse_exact_number(text, k.decimal_point).whole;
    case ValueType::Float: return !parse_float8(text, k.decimal_point);
    case ValueType::Date: return !parse_date(text);
  }
  return false;
}

KeyValueCounts value_check(const TypedKey& k, unsigned number, std::string name, NullOrder nulls) {
  return {.key = number,
          .name = std::move(name),
          .kind = unread_kind(k),
          .unread_first = !k.key.reverse,
          .nulls_first = null_order(k, nulls) == NullOrder::First};
}

Prefix value_prefix(const TypedKey& k, const FieldValue& v, NullOrder nulls) {
  if (v.null) return null_prefix(null_order(k, nulls));
  const std::string_view text = trim_blanks(v.text, k.key);
  unsigned char p[Prefix::kBytes] = {};
  switch (k.type) {
    case ValueType::Letters:  // reversed there
      return k.collation ? collated_key_prefix(k.key, text, *k.collation) : key_prefix(k.key, text);
    case ValueType::Number: encode_exact(parse_exact_number(text, k.decimal_point), 0, p, sizeof p); break;
    case ValueType::Decimal: {
      // 0 for the unparsable, then the numbers from 1 on.
      const ExactNumber n = parse_exact_number(text, k.decimal_point);
      if (n.whole) encode_exact(n, 1, p, sizeof p);
      break;
    }
    case ValueType::Date:
      if (const auto days = parse_date(text)) {
        p[0] = 1;
        const std::uint64_t e = static_cast<std::uint64_t>(*days) ^ (std::uint64_t{1} << 63);
        for (int i = 0; i < 8; ++i) p[1 + i] = static_cast<unsigned char>(e >> (56 - 8 * i));
      }
      break;
    case ValueType::Float: encode_float8(parse_float8(text, k.decimal_point), p); break;
  }
  return prefix_of(p, k.key.reverse);
}

}  // namespace corank::text
