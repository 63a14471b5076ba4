#pragma once
// JSON lines: one JSON object per line, ordered by fields named by dotted
// paths, PATH[:TYPE][:desc] (`ts:time`, `user.id:n`, `items.0.sku`; a path
// component that is a number also indexes an array). A key with a TYPE
// (typed_key.hpp) compares the field's text: a string's unescaped bytes, a
// number or a boolean as written. A key without one orders by JSON's own
// kinds, as PostgreSQL's jsonb does: strings (by their unescaped bytes, or
// the key's collation) <
// numbers (exactly, by value) < false < true < arrays < objects (these two by
// their JSON text as written). A missing field and null are NULLs, placed as
// the null order says (last by default). Without keys, lines compare as bytes.
// A line that is not one JSON object is an error naming its file and line
// (or a reject: row_check.hpp); a blank line is skipped, as jq skips it.
// Parsing is simdjson's: each record is validated once as it is read (the DOM
// parser), and its keys are read On Demand for its prefix and comparisons.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/collation.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/typed_key.hpp"

namespace corank::text {

struct JsonlOptions {
  std::vector<std::string> keys;  // as given on the command line
  KeyField global;                // the global ordering letters, for keys without a TYPE
  std::shared_ptr<const Collation> collation;  // --collation: strings' and text keys' order; null: bytes
  bool unique = false;
  NullOrder nulls = NullOrder::Last;
};

class JsonlFormat final : public TextFormat {
public:
  // Parses the key specs. Throws UsageError.
  explicit JsonlFormat(JsonlOptions options);

  int compare(std::string_view a, std::string_view b) const override;
  Prefix prefix(std::string_view record) const override;
  std::size_t record_length(const char* p, const char* end) const override;
  bool checks_records() const override { return true; }
  std::optional<Problem> record_problem(std::string_view record) const override;
  // A line of blanks only (space, tab, CR) holds no JSON text: skipped, as jq skips it.
  bool skips(std::string_view record) const override;
  // --debug: each key's value underlined as written (a string's text within
  // its quotes; an empty string its two quotes); null is "^ no match for
  // key" at the null, a missing field the same at the line's end. Without
  // keys lines compare as bytes: the whole line.
  bool can_debug() const override { return true; }
  void append_debug_view(std::string_view record, std::string& out) const override;
  // Every key: null or missing fields, and values not read as its TYPE.
  std::vector<KeyValueCounts> value_checks() const override;
  void count_values(std::string_view record, const Prefix& prefix, std::uint64_t* counts) const override;

private:
  struct FieldKey {
    std::string path;     // as given, for messages
    std::string pointer;  // the same as a JSON pointer (RFC 6901)
    TypedKey key;
  };
  // Without keys: whether --collation orders the lines' text.
  bool collates_lines() const noexcept;

  JsonlOptions options_;
  std::vector<FieldKey> keys_;
};

}  // namespace corank::text
