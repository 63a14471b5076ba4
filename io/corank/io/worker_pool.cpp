#include "corank/io/worker_pool.hpp"

#include <algorithm>
#include <utility>

namespace corank::io {

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned i = 1; i < std::max(1u, threads); ++i) workers_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : workers_) t.join();
}

void WorkerPool::run_parts() {
  std::unique_lock lock(mutex_);
  while (job_ != nullptr && next_ < parts_) {
    const unsigned part = next_++;
    const auto* job = job_;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*job)(part);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && !error_) error_ = error;
    if (++finished_ == parts_) done_.notify_all();
  }
}

void WorkerPool::work() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    run_parts();
  }
}

void WorkerPool::run(unsigned parts, const std::function<void(unsigned)>& f) {
  if (parts == 0) return;
  if (parts == 1 || workers_.empty()) {
    for (unsigned i = 0; i < parts; ++i) f(i);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    job_ = &f;
    parts_ = parts;
    next_ = 0;
    finished_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  start_.notify_all();
  run_parts();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return finished_ == parts_; });
  job_ = nullptr;
  if (std::exception_ptr e = std::exchange(error_, nullptr)) std::rethrow_exception(e);
}

void WorkerPool::for_ranges(std::uint64_t n, std::uint64_t min_each, std::uint64_t unit,
                            const std::function<void(std::uint64_t, std::uint64_t)>& f) {
  if (n == 0) return;
  unit = std::max<std::uint64_t>(unit, 1);
  const std::uint64_t units = (n + unit - 1) / unit;
  const auto parts = static_cast<unsigned>(
      std::clamp<std::uint64_t>(n / std::max<std::uint64_t>(min_each, 1), 1, std::min<std::uint64_t>(size(), units)));
  run(parts, [&](unsigned p) {
    const std::uint64_t b = std::min(n, units * p / parts * unit), e = std::min(n, units * (p + 1) / parts * unit);
    if (e > b) f(b, e);
  });
}

}  // namespace corank::io
