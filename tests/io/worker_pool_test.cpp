// io::WorkerPool, a width over the process's thread pool: for_ranges covers
// [0, n) once in whole units, and pools (or threads of one) run jobs at once.
#include "corank/io/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace corank::io::test {
namespace {

TEST(WorkerPool, ForRangesCoversEveryIndexOnceInWholeUnits) {
  for (unsigned threads : {1u, 3u, 16u})
    for (std::uint64_t n : {0ull, 1ull, 7ull, 4096ull, 100003ull}) {
      WorkerPool pool(threads);
      std::vector<std::atomic<int>> seen(n);
      std::atomic<unsigned> ranges{0};
      pool.for_ranges(n, 100, 8, [&](std::uint64_t b, std::uint64_t e) {
        ranges.fetch_add(1);
        EXPECT_EQ(b % 8, 0u);
        EXPECT_TRUE(e % 8 == 0 || e == n);
        for (std::uint64_t i = b; i < e; ++i) seen[i].fetch_add(1);
      });
      for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(seen[i].load(), 1) << i << " of " << n;
      EXPECT_LE(ranges.load(), threads);
    }
}

TEST(WorkerPool, PoolsRunJobsAtTheSameTime) {
  WorkerPool a(4), b(4);
  std::atomic<std::uint64_t> sum{0};
  auto jobs = [&sum](WorkerPool& pool) {
    for (int j = 0; j < 300; ++j) pool.run(5, [&](unsigned p) { sum.fetch_add(p + 1); });
  };
  std::thread other([&] { jobs(b); });
  std::thread third([&] { jobs(a); });  // the same pool from a second thread
  jobs(a);
  other.join();
  third.join();
  EXPECT_EQ(sum.load(), 3u * 300 * 15);
}

}  // namespace
}  // namespace corank::io::test
