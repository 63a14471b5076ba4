#include "corank/record_selection.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "corank/errors.hpp"
#include "corank/record_input.hpp"

namespace corank {

namespace {
// Records are counted in blocks of this many words of marks (16384 records):
// a thread finds where its share of a read begins by counting bits in one
// block at most.
constexpr std::uint64_t kBlockWords = 256;
constexpr std::uint64_t kBlockRecords = kBlockWords * 64;
// A thread copies at least this many records of a read.
constexpr std::uint64_t kMinSlice = 16384;
}  // namespace

SelectedRecords::SelectedRecords(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size,
                                 const RecordSelection& selection, unsigned threads)
    : buffers_(buffers), R_(record_size), selection_(selection), threads_(std::max(threads, 1u)) {
  buffer_first_.push_back(0);
  for (const auto& b : buffers_) buffer_first_.push_back(buffer_first_.back() + b.size() / R_);
}

const std::byte* SelectedRecords::sole() const noexcept { return given_ != 0 ? nullptr : sole_buffer(buffers_); }

std::uint64_t SelectedRecords::sole_first() const noexcept {
  std::size_t b = 0;
  while (b + 1 < buffers_.size() && buffers_[b].empty()) ++b;
  return buffer_first_[b];
}

unsigned SelectedRecords::slices_for(std::uint64_t records) const noexcept {
  return static_cast<unsigned>(std::clamp<std::uint64_t>(records / kMinSlice, 1, threads_));
}

void SelectedRecords::mark_all() {
  if (!before_.empty()) return;  // marked already
  const std::uint64_t n = buffer_first_.back();
  const std::uint64_t blocks = (n + kBlockRecords - 1) / kBlockRecords;
  keep_.assign(static_cast<std::size_t>(blocks * kBlockWords), 0);
  before_.assign(static_cast<std::size_t>(blocks + 1), 0);
  const unsigned slices = static_cast<unsigned>(std::clamp<std::uint64_t>(blocks, 1, threads_));
  parallel_for(slices, [&](unsigned t) {
    std::vector<std::uint8_t> flags(kBlockRecords);
    for (std::uint64_t k = blocks * t / slices; k < blocks * (t + 1) / slices; ++k) {
      // The block's records, buffer by buffer.
      const std::uint64_t b = k * kBlockRecords, e = std::min(n, b + kBlockRecords);
      std::uint64_t kept = 0;
      for (std::uint64_t at = b; at < e;) {
        const std::uint64_t stop = std::min(e, buffer_first_[buffer_of(at) + 1]);
        kept += selection_.mark(record(at), stop - at, at, flags.data() + (at - b));
        at = stop;
      }
      std::uint64_t* words = keep_.data() + k * kBlockWords;
      for (std::uint64_t i = 0; i < e - b; ++i) words[i / 64] |= std::uint64_t{flags[i] != 0} << (i % 64);
      before_[k + 1] = kept;
    }
  });
  for (std::uint64_t k = 0; k < blocks; ++k) before_[k + 1] += before_[k];
  if (before_.back() != selection_.records())
    throw InputError("the inputs changed while they were sorted: " + std::to_string(before_.back()) +
                     " records where " + std::to_string(selection_.records()) + " were counted");
}

std::size_t SelectedRecords::buffer_of(std::uint64_t i) const noexcept {
  // The last buffer beginning at or before i: empty ones before it begin there too.
  return static_cast<std::size_t>(std::upper_bound(buffer_first_.begin(), buffer_first_.end(), i) -
                                  buffer_first_.begin() - 1);
}

const std::byte* SelectedRecords::record(std::uint64_t i, std::size_t b) const noexcept {
  return buffers_[b].data() + (i - buffer_first_[b]) * R_;
}

const std::byte* SelectedRecords::record(std::uint64_t i) const noexcept { return record(i, buffer_of(i)); }

std::uint64_t SelectedRecords::kept_record(std::uint64_t k) const noexcept {
  const auto block = static_cast<std::uint64_t>(std::upper_bound(before_.begin(), before_.end(), k) - before_.begin() - 1);
  std::uint64_t w = block * kBlockWords, left = k - before_[block];
  for (;; ++w) {
    const auto c = static_cast<std::uint64_t>(std::popcount(keep_[w]));
    if (left < c) break;
    left -= c;
  }
  std::uint64_t bits = keep_[w];
  for (; left > 0; --left) bits &= bits - 1;  // drop the lowest set bit
  return w * 64 + static_cast<std::uint64_t>(std::countr_zero(bits));
}

std::uint64_t SelectedRecords::read(std::byte* dst, std::uint64_t max) {
  mark_all();
  const std::uint64_t got = std::min(max, selection_.records() - given_);
  if (got == 0) return 0;
  const unsigned slices = slices_for(got);
  parallel_for(slices, [&](unsigned t) {
    const std::uint64_t b = got * t / slices, e = got * (t + 1) / slices;
    if (b == e) return;
    std::byte* to = dst + b * R_;
    each_run(kept_record(given_ + b), e - b, [&](std::uint64_t i, std::uint64_t j) {
      // A run of kept records in one copy, buffer by buffer.
      while (i < j) {
        const std::size_t buf = buffer_of(i);
        const std::uint64_t stop = std::min(j, buffer_first_[buf + 1]);
        std::memcpy(to, record(i, buf), (stop - i) * R_);
        to += (stop - i) * R_;
        i = stop;
      }
    });
  });
  given_ += got;
  return got;
}

}  // namespace corank
