#pragma once
// parallel_for(n, f): runs f(0) .. f(n-1) on n threads (f(0) on the caller) and
// rethrows the first exception any of them threw once all have finished.
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace corank {

template <class F>
void parallel_for(unsigned n, F&& f) {
  if (n <= 1) {
    if (n == 1) f(0u);
    return;
  }
  std::exception_ptr error;
  std::mutex error_mutex;
  auto guarded = [&](unsigned i) {
    try {
      f(i);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> workers;
    workers.reserve(n - 1);
    for (unsigned i = 1; i < n; ++i) workers.emplace_back(guarded, i);
    guarded(0);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace corank
