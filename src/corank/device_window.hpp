#pragma once
// Adaptive run formation for fixed-size records on the device path
// (device_pipeline.cpp): replacement selection with chunks sorted on the
// device, as sorted_stream.hpp does on the CPU threads. The window, the
// largest records of the chunk before, is uploaded again ahead of the next
// chunk's records and sorted with them (it comes first in staging, so it
// stays first among equal keys); the sorted records come back in order and are
// routed here: those below the last record in the output (and, under -u,
// equal to it) cannot join the output's run and go to a side run; then the
// output takes all but the window's worth, and the largest stay in the
// window. Records displaced by less than about the window form one run,
// written once, whatever the input's size.
//
// The window lives in host memory (the device's output is downloaded whole),
// up to a quarter of the device's capacity and half the host budget. Whether
// the input looks nearly sorted is decided on the first chunk from a sample
// of its records in the order read: at most a quarter of them may lie
// farther from their sorted places than the window holds (the CPU path's
// rule, with the sample's spacing as its resolution). Whether it came in
// order is watched as staging fills (OrderWatch): such input streams past the
// device (device_pipeline.cpp) until a record out of order hands it to the
// window.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "corank/io/worker_pool.hpp"
#include "corank/normalize.hpp"

namespace corank {

// Whether the records read so far came in key order: checked transfer by
// transfer as staging fills (by the pool's threads), until stop().
class OrderWatch {
public:
  OrderWatch(const KeyNormalizer& norm, std::uint32_t R) : norm_(norm), R_(R) {}

  bool in_order() const noexcept { return in_order_; }
  // The last record read while watching (empty: none, or out of order).
  const std::vector<std::byte>& last() const noexcept { return last_; }
  void stop() noexcept { watching_ = false; }

  // Records [first, first + n) of a transfer, at src (first 0: a new one).
  void watch(const std::byte* src, std::uint64_t first, std::uint64_t n, io::WorkerPool& pool) {
    if (!watching_ || n == 0) return;
    if (first != 0 && first != watched_) throw std::logic_error("staging filled out of order");
    std::atomic<bool> ordered = last_.empty() || norm_.compare(last_.data(), src) <= 0;
    pool.for_ranges(n, std::uint64_t{1} << 16, 1, [&](std::uint64_t b, std::uint64_t e) {
      for (std::uint64_t i = std::max<std::uint64_t>(b, 1); i < e && ordered.load(std::memory_order_relaxed); ++i)
        if (norm_.compare(src + (i - 1) * R_, src + i * R_) > 0) ordered = false;
    });
    if (!ordered) {
      in_order_ = watching_ = false;
      last_ = {};
      return;
    }
    last_.assign(src + (n - 1) * R_, src + n * R_);
    watched_ = first + n;
  }

private:
  const KeyNormalizer& norm_;
  const std::uint32_t R_;
  bool watching_ = true, in_order_ = true;
  std::vector<std::byte> last_;
  std::uint64_t watched_ = 0;  // records of the transfer checked
};

class DeviceWindow {
public:
  // R-byte records; a sort holds `device_records`; `host_budget` bytes of
  // host memory for runs. No window under 16 records.
  DeviceWindow(const KeyNormalizer& norm, std::uint32_t R, std::uint64_t device_records, std::uint64_t host_budget,
               bool unique)
      : norm_(norm),
        R_(R),
        unique_(unique),
        capacity_(std::min(device_records / 4, host_budget / 2 / R)),
        spacing_(std::max<std::uint64_t>(1, device_records / kSamples)) {
    if (capacity_ < 16) capacity_ = 0;
  }

  std::uint64_t capacity() const noexcept { return capacity_; }
  std::uint64_t bytes() const noexcept { return capacity_ * R_; }

  // --- whether the input looks nearly sorted: a sample of the first chunk ---

