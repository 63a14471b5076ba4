#include "corank/mpi/share_reader.hpp"

#include <algorithm>
#include <cstring>

#include "corank/errors.hpp"
#include "corank/parallel.hpp"

namespace corank::mpi {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// Runs check(line) with no line number first: the number costs a read of the
// file up to the record, paid only when there is a message to give.
template <class Check>
void checked(const Inputs& in, std::uint64_t pos, Check&& check) {
  try {
    check(0);
  } catch (const InputError&) {
    check(line_of(in, pos));
    throw;
  }
}

}  // namespace

ShareReader::ShareReader(const Inputs& in, std::uint64_t begin, std::uint64_t end, std::uint32_t record_size,
                         char term, std::uint64_t chunk, TextReading text, unsigned threads)
    : in_(in), record_size_(record_size), term_(term), text_(text), threads_(std::max(threads, 1u)) {
  chunk_ = record_size ? std::max<std::uint64_t>(chunk / record_size, 1) * record_size : std::max<std::uint64_t>(chunk, 1);
  // Text records never span files, so the share is read file by file.
  for (std::size_t f = 0; f + 1 < in.begin.size(); ++f) {
    const std::uint64_t s = std::max(begin, in.begin[f]), e = std::min(end, in.begin[f + 1]);
    if (s < e) segments_.push_back({s, e});
  }
  if (record_size && begin < end) segments_ = {{begin, end}};
  if (!segments_.empty()) start_segment();
}

bool ShareReader::next(std::vector<ShareRecord>& records) {
  records.clear();
  if (segment_ >= segments_.size()) return false;
  const std::uint64_t e = segments_[segment_].second;
  std::uint64_t n = std::min(chunk_, e - cursor_);
  std::size_t cut = 0;
  for (;;) {
    buf_.reserve(static_cast<std::size_t>(n) + 1);  // with_file_ending's CR
    buf_.resize(static_cast<std::size_t>(n));
    read(cursor_, buf_.data(), buf_.size());
    const bool at_end = cursor_ + n == e;
    if (text_.rows_by_format) {
      // Whole rows; at the segment's end (a file's end or the share's, a
      // row boundary) the rest is the file's unterminated last row.
      ends_.clear();
      for (std::size_t i = 0; i < buf_.size();) {
        const std::size_t len = text_.format->record_length(buf_.data() + i, buf_.data() + buf_.size());
        if (len == 0) break;
        ends_.push_back(i += len);
      }
      cut = at_end ? buf_.size() : ends_.empty() ? 0 : ends_.back();
      if (cut) break;
    } else if (record_size_ || at_end) {
      cut = buf_.size();
      break;
    } else if (const void* p = ::memrchr(buf_.data(), term_, buf_.size())) {
      cut = static_cast<std::size_t>(static_cast<const char*>(p) - buf_.data()) + 1;
      break;
    }
    n = std::min(2 * n, e - cursor_);
  }
  const char* b = buf_.data();
  if (record_size_) {
    for (std::size_t i = 0; i < cut; i += record_size_) records.push_back({b + i, record_size_, cursor_ + i});
  } else if (text_.rows_by_format) {
    std::size_t i = 0;
    for (std::size_t end : ends_) {
      text_record(records, std::string_view(b + i, end - i - 1), i);
      i = end;
    }
    if (i < cut) {
      const std::string_view tail(b + i, cut - i);
      check_tail(tail, i);
      text_record(records, with_file_ending(tail), i);
    }
  } else {
    for (std::size_t i = 0; i < cut;) {
      const void* t = std::memchr(b + i, term_, cut - i);
      const std::size_t len = t ? static_cast<std::size_t>(static_cast<const char*>(t) - (b + i)) : cut - i;
      text_record(records, t ? std::string_view(b + i, len) : with_file_ending(std::string_view(b + i, len)), i);
      i += len + 1;
    }
  }
  cursor_ += cut;
  if (cursor_ == e && ++segment_ < segments_.size()) start_segment();
  return true;
}

bool ShareReader::next_block(const char*& data, std::uint64_t& bytes, std::uint64_t& position) {
  if (segment_ >= segments_.size()) return false;
  const std::uint64_t e = segments_[segment_].second;
  const std::uint64_t n = std::min(chunk_, e - cursor_);
  buf_.resize(static_cast<std::size_t>(n));
  read(cursor_, buf_.data(), buf_.size());
  data = buf_.data();
  bytes = n;
  position = cursor_;
  cursor_ += n;
  if (cursor_ == e && ++segment_ < segments_.size()) start_segment();
  return true;
}

void ShareReader::read(std::uint64_t at, char* dst, std::size_t n) const {
  const unsigned slices = static_cast<unsigned>(std::clamp<std::uint64_t>(n / (4 * kMiB), 1, threads_));
  parallel_for(slices, [&](unsigned i) {
    const std::size_t b = n * i / slices, e = n * (i + 1) / slices;
    in_.read(at + b, reinterpret_cast<std::byte*>(dst + b), e - b);
  });
}

void ShareReader::start_segment() {
  cursor_ = segments_[segment_].first;
  skip_next_ = text_.skip_headers && cursor_ == in_.begin[in_.file_of(cursor_)];
}

void ShareReader::check_tail(std::string_view tail, std::size_t i) {
  if (!text_.check) return;
  const std::uint64_t pos = cursor_ + i;
  checked(in_, pos, [&](std::uint64_t line) {
    text_.format->check_unterminated(tail, in_.name(in_.file_of(pos)), line);
  });
}

std::string_view ShareReader::with_file_ending(std::string_view tail) {
  if (term_ != '\n' || tail.ends_with('\r')) return tail;
  const std::size_t f = in_.file_of(cursor_ + static_cast<std::uint64_t>(tail.data() - buf_.data()));
  const std::string first =
      text_.rows_by_format ? csv_row_at(in_, in_.begin[f], *text_.format) : record_at(in_, in_.begin[f], 0, term_);
  if (!first.ends_with('\r')) return tail;
  buf_.push_back('\r');  // within the room reserved: the chunk's records stay where they are
  return {tail.data(), tail.size() + 1};
}

void ShareReader::check_fields(std::string_view rec, const std::string& file, std::uint64_t line) const {
  if (!text_.fields) return;
  const std::optional<std::uint64_t> n = text_.format->field_count(rec);
  if (!n || *n == *text_.fields) return;
  throw InputError(file + ":" + std::to_string(line) + ": " + std::to_string(*n) + (*n == 1 ? " field" : " fields") +
                   ", where " + text_.fields_from + " has " + std::to_string(*text_.fields));
}

void ShareReader::text_record(std::vector<ShareRecord>& records, std::string_view rec, std::size_t i) {
  if (skip_next_) {
    skip_next_ = false;
    return;
  }
  // A line the format skips (a blank JSON line, as jq skips it) is no
  // record: corank's readers drop it, so no rank sorts or writes it.
  if (text_.format && text_.format->skips(rec)) return;
  const std::uint64_t pos = cursor_ + i;
  if (text_.check && text_.format->checks_records())
    checked(in_, pos, [&](std::uint64_t line) {
      text_.format->check_record(rec, in_.name(in_.file_of(pos)), line);
      check_fields(rec, in_.name(in_.file_of(pos)), line);
    });
  records.push_back({rec.data(), rec.size(), pos});
}

}  // namespace corank::mpi
