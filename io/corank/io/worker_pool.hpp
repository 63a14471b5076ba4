#pragma once
// The width of a pipeline's fork-join steps: run(n, f) and for_ranges() split
// work into parts for the process's thread pool (thread_pool.hpp), for_ranges
// into at most size() of them. It holds no threads of its own, so a job costs
// a wake-up of threads started once, and several pipelines (or threads of one)
// may run jobs at the same time.
#include <cstdint>
#include <functional>

namespace corank::io {

class WorkerPool {
public:
  // At least 1.
  explicit WorkerPool(unsigned threads) noexcept : threads_(threads > 0 ? threads : 1) {}

  unsigned size() const noexcept { return threads_; }

  // Runs f(0) .. f(parts - 1), each once, on the thread pool and the caller;
  // returns when all are done and rethrows the first exception one of them
  // threw.
  void run(unsigned parts, const std::function<void(unsigned)>& f);

  // Splits [0, n) into up to size() ranges of at least min_each (and whole
  // multiples of `unit`) and runs f(begin, end) on each.
  void for_ranges(std::uint64_t n, std::uint64_t min_each, std::uint64_t unit,
                  const std::function<void(std::uint64_t, std::uint64_t)>& f);

private:
  unsigned threads_;
};

}  // namespace corank::io
