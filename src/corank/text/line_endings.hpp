#pragma once
// A file's line ending, decided by its first record: where that record ends
// in CR LF, the file's last record, when it lacks its terminator, is given
// CR LF too, so that a CRLF export keeps one line ending in the output (COPY
// ... CSV fails on a bare LF among CR LF rows, "unquoted newline found in
// data"), whatever it is sorted with. Records keep their CR as a part of
// their bytes: formats whose rows may end in one (CSV, TSV, pgtext, JSON
// lines) leave it out of their fields. PostgreSQL's COPY decides a file's
// newline from its first line in the same way.
#include <string_view>

namespace corank::text {

class FileLineEnding {
public:
  // A new file: nothing known yet.
  void reset() noexcept { known_ = false, crlf_ = false; }
  // Sees a record of the file, without its terminator; the first decides.
  void saw(std::string_view record, char terminator) noexcept {
    if (known_) return;
    known_ = true;
    crlf_ = terminator == '\n' && !record.empty() && record.back() == '\r';
  }
  // Sees the text at a file's end, not yet split into records (a multi-line
  // record's end is found only by the line after it): its first line decides,
  // where no record did.
  void saw_first_line_of(std::string_view text, char terminator) noexcept {
    if (known_) return;
    const std::size_t end = text.find(terminator);
    if (end != std::string_view::npos) saw(text.substr(0, end), terminator);
  }
  bool known() const noexcept { return known_; }
  // What an unterminated last record `tail` gets before the terminator: a
  // CR in a CRLF file (unless it ends in one already), else nothing.
  bool supplies_cr(std::string_view tail) const noexcept { return crlf_ && (tail.empty() || tail.back() != '\r'); }

private:
  bool known_ = false, crlf_ = false;
};

}  // namespace corank::text
