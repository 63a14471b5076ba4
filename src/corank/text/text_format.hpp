#pragma once
// What the text sorter needs to know about a record format: where a record
// ends, how two records compare, and an order-preserving prefix of each. Lines
// and CSV rows implement it; the sorting pipeline is the same for both.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "corank/sort_options.hpp"
#include "corank/text/line_comparator.hpp"

namespace corank::text {

class TextFormat {
public:
  virtual ~TextFormat() = default;

  // <0, 0, >0. Records exclude their terminator. Equal (0) means "the same
  // record" for -u and the ties of a stable sort.
  virtual int compare(std::string_view a, std::string_view b) const = 0;
  // compare(a, b) < 0 implies prefix(a) <= prefix(b).
  virtual Prefix prefix(std::string_view record) const = 0;
  // Whether prefix() costs far more than finding the record (a time key's
  // search for its timestamp): with two threads, prefixes are then computed
  // by both once a chunk is full, not by the reading thread as it splits.
  virtual bool costly_prefix() const { return false; }
  // compare(a, b) for records whose prefixes are equal, which may tell a
  // format that a key they hold whole is equal (a time key's instant).
  virtual int compare_tied(std::string_view a, std::string_view b) const { return compare(a, b); }
  // How records whose prefixes tie are ordered (LineComparator::tie_order),
  // and where not TieOrder::other, the digest of what decides last and the
  // comparison of the key that decides before it (key_then_collation).
  virtual TieOrder tie_order() const { return TieOrder::other; }
  virtual void last_resort_digest(std::string_view record, unsigned char* out, std::size_t n) const {
    (void)record, (void)out, (void)n;
  }
  virtual int compare_tied_keys(std::string_view a, std::string_view b) const { return (void)a, (void)b, 0; }
  // The length of the record that starts at p, its one-byte terminator
  // included, or 0 when [p, end) holds no whole record.
  virtual std::size_t record_length(const char* p, const char* end) const = 0;
  // The bytes after a file's last terminator become a record of their own (the
  // missing newline is supplied); a format may refuse them. `line` is the
  // 1-based line where they start.
  virtual void check_unterminated(std::string_view tail, const std::string& file, std::uint64_t line) const {
    (void)tail, (void)file, (void)line;
  }
  // Whether what is left of a file after its last whole record, however many
  // terminators it holds, is one record: a format whose records end only
  // where the next one begins (multiline_format.hpp).
  virtual bool last_record_runs_to_file_end() const { return false; }
  // Whether every record read from an input is checked (a format whose
  // records can be malformed: row_check.hpp holds them to record_problem,
  // field_count and skips); its readers count lines for it.
  virtual bool checks_records() const { return false; }
  // Why the format cannot order `record`, and how many lines after the
  // record's first the fault lies on; nullopt for a good record.
  struct Problem {
    std::string why;
    std::uint64_t lines_in = 0;
  };
  virtual std::optional<Problem> record_problem(std::string_view record) const {
    (void)record;
    return std::nullopt;
  }
  // Throws InputError("FILE:LINE: why") for a record_problem; `line` is the
  // 1-based line where the record starts. Called as inputs are read, before
  // any output is committed.
  void check_record(std::string_view record, const std::string& file, std::uint64_t line) const;
  // Rows of fields: how many `record` holds (a header's too), every row of a
  // sort to have as many as the first (row_check.hpp); nullopt for records
  // without fields.
  virtual std::optional<std::uint64_t> field_count(std::string_view record) const {
    (void)record;
    return std::nullopt;
  }
  // Whether `record` is no record but a line to skip (a blank line between
  // JSON texts, as jq skips it).
  virtual bool skips(std::string_view record) const {
    (void)record;
    return false;
  }
  // The keys whose values may not read as their type or may be NULL, each
  // with counts of 0 (KeyValueCounts); empty: nothing to count.
  virtual std::vector<KeyValueCounts> value_checks() const { return {}; }
  // Adds what `record`'s keys hold to counts[2i] (values not read) and
  // counts[2i + 1] (NULLs), i in value_checks()'s order. `prefix` is the
  // record's: where it shows the first key's value read, that key is not
  // looked at again.
  virtual void count_values(std::string_view record, const Prefix& prefix, std::uint64_t* counts) const {
    (void)record, (void)prefix, (void)counts;
  }
  // Whether the first record of every input is a header to keep apart.
  virtual bool has_header() const { return false; }
  // Receives the first input's header, read from `file`, before any record
  // is compared. Throws UsageError naming the file for keys it lacks.
  virtual void set_header(std::string_view header, const std::string& file) { (void)header, (void)file; }
  // Receives the header of every later input (has_header()), read from
  // `file`, before its records. Throws InputError naming both files where it
  // names other columns than the first input's.
  virtual void check_header(std::string_view header, const std::string& file) const { (void)header, (void)file; }
  // Whether check_unterminated needs line numbers (counting them costs a pass).
  virtual bool counts_lines() const { return false; }
  // Whether every terminator ends a record, so that a piece of input can be
  // split into records from any terminator on, by several threads at once.
  virtual bool every_terminator_ends_a_record() const { return false; }
  // Whether a record is a run of lines, each later line of it one that
  // starts_record says no to, so that a piece of input can be split into
  // records by testing its lines on several threads at once (record_starts.hpp).
  virtual bool records_are_runs_of_lines() const { return false; }
  // Where records_are_runs_of_lines: whether `line` (without its terminator) starts one.
  virtual bool starts_record(std::string_view line) const { return (void)line, true; }
  // --debug: whether the format can show where its keys lie, and how it shows
  // a record: appended to `out`, with the marks of its keys (debug_view.hpp).
  virtual bool can_debug() const { return false; }
  virtual void append_debug_view(std::string_view record, std::string& out) const { (void)record, (void)out; }

