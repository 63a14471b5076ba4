#include "corank/text/record_reader.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "corank/errors.hpp"
#include "corank/io/error.hpp"

namespace corank::text {

RecordReader::RecordReader(ReadFn read, std::string name, const TextFormat& format, std::size_t buffer_bytes,
                           bool check)
    : read_(std::move(read)),
      name_(std::move(name)),
      format_(format),
      buf_(std::max<std::size_t>(buffer_bytes, 64)),
      check_(check && format.checks_records()),
      count_lines_(format.counts_lines() || check_ || format.records_are_runs_of_lines()) {}

bool RecordReader::divert_head(std::string& heads) {
  std::string_view record;
  if (!format_.records_are_runs_of_lines() || !next(record)) return false;
  if (format_.starts_record(record.substr(0, std::min(record.find('\n'), record.size())))) {
    again_ = record;  // its bytes stay where they are until the next read
    return false;
  }
  heads.append(record);
  heads += format_.terminator();
  return true;
}

bool RecordReader::next(std::string_view& record) {
  if (again_) {
    record = *std::exchange(again_, std::nullopt);
    return true;
  }
  for (;;) {
    const std::size_t n = format_.record_length(buf_.data() + begin_, buf_.data() + end_);
    if (n) {
      record = std::string_view(buf_.data() + begin_, n - 1);
      ending_.saw(record, format_.terminator());
      line_ = count_lines_ ? lines_ + 1 : seen_.records + 1;
      bool admitted = true;
      if (rows_)
        admitted = rows_->admit(record, name_, line_);
      else if (check_)
        format_.check_record(record, name_, line_);
      if (count_lines_)
        lines_ += static_cast<std::uint64_t>(std::count(buf_.data() + begin_, buf_.data() + begin_ + n, '\n'));
      begin_ += n;
      if (!admitted) continue;
      ++seen_.records;
      return true;
    }
    if (eof_) {
      if (begin_ == end_) {
        if (expected_ && seen_.records != expected_->records) check_end();
        return false;
      }
      if (format_.last_record_runs_to_file_end() && buf_[end_ - 1] == format_.terminator()) {
        record = std::string_view(buf_.data() + begin_, end_ - begin_ - 1);
        line_ = lines_ + 1;
        bool admitted = true;
        if (rows_)
          admitted = rows_->admit(record, name_, line_);
        else if (check_)
          format_.check_record(record, name_, line_);
        begin_ = end_;
        if (!admitted) continue;
        ++seen_.records;
        return true;
      }
      // The unterminated tail: supply the terminator (line_endings.hpp).
      const std::string_view tail(buf_.data() + begin_, end_ - begin_);
      format_.check_unterminated(tail, name_, lines_ + 1);
      ending_.saw_first_line_of(tail, format_.terminator());
      const bool cr = ending_.supplies_cr(tail);
      if (end_ + 2 > buf_.size()) buf_.resize(end_ + 2);
      if (cr) buf_[end_++] = '\r';
      buf_[end_++] = format_.terminator();
      if (format_.record_length(buf_.data() + begin_, buf_.data() + end_) == 0)
        throw InputError(name_ + ": malformed last record");
      continue;
    }
    // Move the partial record to the front; grow when it fills the buffer.
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
    const std::size_t want = buf_.size() - end_;
    const std::size_t got = read_(buf_.data() + end_, want);
    end_ += got;
    seen_.bytes += got;
    if (got < want) {
      eof_ = true;
      // Before the tail is taken for a record: a run cut short is that, not a malformed record.
      if (expected_ && seen_.bytes != expected_->bytes) check_end();
    }
  }
}

void RecordReader::check_end() const {
  throw io::IoError("read failed", name_,
                    seen_.bytes < expected_->bytes ? "run ended early" : "run read back is not what was written");
}

}  // namespace corank::text
