#include "corank/text/record_writer.hpp"

#include <cstring>

namespace corank::text {

RecordWriter::RecordWriter(io::ByteSink& sink, char terminator, const TextFormat* unique_format,
                           std::size_t buffer_bytes)
    : sink_(sink), terminator_(terminator), unique_(unique_format), capacity_(buffer_bytes) {
  buf_[0] = std::make_unique_for_overwrite<char[]>(capacity_);
  buf_[1] = std::make_unique_for_overwrite<char[]>(capacity_);
}

void RecordWriter::flush() {
  if (used_ == 0) return;
  behind_.write(sink_, reinterpret_cast<const std::byte*>(buf_[current_].get()), used_);
  current_ ^= 1;  // write() returned after the write of this other buffer completed
  used_ = 0;
}

void RecordWriter::write_raw(std::string_view bytes) {
  bytes_ += bytes.size();
  if (used_ + bytes.size() > capacity_) {
    flush();
    if (bytes.size() > capacity_) {
      behind_.wait();
      sink_.write(bytes.data(), bytes.size());
      return;
    }
  }
  std::memcpy(buf_[current_].get() + used_, bytes.data(), bytes.size());
  used_ += bytes.size();
}

void RecordWriter::write(std::string_view record) {
  if (unique_) {
    if (have_last_ && unique_->compare(last_, record) == 0) return;
    last_.assign(record);
    have_last_ = true;
  }
  ++records_;
  if (used_ + record.size() + 1 <= capacity_) {
    std::memcpy(buf_[current_].get() + used_, record.data(), record.size());
    used_ += record.size();
    buf_[current_][used_++] = terminator_;
    bytes_ += record.size() + 1;
    return;
  }
  write_raw(record);
  write_raw(std::string_view(&terminator_, 1));
}

char* RecordWriter::claim(std::size_t n) {
  if (used_ + n > capacity_) flush();
  return buf_[current_].get() + used_;
}

void RecordWriter::commit(std::size_t n, std::uint64_t records) {
  used_ += n;
  bytes_ += n;
  records_ += records;
}

void RecordWriter::finish() {
  flush();
  behind_.wait();
}

}  // namespace corank::text