  // Lines' comparison, for formats of lines; null for others.
  virtual const LineComparator* line_comparator() const noexcept { return nullptr; }

  char terminator() const noexcept { return terminator_; }
  bool unique() const noexcept { return unique_; }

protected:
  TextFormat(char terminator, bool unique) : terminator_(terminator), unique_(unique) {}

private:
  char terminator_;
  bool unique_;
};

// Whether a prefix is all zero bits or all one bits: what a NULL, or a value
// that does not read as its type, gets (and some others: a JSON "").
bool extreme_prefix(const Prefix& p) noexcept;

// Lines ending in '\n' (or '\0' under -z), ordered as GNU sort orders them.
class LineFormat final : public TextFormat {
public:
  explicit LineFormat(LineOrdering ordering)
      : TextFormat(ordering.eol, ordering.unique), cmp_(std::move(ordering)) {}
  int compare(std::string_view a, std::string_view b) const override { return cmp_.compare(a, b); }
  Prefix prefix(std::string_view record) const override { return cmp_.prefix(record); }
  int compare_tied(std::string_view a, std::string_view b) const override { return cmp_.compare_tied(a, b); }
  TieOrder tie_order() const override { return cmp_.tie_order(); }
  void last_resort_digest(std::string_view record, unsigned char* out, std::size_t n) const override {
    cmp_.last_resort_digest(record, out, n);
  }
  int compare_tied_keys(std::string_view a, std::string_view b) const override { return cmp_.compare_keys(a, b); }
  bool costly_prefix() const override;
  std::size_t record_length(const char* p, const char* end) const override;
  bool every_terminator_ends_a_record() const override { return true; }
  bool can_debug() const override { return true; }
  void append_debug_view(std::string_view record, std::string& out) const override;
  // Time keys: the lines in which they find no time.
  std::vector<KeyValueCounts> value_checks() const override;
  void count_values(std::string_view record, const Prefix& prefix, std::uint64_t* counts) const override;
  const LineComparator& comparator() const noexcept { return cmp_; }
  const LineComparator* line_comparator() const noexcept override { return &cmp_; }

private:
  LineComparator cmp_;
};

}  // namespace corank::text