  // Records [first, first + n) of the first chunk, in the order read (at src).
  void sample(const std::byte* src, std::uint64_t first, std::uint64_t n) {
    if (capacity_ == 0) return;
    for (std::uint64_t i = (first + spacing_ - 1) / spacing_ * spacing_; i < first + n; i += spacing_)
      samples_.insert(samples_.end(), src + (i - first) * R_, src + (i - first + 1) * R_);
  }
  bool nearly_sorted() const {
    const std::uint64_t m = samples_.size() / R_;
    if (capacity_ == 0 || m == 0) return false;
    std::vector<std::uint64_t> order(m);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
      return norm_.compare(samples_.data() + a * R_, samples_.data() + b * R_) < 0;
    });
    std::uint64_t far = 0;
    for (std::uint64_t rank = 0; rank < m; ++rank) {
      const std::uint64_t read = order[rank];
      far += (read > rank ? read - rank : rank - read) * spacing_ > capacity_;
    }
    return far * 4 <= m;
  }

  void start() {
    buffer_.resize(bytes());
    samples_ = {};
    active_ = true;
  }
  void stop() noexcept {
    active_ = false;
    held_ = 0;
    std::vector<std::byte>().swap(buffer_);
  }
  bool active() const noexcept { return active_; }

  // --- the output's last record ---

  void emitted(const std::byte* record) {
    last_.assign(record, record + R_);
  }
  // Of records [src, src + n R) about to be sorted, how many lie below the
  // output's last record (an upper bound of those that will be late: -u may
  // drop some of them).
  std::uint64_t below_output(const std::byte* src, std::uint64_t n, io::WorkerPool& pool) const {
    if (last_.empty() || n == 0) return 0;
    std::atomic<std::uint64_t> below = 0;
    pool.for_ranges(n, std::uint64_t{1} << 16, 1, [&](std::uint64_t b, std::uint64_t e) {
      std::uint64_t k = 0;
      for (std::uint64_t i = b; i < e; ++i) k += norm_.compare(src + i * R_, last_.data()) < 0;
      below += k;
    });
    return below;
  }

  // --- the records held, uploaded ahead of each chunk ---

  std::uint64_t held() const noexcept { return held_; }
  const std::byte* held_records() const noexcept { return buffer_.data(); }

  // --- routing a sorted chunk (n records after the device's -u) ---

  // A sorted chunk of n records starts coming back; its last `keep` (at most
  // the capacity) stay in the window, the window's old records being in it.
  void begin_chunk(std::uint64_t n, std::uint64_t keep) {
    if (keep > capacity_ || keep > n) throw std::logic_error("window over its capacity");
    body_end_ = n - keep;
    held_ = 0;
    scanning_ = !last_.empty();
  }
  // Records [first, first + count) of the sorted chunk, at src: late ones to
  // late(src, k), the output's to out(src, k) (after which the output's last
  // record is the last of them), the window's kept.
  template <class Late, class Out>
  void route(const std::byte* src, std::uint64_t first, std::uint64_t count, Late&& late, Out&& out) {
    std::uint64_t i = 0;
    if (scanning_) {
      i = lower_bound(src, count);
      if (i) late(src, i);
      if (i < count) {
        scanning_ = false;
        if (unique_ && norm_.compare(src + i * R_, last_.data()) == 0) ++i;  // the device kept one of these
      }
    }
    const std::uint64_t to_out = std::min(count, body_end_ > first ? body_end_ - first : 0);
    if (to_out > i) {
      out(src + i * R_, to_out - i);
      i = to_out;
    }
    if (i < count) {
      std::memcpy(buffer_.data() + held_ * R_, src + i * R_, (count - i) * R_);
      held_ += count - i;
    }
  }

private:
  static constexpr std::uint64_t kSamples = 4096;

  // The first of count sorted records at src not below the output's last.
  std::uint64_t lower_bound(const std::byte* src, std::uint64_t count) const {
    std::uint64_t lo = 0, hi = count;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (norm_.compare(src + mid * R_, last_.data()) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  const KeyNormalizer& norm_;
  const std::uint32_t R_;
  const bool unique_;
  std::uint64_t capacity_;
  const std::uint64_t spacing_;  // of the first chunk's sample
  std::vector<std::byte> samples_;
  std::vector<std::byte> buffer_;  // the window's records, sorted
  std::uint64_t held_ = 0;
  std::vector<std::byte> last_;  // the output's last record (empty: none yet)
  bool active_ = false;
  std::uint64_t body_end_ = 0;  // records of the chunk routed to the output or late
  bool scanning_ = false;       // the chunk's records below the output's last may still come
};

}  // namespace corank
