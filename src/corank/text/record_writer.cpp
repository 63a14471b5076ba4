#include "corank/text/record_writer.hpp"

#include <chrono>
#include <cstring>

namespace corank::text {

RecordWriter::RecordWriter(io::ByteSink& sink, char terminator, const TextFormat* unique_format,
                           std::size_t buffer_bytes)
    : sink_(sink), terminator_(terminator), unique_(unique_format), capacity_(buffer_bytes),
      buf_(std::make_unique_for_overwrite<char[]>(buffer_bytes)) {}

void RecordWriter::flush() {
  if (used_ == 0) return;
  const auto t0 = std::chrono::steady_clock::now();
  sink_.write(buf_.get(), used_);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  used_ = 0;
}

void RecordWriter::write_raw(std::string_view bytes) {
  bytes_ += bytes.size();
  if (used_ + bytes.size() > capacity_) {
    flush();
    if (bytes.size() > capacity_) {
      sink_.write(bytes.data(), bytes.size());
      return;
    }
  }
  std::memcpy(buf_.get() + used_, bytes.data(), bytes.size());
  used_ += bytes.size();
}

void RecordWriter::write(std::string_view record) {
  if (unique_) {
    if (have_last_ && unique_->compare(last_, record) == 0) return;
    last_.assign(record);
    have_last_ = true;
  }
  ++records_;
  if (samples_ && bytes_ >= next_sample_ && record.size() <= kMaxSampleBytes) {
    samples_->push_back({sample_base_ + bytes_, std::string(record)});
    next_sample_ = bytes_ + sample_stride_;
  }
  if (debug_) {
    debug_view_.clear();
    debug_->append_debug_view(record, debug_view_);
    write_raw(debug_view_);
    return;
  }
  if (used_ + record.size() + 1 <= capacity_) {
    std::memcpy(buf_.get() + used_, record.data(), record.size());
    used_ += record.size();
    buf_[used_++] = terminator_;
    bytes_ += record.size() + 1;
    return;
  }
  write_raw(record);
  write_raw(std::string_view(&terminator_, 1));
}

char* RecordWriter::claim(std::size_t n) {
  if (used_ + n > capacity_) flush();
  return buf_.get() + used_;
}

void RecordWriter::commit(std::size_t n, std::uint64_t records) {
  used_ += n;
  bytes_ += n;
  records_ += records;
}

void RecordWriter::finish() { flush(); }

}  // namespace corank::text
