#pragma once
// A fixed set of threads that run the parts of one job at a time: the caller
// hands run(n, f) a job of n parts, takes part in it, and gets it back when
// every part is done. Threads are started once, so a job costs a wake-up, not
// a thread start: the transfer pipeline runs one job per staging slot.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace corank::io {

class WorkerPool {
public:
  // threads - 1 workers; the caller of run() is the last one. At least 1.
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

  // Runs f(0) .. f(parts - 1), each once, on the pool's threads and the
  // caller's; returns when all are done and rethrows the first exception one
  // of them threw. Not reentrant: one job at a time.
  void run(unsigned parts, const std::function<void(unsigned)>& f);

  // Splits [0, n) into up to size() ranges of at least min_each (and whole
  // multiples of `unit`) and runs f(begin, end) on each.
  void for_ranges(std::uint64_t n, std::uint64_t min_each, std::uint64_t unit,
                  const std::function<void(std::uint64_t, std::uint64_t)>& f);

private:
  void work();
  // Takes and runs parts of the current job until none is left.
  void run_parts();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned parts_ = 0, next_ = 0, finished_ = 0;
  std::uint64_t generation_ = 0;
  std::exception_ptr error_;
  bool stop_ = false;
};

}  // namespace corank::io
