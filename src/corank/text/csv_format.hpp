#pragma once
// CSV and TSV rows (RFC 4180): a field may be quoted, and a quoted field may
// hold delimiters, doubled quotes and newlines, so a row ends at the first
// newline outside quotes. Rows are ordered by column keys COLUMN[:TYPE][:desc]
// (COLUMN a number from 1 or, with a header, a name; TYPE as typed_key.hpp
// reads it), compared SQL-like on the unquoted field values: a missing column
// and an unquoted field equal to the null string are NULL, as PostgreSQL's CSV
// COPY reads them: the null string is an empty field unless another is given
// (which then replaces it: an empty field is an empty string), and a quoted
// field is never NULL. NULLs go where each key's null order says. Without keys rows compare
// column by column as text. Equal rows keep their input order; the global -r
// reverses every key. A UTF-8 byte order mark that starts a row (a file's
// first) is no part of its first field.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/column_keys.hpp"
#include "corank/text/collation.hpp"
#include "corank/text/debug_view.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/row_format.hpp"
#include "corank/text/typed_key.hpp"

namespace corank::text {

struct CsvOptions {
  char delimiter = ',';
  bool header = false;
  std::vector<std::string> keys;  // as given on the command line
  KeyField global;                // the global ordering letters, for keys without a TYPE, and the seed of R
  std::shared_ptr<const Collation> collation;  // --collation: text keys' order; null: bytes
  bool stable = false;            // accepted: CSV sorting is always stable
  bool unique = false;
  NullOrder nulls = NullOrder::Last;
  std::optional<std::string> null_string;  // an unquoted field equal to it is NULL (default: an empty one)
  char decimal_point = '.';                // of n, decimal and float keys (--decimal-separator)
};

// Splits one row (without its newline; a trailing CR is dropped) into its
// unquoted field values.
std::vector<std::string> parse_csv_row(std::string_view row, char delimiter);

class CsvFormat final : public RowFormat {
public:
  // Parses the key specs; names wait for set_header. Throws UsageError.
  explicit CsvFormat(CsvOptions options);

  int compare(std::string_view a, std::string_view b) const override;
  Prefix prefix(std::string_view record) const override;
  std::size_t record_length(const char* p, const char* end) const override;
  void check_unterminated(std::string_view tail, const std::string& file, std::uint64_t line) const override;
  void set_header(std::string_view header, const std::string& file) override;
  void check_header(std::string_view header, const std::string& file) const override;
  std::optional<std::uint64_t> field_count(std::string_view record) const override;
  // --debug: each key's field underlined as it is written (a quoted field's
  // text within its quotes; an empty quoted field, which is no NULL, its two
  // quotes); a NULL or missing column is "^ no match for key". Without keys
  // rows compare column by column: the whole row.
  void append_debug_view(std::string_view record, std::string& out) const override;

private:
  // The unquoted value of field `column` of `row`, or NULL; `buf` backs it
  // when the field had doubled quotes.
  FieldValue field(std::string_view row, std::uint64_t column, std::string& buf) const override;
  // Whether an unquoted field holding `unquoted` is NULL.
  bool is_null(std::string_view unquoted) const;
  // Where field `column` of `row` lies, for --debug.
  KeyExtent extent(std::string_view row, std::uint64_t column) const;
  // Without keys: whether --collation orders the columns' text.
  bool collates_rows() const noexcept;

  CsvOptions options_;
};

}  // namespace corank::text
