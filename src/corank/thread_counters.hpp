#pragma once
// Counters that one thread adds to while others add to theirs: each thread's
// lie a cache line away from any other allocation. Counters of two threads
// on one line make the threads take turns for the line at every increment
// (false sharing); small vectors allocated one after another share lines,
// and a loop that adds to one per record then runs at the speed of that
// exchange, some hundred nanoseconds a record, instead of its work's.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace corank {

class ThreadCounters {
public:
  explicit ThreadCounters(std::size_t n = 0) : v_(n + 2 * kPad, 0) {}

  std::uint64_t& operator[](std::size_t i) noexcept { return v_[kPad + i]; }
  std::uint64_t operator[](std::size_t i) const noexcept { return v_[kPad + i]; }
  std::uint64_t* data() noexcept { return v_.data() + kPad; }

private:
  static constexpr std::size_t kPad = 64 / sizeof(std::uint64_t);  // a line of 64 bytes on each side
  std::vector<std::uint64_t> v_;
};

}  // namespace corank
