#include "corank/record_input.hpp"

#include <algorithm>
#include <cstring>

#include "corank/errors.hpp"
#include "corank/parallel.hpp"

namespace corank {

namespace {
[[noreturn]] void throw_not_multiple(const std::string& name, std::uint64_t size, std::uint32_t record_size) {
  throw InputError(name + ": size " + std::to_string(size) + " is not a multiple of the record size " +
                   std::to_string(record_size));
}
// A source whose size was not known before it was read (a pipe, a
// compressed file; a regular file that shrank says so itself) ends inside a
// record: its size is what it gave, decompressed where it is compressed.
[[noreturn]] void throw_ends_inside_a_record(const io::ByteSource& src, std::uint64_t bytes, std::uint32_t record_size) {
  if (const auto stored = src.file_size(); stored && !src.size())
    throw InputError(src.name() + ": size " + std::to_string(bytes) + " decompressed (" + std::to_string(*stored) +
                     " compressed) is not a multiple of the record size " + std::to_string(record_size));
  throw_not_multiple(src.name(), bytes, record_size);
}
}  // namespace

RecordInput::RecordInput(const std::vector<std::string>& paths, std::uint32_t record_size, const io::IoOptions& opt)
    : paths_(paths), opt_(opt), record_size_(record_size) {
  std::uint64_t total = 0;
  bool known = true;
  for (const auto& p : paths.empty() ? std::vector<std::string>{"-"} : paths) {
    sources_.push_back(io::open_source(p, opt, std::nullopt, io::MagicBytes::ignore));  // records: by name only
    if (auto s = sources_.back()->size()) {
      if (*s % record_size != 0) throw_not_multiple(sources_.back()->name(), *s, record_size);
      total += *s / record_size;
    } else {
      known = false;
    }
  }
  if (known) total_records_ = total;
}

void check_whole_records(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size) {
  for (const auto& b : buffers)
    if (b.size() % record_size != 0) throw_not_multiple("input buffer", b.size(), record_size);
}

const std::byte* sole_buffer(const std::vector<std::span<const std::byte>>& buffers) noexcept {
  const std::byte* sole = nullptr;
  for (const auto& b : buffers) {
    if (b.empty()) continue;
    if (sole) return nullptr;
    sole = b.data();
  }
  return sole;
}

RecordInput::RecordInput(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size,
                         unsigned threads)
    : buffers_(buffers), record_size_(record_size), threads_(std::max(threads, 1u)) {
  check_whole_records(buffers_, record_size);
  std::uint64_t total = 0;
  for (const auto& b : buffers_) total += b.size() / record_size;
  total_records_ = total;
}

RecordInput::RecordInput(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size,
                         unsigned threads, const RecordSelection& selection)
    : RecordInput(buffers, record_size, threads) {
  selected_ = std::make_unique<SelectedRecords>(buffers_, record_size, selection, threads_);
  total_records_ = selection.records();
}

const SelectedRecords* RecordInput::selection_in_place() const noexcept {
  return selected_ && selected_->sole() && records_read_ == 0 ? selected_.get() : nullptr;
}

SelectedRecords* RecordInput::take_selection_in_place() noexcept {
  if (!selection_in_place()) return nullptr;
  records_read_ = *total_records_;
  return selected_.get();
}

const std::byte* RecordInput::map_whole() {
  if (selected_) return nullptr;  // the kept records are not where they lie, one after another
  if (!buffers_.empty()) {
    const std::byte* sole = records_read_ == 0 ? sole_buffer(buffers_) : nullptr;
    if (sole) records_read_ = *total_records_, current_ = buffers_.size();
    return sole;
  }
  if (paths_.size() != 1 || records_read_ != 0 || current_ != 0 || !total_records_) return nullptr;
  mapped_ = io::MappedInput::map_if_resident(paths_[0], opt_, *total_records_ * record_size_);
  if (!mapped_) return nullptr;
  sources_.clear();  // never read: read() finds nothing left
  records_read_ = *total_records_;
  return mapped_->data();
}

std::uint64_t RecordInput::read(std::byte* dst, std::uint64_t max_records) {
  if (selected_) {
    const std::uint64_t got = selected_->read(dst, max_records);
    records_read_ += got;
    return got;
  }
  const std::uint64_t want = max_records * record_size_;
  std::uint64_t got = 0;
  while (got < want && current_ < buffers_.size()) {
    const auto& b = buffers_[current_];
    const std::uint64_t n = std::min<std::uint64_t>(want - got, b.size() - current_bytes_);
    // One thread copies a few GB/s, far below memory's speed: slices of at
    // least 16 MiB go to several.
    const auto parts = static_cast<unsigned>(std::clamp<std::uint64_t>(n >> 24, 1, threads_));
    parallel_for(parts, [&, from = b.data() + current_bytes_, to = dst + got](unsigned t) {
      std::memcpy(to + n * t / parts, from + n * t / parts, n * (t + 1) / parts - n * t / parts);
    });
    got += n;
    current_bytes_ += n;
    if (current_bytes_ == b.size()) ++current_, current_bytes_ = 0;
  }
  while (got < want && current_ < sources_.size()) {
    auto& src = *sources_[current_];
    std::size_t n = src.read(dst + got, static_cast<std::size_t>(want - got));
    got += n;
    current_bytes_ += n;
    if (got < want) {  // this source is exhausted
      if (current_bytes_ % record_size_ != 0) throw_ends_inside_a_record(src, current_bytes_, record_size_);
      ++current_;
      current_bytes_ = 0;
    }
  }
  // Sources end on record boundaries, so `got` is whole records.
  records_read_ += got / record_size_;
  return got / record_size_;
}

}  // namespace corank
