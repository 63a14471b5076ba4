#include "corank/record_selection.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "corank/errors.hpp"
#include "corank/parallel.hpp"
#include "corank/record_input.hpp"

namespace corank {

namespace {
// A thread marks at least this many records of a block.
constexpr std::uint64_t kMinSlice = 16384;
}  // namespace

SelectedRecords::SelectedRecords(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size,
                                 const RecordSelection& selection, unsigned threads)
    : buffers_(buffers), R_(record_size), selection_(selection), threads_(std::max(threads, 1u)) {}

const std::byte* SelectedRecords::sole() const noexcept {
  return kept_ != 0 || current_ != 0 || next_ != 0 ? nullptr : sole_buffer(buffers_);
}

void SelectedRecords::check_count() const {
  if (kept_ != selection_.records())
    throw InputError("the inputs changed while they were sorted: " + std::to_string(kept_) + " records where " +
                     std::to_string(selection_.records()) + " were counted");
}

std::uint64_t SelectedRecords::in_buffer() const noexcept { return buffers_[current_].size() / R_; }

void SelectedRecords::next_buffer() noexcept {
  buffer_first_ += in_buffer();
  ++current_;
  next_ = marked_from_ = marked_to_ = 0;
}

void SelectedRecords::mark(std::uint64_t n) {
  const std::byte* block = buffers_[current_].data() + next_ * R_;
  keep_.resize(static_cast<std::size_t>(n));
  const auto slices = static_cast<unsigned>(std::clamp<std::uint64_t>(n / kMinSlice, 1, threads_));
  parallel_for(slices, [&](unsigned t) {
    const std::uint64_t b = n * t / slices, e = n * (t + 1) / slices;
    selection_.mark(block + b * R_, e - b, buffer_first_ + next_ + b, keep_.data() + b);
  });
  marked_from_ = next_;
  marked_to_ = next_ + n;
}

std::uint64_t SelectedRecords::read(std::byte* dst, std::uint64_t max) {
  std::uint64_t got = 0;
  // Blocks of at least max records are marked by all the threads; what a
  // read leaves of a block's marks, the next one takes first.
  while (got < max && current_ < buffers_.size()) {
    if (next_ == in_buffer()) {
      next_buffer();
      continue;
    }
    if (next_ == marked_to_) mark(std::min(in_buffer() - next_, std::max(max, kMinSlice * threads_)));
    got += take(dst + got * R_, max - got);
  }
  kept_ += got;
  // Once the count is reached, the rest must keep nothing: a sort reads no
  // more than its count, and would drop the surplus unseen.
  if (kept_ == selection_.records()) kept_ += count_rest();
  if (current_ == buffers_.size()) check_count();
  return got;
}

std::uint64_t SelectedRecords::take(std::byte* dst, std::uint64_t room) {
  const std::uint64_t from = next_, n = marked_to_ - from;
  const std::uint8_t* keep = keep_.data() + (from - marked_from_);
  const auto slices = static_cast<unsigned>(std::clamp<std::uint64_t>(n / kMinSlice, 1, threads_));
  const auto lo = [&](unsigned t) { return n * t / slices; };
  // kept[t]: the kept records before slice t; the flags are bytes, summed
  // at memory speed beside the marking's key tests.
  std::vector<std::uint64_t> kept(slices + 1, 0);
  for (unsigned t = 0; t < slices; ++t)
    kept[t + 1] = kept[t] + std::accumulate(keep + lo(t), keep + lo(t + 1), std::uint64_t{0});
  // Where dst fills: the records taken are [0, end) of the marked ones left.
  std::uint64_t end = n;
  if (kept[slices] > room) {
    unsigned t = 0;
    while (kept[t + 1] < room) ++t;
    std::uint64_t k = kept[t];
    for (end = lo(t); k < room; ++end) k += keep[end];
  }
  const std::byte* block = buffers_[current_].data() + from * R_;
  parallel_for(slices, [&](unsigned t) {
    const std::uint64_t e = std::min(lo(t + 1), end);
    std::byte* to = dst + kept[t] * R_;
    // Runs of kept records are copied at once.
    for (std::uint64_t i = lo(t); i < e;) {
      if (!keep[i]) {
        ++i;
        continue;
      }
      std::uint64_t j = i + 1;
      while (j < e && keep[j]) ++j;
      std::memcpy(to, block + i * R_, (j - i) * R_);
      to += (j - i) * R_;
      i = j;
    }
  });
  next_ = from + end;
  return std::min(kept[slices], room);
}

std::uint64_t SelectedRecords::count_rest() {
  std::uint64_t kept = 0;
  while (current_ < buffers_.size()) {
    if (next_ == in_buffer()) {
      next_buffer();
      continue;
    }
    if (next_ == marked_to_) mark(std::min(in_buffer() - next_, kMinSlice * threads_));
    const std::uint8_t* keep = keep_.data() + (next_ - marked_from_);
    kept += std::accumulate(keep, keep + (marked_to_ - next_), std::uint64_t{0});
    next_ = marked_to_;
  }
  return kept;
}

}  // namespace corank
