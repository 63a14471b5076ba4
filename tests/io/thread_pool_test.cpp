// io::ThreadPool: each part once, f(0) on the caller, the first exception
// rethrown after every part ran, any number of callers at once, nested jobs,
// more parts than threads. A job that never ends fails its test after a
// deadline instead of hanging the suite.
#include "corank/io/thread_pool.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>
#include "../asan_build.hpp"

namespace corank::io::test {
namespace {

using namespace std::chrono_literals;

// Runs f on a thread of its own; if it has not returned after `limit`, the
// test fails and the process ends (a deadlocked pool could not be joined).
void finishes_within(std::chrono::seconds limit, std::function<void()> f) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([f = std::move(f), done] {
    try {
      f();
      done->set_value();
    } catch (...) {
      done->set_exception(std::current_exception());
    }
  }).detach();
  if (finished.wait_for(limit) != std::future_status::ready) {
    ADD_FAILURE() << "a job did not finish within " << limit.count() << " s (deadlock)";
    std::fflush(nullptr);
    std::_Exit(1);
  }
  finished.get();
}

// Runs a job of `parts` parts and checks that each ran once and part 0 on the caller.
void expect_each_part_once(ThreadPool& pool, unsigned parts) {
  std::vector<std::atomic<int>> runs(parts);
  std::atomic<bool> zero_on_caller{false};
  const auto caller = std::this_thread::get_id();
  pool.run(parts, [&](unsigned p) {
    ASSERT_LT(p, parts);
    runs[p].fetch_add(1);
    if (p == 0) zero_on_caller = std::this_thread::get_id() == caller;
  });
  for (unsigned p = 0; p < parts; ++p) ASSERT_EQ(runs[p].load(), 1) << "part " << p << " of " << parts;
  if (parts > 0) EXPECT_TRUE(zero_on_caller) << parts << " parts";
}

// Parts that each wait (up to a deadline) until all of them run: they do
// only when the pool has a thread for each besides the caller.
unsigned parts_running_together(ThreadPool& pool, unsigned parts) {
  std::atomic<unsigned> arrived{0}, together{0};
  pool.run(parts, [&](unsigned) {
    arrived.fetch_add(1);
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (arrived.load() < parts && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    if (arrived.load() == parts) together.fetch_add(1);
  });
  return together.load();
}

TEST(ThreadPool, RunsEachPartOnceFromZeroToManyMoreThanItsThreads) {
  for (unsigned workers : {0u, 1u, 3u}) {
    ThreadPool pool(workers);
    EXPECT_EQ(pool.workers(), workers);
    for (unsigned parts : {0u, 1u, 2u, workers, workers + 1, workers + 2, 17u, 1000u})
      expect_each_part_once(pool, parts);
  }
}

TEST(ThreadPool, RunsPartsOnItsWorkersAtTheSameTimeAndStartsNoOtherThreads) {
  ThreadPool pool(2);
  std::mutex m;
  std::set<long> seen;  // kernel thread ids: not reused as soon as a thread exits
  for (int job = 0; job < 50; ++job) {
    ASSERT_EQ(parts_running_together(pool, 3), 3u) << "job " << job;  // both workers join the caller
    pool.run(3, [&](unsigned) {
      std::lock_guard lock(m);
      seen.insert(::syscall(SYS_gettid));
    });
  }
  EXPECT_LE(seen.size(), 3u);  // the caller and the two workers, every time
}

TEST(ThreadPool, GrowsToAJobsPartsUpToItsLimit) {
  ThreadPool pool(1, 4);
  EXPECT_EQ(pool.workers(), 1u);
  EXPECT_EQ(parts_running_together(pool, 3), 3u);
  EXPECT_EQ(pool.workers(), 2u);
  EXPECT_EQ(parts_running_together(pool, 5), 5u);
  EXPECT_EQ(pool.workers(), 4u);
  expect_each_part_once(pool, 40);  // beyond the limit: parts queue
  EXPECT_EQ(pool.workers(), 4u);
  ThreadPool fixed(2);
  expect_each_part_once(fixed, 40);
  EXPECT_EQ(fixed.workers(), 2u);
}

TEST(ThreadPool, RethrowsTheFirstExceptionAfterEveryPartRan) {
  for (unsigned workers : {0u, 2u}) {
    ThreadPool pool(workers);
    for (unsigned thrower : {0u, 1u, 7u}) {
      std::atomic<unsigned> ran{0};
      try {
        pool.run(8, [&](unsigned p) {
          ran.fetch_add(1);
          if (p == thrower) throw std::runtime_error("part " + std::to_string(p));
        });
        ADD_FAILURE() << "no exception";
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "part " + std::to_string(thrower));
      }
      EXPECT_EQ(ran.load(), 8u);
    }
    // Every part throwing: one of their exceptions comes back, and the pool
    // still works afterwards.
    EXPECT_THROW(pool.run(8, [](unsigned) { throw std::logic_error("each"); }), std::logic_error);
    expect_each_part_once(pool, 9);
  }
}

TEST(ThreadPool, ManyCallersAtOnceEachGetTheirOwnJobDone) {
  ThreadPool pool(2);
  finishes_within(120s, [&] {
    std::vector<std::thread> callers;
    std::atomic<int> wrong{0};
    for (unsigned c = 0; c < 8; ++c)
      callers.emplace_back([&, c] {
        for (unsigned job = 0; job < 200; ++job) {
          const unsigned parts = 1 + (c * 7 + job) % 13;
          std::vector<std::atomic<int>> runs(parts);
          pool.run(parts, [&](unsigned p) { runs[p].fetch_add(1); });
          for (auto& r : runs)
            if (r.load() != 1) wrong.fetch_add(1);
        }
      });
    for (auto& t : callers) t.join();
    EXPECT_EQ(wrong.load(), 0);
  });
}

// Parts that run jobs of their own, three deep, on pools smaller than any level.
TEST(ThreadPool, NestedJobsFinishWhateverThePoolsSize) {
  for (unsigned workers : {0u, 1u, 2u}) {
    ThreadPool pool(workers);
    finishes_within(60s, [&] {
      std::atomic<unsigned> leaves{0};
      auto nested = [&] {
        pool.run(4, [&](unsigned) {
          pool.run(5, [&](unsigned) { pool.run(3, [&](unsigned) { leaves.fetch_add(1); }); });
        });
      };
      nested();
      EXPECT_EQ(leaves.load(), 4u * 5 * 3) << workers << " workers";
      // Two callers nesting at once on the same few threads.
      leaves = 0;
      std::thread other(nested);
      nested();
      other.join();
      EXPECT_EQ(leaves.load(), 2u * 4 * 5 * 3) << workers << " workers";
    });
  }
}

TEST(ThreadPool, JoinsItsWorkersWhenDestroyed) {
  finishes_within(30s, [] {
    for (int i = 0; i < 20; ++i) {
      ThreadPool pool(3);
      if (i % 2) expect_each_part_once(pool, 10);
    }
  });
}

// Under an address-space limit that holds a few thread stacks, not sixteen,
// the pool starts with the threads it gets and runs its jobs on them: a
// constructor that threw with threads running would end the process
// (std::terminate), as it once did on a 16-core machine under ulimit -v.
//
// The limited part runs in a process of its own, this test's binary started
// again (CORANK_TEST_POOL_UNDER_LIMIT set): glibc gives a forked child the
// stacks of its parent's other threads to reuse, and where earlier tests of
// the same process had started the shared pool's sixteen threads, a forked
// child started its sixteen on those stacks, under any limit.
[[noreturn]] void start_a_pool_under_an_address_limit() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (!f || std::fscanf(f, "%llu", &pages) != 1) ::_exit(3);
  std::fclose(f);
  // Threads get 8 MiB stacks here whatever ulimit -s says, and the limit
  // leaves room for about three beyond what is mapped now.
  pthread_attr_t attr;
  if (::pthread_attr_init(&attr) != 0 || ::pthread_attr_setstacksize(&attr, std::size_t{8} << 20) != 0 ||
      ::pthread_setattr_default_np(&attr) != 0)
    ::_exit(7);
  const rlim_t limit = pages * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (rlim_t{26} << 20);
  const rlimit l{limit, limit};
  if (::setrlimit(RLIMIT_AS, &l) != 0) ::_exit(4);
  {
    ThreadPool pool(16);
    if (pool.workers() >= 16) {  // the limit did not bite: the test proves nothing
      std::fprintf(stderr, "%u workers under a limit of %llu bytes (%llu pages mapped before)\n", pool.workers(),
                   static_cast<unsigned long long>(limit), pages);
      ::_exit(5);
    }
    std::atomic<unsigned> ran{0};
    pool.run(40, [&](unsigned) { ran.fetch_add(1); });
    if (ran.load() != 40) ::_exit(6);
  }
  ::_exit(0);
}

TEST(ThreadPool, StartsWithTheThreadsTheSystemGives) {
#ifdef CORANK_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space";
#endif
  if (std::getenv("CORANK_TEST_POOL_UNDER_LIMIT")) start_a_pool_under_an_address_limit();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setenv("CORANK_TEST_POOL_UNDER_LIMIT", "1", 1);
    ::execl("/proc/self/exe", "/proc/self/exe", "--gtest_filter=ThreadPool.StartsWithTheThreadsTheSystemGives",
            static_cast<char*>(nullptr));
    ::_exit(8);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  // 3, 4, 7: the process could not set up; 5: the limit left room for 16
  // threads (what it saw is on stderr); 6: a job did not run every part; 8:
  // the binary could not be started again.
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ThreadPool, SharedIsOnePoolWithAtLeastOneWorker) {
  ThreadPool& a = ThreadPool::shared();
  EXPECT_EQ(&a, &ThreadPool::shared());
  EXPECT_GE(a.workers(), 1u);
  expect_each_part_once(a, a.workers() + 5);
}

}  // namespace
}  // namespace corank::io::test
