#pragma once
// PostgreSQL's COPY text format (COPY ... TO/FROM ... WITH (FORMAT text)):
// rows of fields separated by a delimiter (tab by default), no quoting (a '"'
// is an ordinary byte), and backslash escapes: \b \f \n \r \t \v, \ooo (one to
// three octal digits), \xhh (one or two hex digits), and a backslash before
// any other byte stands for that byte (\\ for a backslash, \<tab> for a tab).
// A field whose raw bytes equal the null string (\N unless another is given,
// as COPY's NULL option) is NULL; an empty field is an empty string. A row
// ends at a newline no backslash escapes (COPY reads a backslash-newline as a
// newline in the data), and a CR before it belongs to the line's end. Fields
// compare by their unescaped bytes; keys are the column keys of CSV
// (column_keys.hpp). Rows are written as read. A \. anywhere in a row is
// COPY's end-of-data marker: it is refused (COPY would stop reading there, and
// the sort would move it among the rows).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/collation.hpp"
#include "corank/text/column_keys.hpp"
#include "corank/text/row_format.hpp"
#include "corank/text/typed_key.hpp"

namespace corank::text {

struct PgTextOptions {
  char delimiter = '\t';
  bool header = false;            // COPY's HEADER: the first row names the columns
  std::vector<std::string> keys;  // as given on the command line
  KeyField global;                // the global ordering letters, for keys without a TYPE
  bool unique = false;
  NullOrder nulls = NullOrder::Last;
  std::string null_string = "\\N";  // COPY's NULL, compared with a field's raw bytes
  std::shared_ptr<const Collation> collation;  // --collation: text keys' order; null: bytes
};

// The unescaped value of one field's raw bytes, as COPY reads it.
std::string unescape_pgtext(std::string_view raw);

class PgTextFormat final : public RowFormat {
public:
  // Parses the key specs; names wait for set_header. Throws UsageError.
  explicit PgTextFormat(PgTextOptions options);

  int compare(std::string_view a, std::string_view b) const override;
  Prefix prefix(std::string_view record) const override;
  std::size_t record_length(const char* p, const char* end) const override;
  void check_unterminated(std::string_view tail, const std::string& file, std::uint64_t line) const override;
  std::optional<Problem> record_problem(std::string_view record) const override;
  std::optional<std::uint64_t> field_count(std::string_view record) const override;
  void set_header(std::string_view header, const std::string& file) override;
  void check_header(std::string_view header, const std::string& file) const override;
  // --debug: each key's field underlined as written (escapes included); a
  // NULL or a missing column is "^ no match for key".
  void append_debug_view(std::string_view record, std::string& out) const override;

private:
  // Field `column` of `row`: NULL, or its unescaped value (backed by `buf`
  // when it holds escapes).
  FieldValue field(std::string_view row, std::uint64_t column, std::string& buf) const override;
  // A field's value from its raw bytes: NULL, or unescaped (into `buf` where
  // it holds escapes).
  FieldValue value(std::string_view raw, std::string& buf) const;
  // Every field's raw bytes.
  void raw_fields(std::string_view row, std::vector<std::string_view>& out) const;
  std::vector<std::string> header_names(std::string_view header) const;

  PgTextOptions options_;
  TypedKey column_key_;  // rows without keys compare column by column with it
};

}  // namespace corank::text
