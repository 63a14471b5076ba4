#pragma once
// What the formats of rows of fields whose keys are columns share (CSV and
// TSV: csv_format.hpp; PostgreSQL's text format: pgtext_format.hpp): their
// column keys (column_keys.hpp), a header where asked for, rows checked as
// they are read (row_check.hpp), --debug's view, and the counts of key values
// that are NULL or do not read as their type. Each format reads its fields
// its own way (field()).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "corank/text/column_keys.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/typed_key.hpp"

namespace corank::text {

class RowFormat : public TextFormat {
public:
  bool has_header() const override { return header_; }
  bool counts_lines() const override { return true; }
  bool checks_records() const override { return true; }
  bool can_debug() const override { return true; }
  // Every key: NULL or missing fields, and values not read as its TYPE.
  std::vector<KeyValueCounts> value_checks() const override { return keys_.value_checks(nulls_); }
  void count_values(std::string_view record, const Prefix& prefix, std::uint64_t* counts) const override {
    keys_.count_values(record, prefix, counts, [this](std::string_view row, std::uint64_t column, std::string& buf) {
      return field(row, column, buf);
    });
  }

protected:
  RowFormat(bool unique, bool header, NullOrder nulls, ColumnKeys keys)
      : TextFormat('\n', unique), keys_(std::move(keys)), header_(header), nulls_(nulls) {}

  // Field `column` of `row` as the format reads it: NULL (a missing column
  // too), or its value, backed by `buf` where it had to be rewritten.
  virtual FieldValue field(std::string_view row, std::uint64_t column, std::string& buf) const = 0;

  ColumnKeys keys_;

private:
  bool header_;
  NullOrder nulls_;
};

}  // namespace corank::text
