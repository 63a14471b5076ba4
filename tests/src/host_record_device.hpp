#pragma once
// A RecordDevice that sorts in host memory exactly as the GPU's RecordSorter
// promises to, for tests of the device pipeline's host side. It checks what
// the pipeline promises it: merge slabs are sorted segments within capacity.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "corank/gpu_backend.hpp"
#include "corank/normalize.hpp"

namespace corank::test {

class HostRecordDevice final : public RecordDevice {
public:
  HostRecordDevice(const RecordFormat& format, std::uint64_t capacity, std::uint64_t slot_records)
      : norm_(format), R_(format.record_size), C_(capacity), slot_(slot_records), in_(capacity * R_),
        out_(capacity * R_) {}

  std::uint64_t capacity() const override { return C_; }
  std::uint64_t staging_bytes() const override { return 2 * slot_ * R_; }

  std::uint64_t upload(std::uint64_t at, std::uint64_t max, const Fill& fill) override {
    max = std::min(max, C_ - at);
    std::uint64_t done = 0;
    while (done < max) {
      const std::uint64_t want = std::min(slot_, max - done);
      const std::uint64_t got = fill(in_.data() + (at + done) * R_, done, want);
      done += got;
      if (got < want) break;
    }
    uploads_ += done;
    return done;
  }

  void arrange(std::span<const Piece> pieces) override {
    std::uint64_t to = 0;
    for (const Piece& p : pieces) {
      EXPECT_LE(p.at + p.count, C_);
      EXPECT_LE(to + p.count, C_);
      std::memcpy(out_.data() + to * R_, in_.data() + p.at * R_, p.count * R_);
      to += p.count;
    }
    in_.swap(out_);
    ++arranged_;
  }

  std::uint64_t sort(std::uint64_t n, std::span<const std::uint64_t> ends, KeepEqual keep) override {
    EXPECT_LE(n, C_);
    if (n == 0) return 0;
    std::vector<std::uint64_t> key(n * W()), order(n);
    for (std::uint64_t i = 0; i < n; ++i) norm_.normalize(in_.data() + i * R_, key.data() + i * W());
    auto less = [&](std::uint64_t a, std::uint64_t b) {
      return std::lexicographical_compare(key.begin() + a * W(), key.begin() + (a + 1) * W(), key.begin() + b * W(),
                                          key.begin() + (b + 1) * W());
    };
    auto equal = [&](const std::uint64_t* a, const std::uint64_t* b) { return std::equal(a, a + W(), b); };
    if (!ends.empty()) {
      EXPECT_EQ(ends.back(), n);
      std::uint64_t b = 0;
      for (std::uint64_t e : ends) {  // each segment arrives sorted
        for (std::uint64_t i = b + 1; i < e; ++i) EXPECT_FALSE(less(i, i - 1)) << "segment not sorted at " << i;
        b = e;
      }
      ++merges_;
      max_segments_ = std::max<std::uint64_t>(max_segments_, ends.size());
    }
    for (std::uint64_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), less);
    std::uint64_t kept = 0;
    for (std::uint64_t j = 0; j < n; ++j) {
      const std::uint64_t* k = key.data() + order[j] * W();
      if (keep != KeepEqual::all) {
        const bool have = j > 0 || (keep == KeepEqual::continued && have_prev_);
        if (have && equal(k, prev_.data())) continue;
        prev_.assign(k, k + W());
        have_prev_ = true;
      }
      std::memcpy(out_.data() + kept++ * R_, in_.data() + order[j] * R_, R_);
    }
    return kept;
  }

  void download(std::uint64_t count, const Drain& drain) override {
    for (std::uint64_t i = 0; i < count; i += slot_) drain(out_.data() + i * R_, i, std::min(slot_, count - i));
  }

  GpuTimes times() const override { return {}; }
  std::string describe() const override { return "host"; }

  std::uint64_t uploads_ = 0, merges_ = 0, max_segments_ = 0, arranged_ = 0;

private:
  unsigned W() const { return norm_.words(); }
  KeyNormalizer norm_;
  std::uint32_t R_;
  std::uint64_t C_, slot_;
  std::vector<std::byte> in_, out_;
  std::vector<std::uint64_t> prev_;
  bool have_prev_ = false;
};

}  // namespace corank::test
