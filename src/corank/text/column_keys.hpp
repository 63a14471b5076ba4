#pragma once
// The keys of formats whose records are rows of fields (CSV/TSV and
// PostgreSQL's text format): COLUMN[:TYPE]..., COLUMN a number from 1 or,
// with a header, a column's name. The first input's header names the columns;
// every later input's header must name the same ones in the same order, since
// rows are written as they are read (files whose columns differ in order
// cannot make one file that loads into one table).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/key_spec.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/typed_key.hpp"

namespace corank::text {

struct ColumnKey {
  std::string name;          // as given, for messages
  std::uint64_t column = 0;  // 0-based; resolved from the name with the header
  bool named = false;
  TypedKey key;
};

class ColumnKeys {
public:
  // Parses the key specs (typed_key.hpp); names wait for name_columns.
  // Throws UsageError for a bad spec, column 0, or a name without a header.
  // A text key without collate= takes `default_collation` (--collation's);
  // n, decimal and float keys read `decimal_point` as their decimal point
  // (',': a UsageError for a g or h key, whose numbers GNU's rules read).
  ColumnKeys(const std::vector<std::string>& specs, const KeyField& global, bool header,
             std::shared_ptr<const Collation> default_collation = nullptr, char decimal_point = '.');

  // The first input's header, its fields unquoted or unescaped, read from
  // `file`. Throws UsageError for a key that names a column the header lacks
  // or names twice, or whose number is past its columns (a number that a
  // column's name spells, "2024", names that column).
  void name_columns(std::vector<std::string> header, const std::string& file);
  // The header of a later input: throws InputError("FILE:1: ...") naming both
  // files where it differs from the first's.
  void check_header(const std::vector<std::string>& header, const std::string& file) const;
  // Throws UsageError while named keys wait for a header (an empty input).
  void require_resolved() const;

  // Per key, in order, what --stats and the end of a sort say of its values
  // (typed_key.hpp's value_check).
  std::vector<KeyValueCounts> value_checks(NullOrder nulls) const;
  // A row's values that do not read as their key's type, into counts[2 k],
  // and its NULL ones, into counts[2 k + 1] (TextFormat::count_values); the
  // first key only where its prefix says it may be either. `field(row,
  // column, buf)` reads a column as the format unquotes or unescapes it.
  template <class Field>
  void count_values(std::string_view row, const Prefix& prefix, std::uint64_t* counts, Field&& field) const {
    thread_local std::string buf;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (i == 0 && !extreme_prefix(prefix)) continue;  // the first key read, and was no NULL
      const FieldValue v = field(row, keys_[i].column, buf);
      counts[2 * i] += value_unread(keys_[i].key, v);
      counts[2 * i + 1] += v.null;
    }
  }

  const std::vector<ColumnKey>& keys() const noexcept { return keys_; }
  bool empty() const noexcept { return keys_.empty(); }

private:
  std::vector<ColumnKey> keys_;
  std::vector<std::string> header_;
  std::string header_file_;
  bool resolved_ = true;
};

}  // namespace corank::text
