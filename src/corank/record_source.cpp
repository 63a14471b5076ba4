#include "corank/record_source.hpp"

#include <sys/stat.h>

#include "corank/errors.hpp"

namespace corank {

namespace {
// Positional reads are cut into parts of at least this much for the threads.
constexpr std::uint64_t kMinPart = std::uint64_t{1} << 20;
}  // namespace

RecordSource::RecordSource(const std::vector<std::string>& paths, std::uint32_t record_size, const io::IoOptions& opt)
    : R_(record_size), opt_(opt) {
  if (io::PositionalInput::suits(paths, opt)) {
    positional_ = std::make_unique<io::PositionalInput>(paths);
    for (std::size_t i = 0; i < positional_->files(); ++i)
      if (positional_->file_size(i) % R_ != 0)
        throw InputError(positional_->name(i) + ": size " + std::to_string(positional_->file_size(i)) +
                         " is not a multiple of the record size " + std::to_string(R_));
    return;
  }
  sequential_ = std::make_unique<RecordInput>(paths, record_size, opt);
  for (const auto& p : paths.empty() ? std::vector<std::string>{"-"} : paths) {
    struct stat st {};
    if (p == "-" || ::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) rereadable_ = false;
  }
}

RecordSource::RecordSource(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size)
    : R_(record_size), positional_(std::make_unique<io::PositionalInput>(buffers, "input buffer")), buffers_(buffers) {
  check_whole_records(buffers_, R_);
}

RecordSource::RecordSource(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size,
                           const RecordSelection& selection, unsigned threads)
    : R_(record_size), buffers_(buffers),
      sequential_(std::make_unique<RecordInput>(buffers_, record_size, threads, selection)) {}

std::optional<std::uint64_t> RecordSource::total_records() const noexcept {
  if (positional_) return positional_->size() / R_;
  return sequential_->total_records();
}

const std::byte* RecordSource::map_whole() {
  if (!positional_ || next_ != 0) return nullptr;
  if (!buffers_.empty()) {
    const std::byte* sole = sole_buffer(buffers_);
    if (sole) next_ = positional_->size() / R_;
    return sole;
  }
  if (positional_->files() != 1) return nullptr;
  mapped_ = io::MappedInput::map_if_resident(positional_->name(0), opt_, positional_->size());
  if (!mapped_) return nullptr;
  next_ = positional_->size() / R_;
  return mapped_->data();
}

std::uint64_t RecordSource::read(std::byte* dst, std::uint64_t max, io::WorkerPool& pool) {
  std::uint64_t got = 0;
  if (positional_) {
    got = std::min(max, positional_->size() / R_ - next_);
    const std::uint64_t at = next_ * R_;
    pool.for_ranges(got * R_, kMinPart, R_, [&](std::uint64_t b, std::uint64_t e) {
      positional_->read(at + b, dst + b, static_cast<std::size_t>(e - b));
    });
  } else {
    got = sequential_->read(dst, max);
  }
  next_ += got;
  return got;
}

}  // namespace corank
