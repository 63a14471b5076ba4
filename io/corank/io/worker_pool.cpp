#include "corank/io/worker_pool.hpp"

#include <algorithm>

#include "corank/io/thread_pool.hpp"

namespace corank::io {

void WorkerPool::run(unsigned parts, const std::function<void(unsigned)>& f) {
  ThreadPool::shared().run(parts, f);
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
