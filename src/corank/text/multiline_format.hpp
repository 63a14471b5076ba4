#pragma once
// Log records that span lines (--multiline): a line in which no timestamp is
// found (a Java stack trace's "\tat ..." lines, a message's continuation)
// belongs to the record before it, and the record moves as one, terminators
// inside it kept. Text before a file's first timestamp (a banner, or the end
// of a record that began in the file before, rotated) is a record of its own,
// the file's head: heads come first in the output, whatever the order, in
// the order of the inputs (ChunkReader::heads, RecordReader::divert_head).
// So no sorted run ever holds one, which read back would join the record
// before it: its first line starts no record.
//
// A record ends only where the next one begins, so its end is known once the
// next line is whole, and what is left at a file's end is one record. Records
// are ordered as lines are (LineFormat): their keys lie in the whole record,
// the first line first.
//
// A timestamp is what a positionless time key finds (TimeRules::find: the
// formats detected in the inputs, or --time-format's), but for a bare epoch
// number or a date alone inside a line (an id, a date a message names),
// which starts a record only where the line begins with it
// (TimeRules::find_record_start). A record's time key is the timestamp that
// starts it: a head of text before a file's first timestamp has none, even
// where a later line of it names a number or a date.
#include <memory>

#include "corank/text/text_format.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::text {

class MultilineFormat final : public TextFormat {
public:
  MultilineFormat(LineOrdering ordering, std::shared_ptr<const TimeRules> rules);

  int compare(std::string_view a, std::string_view b) const override { return lines_.compare(a, b); }
  Prefix prefix(std::string_view record) const override { return lines_.prefix(record); }
  int compare_tied(std::string_view a, std::string_view b) const override { return lines_.compare_tied(a, b); }
  bool costly_prefix() const override { return lines_.costly_prefix(); }
  std::size_t record_length(const char* p, const char* end) const override;
  bool last_record_runs_to_file_end() const override { return true; }
  std::vector<KeyValueCounts> value_checks() const override { return lines_.value_checks(); }
  void count_values(std::string_view record, const Prefix& prefix, std::uint64_t* counts) const override {
    lines_.count_values(record, prefix, counts);
  }
  const LineComparator* line_comparator() const noexcept override { return lines_.line_comparator(); }
  bool can_debug() const override { return true; }
  void append_debug_view(std::string_view record, std::string& out) const override {
    lines_.append_debug_view(record, out);
  }

  bool records_are_runs_of_lines() const override { return true; }
  // Whether `line` (without its terminator) starts a record.
  bool starts_record(std::string_view line) const override;

private:
  LineFormat lines_;
  std::shared_ptr<const TimeRules> rules_;
};

}  // namespace corank::text
