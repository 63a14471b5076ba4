// parallel_for over the process's thread pool: its contract (each part once,
// f(0) on the caller, the first exception rethrown after all parts ran), the
// uses the sort makes of it (a background reader's calls alongside the main
// thread's, calls from within a part), and no thread started per call.
#include "corank/parallel.hpp"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include "corank/io/task_thread.hpp"
#include "corank/io/thread_pool.hpp"

namespace corank {
namespace {

// Kernel thread ids: unlike std::thread::id, not handed to the next thread
// as soon as one exits.
long kernel_tid() { return ::syscall(SYS_gettid); }

unsigned pool_threads() { return io::ThreadPool::shared().workers() + 1; }

void expect_each_part_once(unsigned n) {
  std::vector<std::atomic<int>> runs(n);
  const long caller = kernel_tid();
  long zero = 0;
  parallel_for(n, [&](unsigned i) {
    runs[i].fetch_add(1);
    if (i == 0) zero = kernel_tid();
  });
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(runs[i].load(), 1) << "part " << i << " of " << n;
  if (n > 0) EXPECT_EQ(zero, caller);
}

TEST(ParallelFor, RunsEachPartOnceForAnyCount) {
  const unsigned t = pool_threads();
  for (unsigned n : {0u, 1u, 2u, t - 1, t, t + 1, 4 * t + 3, io::ThreadPool::kMaxSharedWorkers + 9})
    expect_each_part_once(n);
}

TEST(ParallelFor, RethrowsTheFirstExceptionOnceAllPartsRan) {
  std::atomic<unsigned> ran{0};
  EXPECT_THROW(parallel_for(9, [&](unsigned i) {
                 ran.fetch_add(1);
                 if (i == 4) throw std::out_of_range("four");
               }),
               std::out_of_range);
  EXPECT_EQ(ran.load(), 9u);
  ran = 0;
  EXPECT_THROW(parallel_for(1, [&](unsigned) { throw std::out_of_range("alone"); }), std::out_of_range);
}

TEST(ParallelFor, StartsNoThreadPerCall) {
  std::mutex m;
  std::set<long> seen;
  const unsigned n = pool_threads() + 2;  // the pool grows to n threads, once
  for (int call = 0; call < 100; ++call)
    parallel_for(n, [&](unsigned) {
      std::lock_guard lock(m);
      seen.insert(kernel_tid());
    });
  EXPECT_LE(seen.size(), n);
}

// A background thread's calls (the sort's chunk reader) alongside the main
// thread's, each calling again from within its parts.
TEST(ParallelFor, CallsFromSeveralThreadsAndFromWithinParts) {
  io::TaskThread background;
  const unsigned m = pool_threads() + 1;
  auto nested_sum = [m] {
    std::atomic<std::uint64_t> sum{0};
    for (int round = 0; round < 50; ++round)
      parallel_for(3, [&](unsigned i) { parallel_for(m, [&](unsigned j) { sum.fetch_add(i * 100 + j); }); });
    return sum.load();
  };
  const std::uint64_t expect = 50 * (std::uint64_t{m} * (0 + 100 + 200) + 3 * (std::uint64_t{m} * (m - 1) / 2));
  auto there = background.run(nested_sum);
  EXPECT_EQ(nested_sum(), expect);
  EXPECT_EQ(there.get(), expect);
}

}  // namespace
}  // namespace corank
