#pragma once
// Streams the records of one file (an input for -m and -c, or a spilled run)
// through a buffer: next() yields each record without its terminator, valid
// until the following call. A last record without terminator is supplied one
// (CR LF in a file whose first record ends so: line_endings.hpp).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/line_endings.hpp"
#include "corank/text/row_check.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

// What a spilled run holds, counted as it was written: its records and their
// bytes with terminators, uncompressed. Read back, it must yield exactly that.
struct RunContent {
  std::uint64_t records = 0, bytes = 0;
};

class RecordReader {
public:
  // read(dst, n) returns fewer than n bytes only at the end.
  using ReadFn = std::function<std::size_t(char*, std::size_t)>;
  // Records pass the format's check_record unless `check` is false (runs
  // written by the sort itself, whose records were checked on the way in).
  RecordReader(ReadFn read, std::string name, const TextFormat& format, std::size_t buffer_bytes, bool check = true);

  // A spilled run: from now on the end of the stream is checked against what
  // was written, and one short of it throws IoError("read failed", name,
  // "run ended early") (a different one: "run read back is not what was written").
  void expect(const RunContent& written) { expected_ = written; }
  // From now on records pass `rows` (row_check.hpp) in place of the format's
  // check_record: one it does not admit is not yielded. (A header is read first.)
  void check_rows(RowCheck& rows) {
    if (check_ && rows.active()) rows_ = &rows;
  }

  // False at the end of the file.
  bool next(std::string_view& record);
  // Records that are runs of lines (--multiline): where the stream's first
  // record is its text before the first timestamp (its first line starts no
  // record), appends it to `heads` with its terminator and returns true; it
  // is then not one of next()'s. Before the first next().
  bool divert_head(std::string& heads);
  const std::string& name() const noexcept { return name_; }
  // The 1-based line where the record next() yielded last starts (a CSV row
  // with quoted newlines spans several); its number where the format counts
  // no lines (each record one line, or one NUL-terminated record under -z).
  std::uint64_t line() const noexcept { return line_; }

private:
  [[noreturn]] void check_end() const;

  ReadFn read_;
  std::string name_;
  const TextFormat& format_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;
  std::uint64_t lines_ = 0;  // newlines consumed, for the format's error messages
  std::uint64_t line_ = 0;   // line()
  FileLineEnding ending_;
  bool eof_ = false;
  bool check_ = true;
  std::optional<std::string_view> again_;  // divert_head's record, not a head: next() yields it again
  // Lines are counted for line(): the format counts them, checks records, or
  // its records are runs of lines (--multiline: a record's first line is its number).
  bool count_lines_ = false;
  RowCheck* rows_ = nullptr;
  std::optional<RunContent> expected_;
  RunContent seen_;  // bytes read_ gave, records next() yielded
};

}  // namespace corank::text
