#pragma once
// The process's worker threads: every fork-join loop of corank (parallel_for,
// io::WorkerPool, the parallel appends and reads of io/) runs its parts on
// them instead of starting threads per call. ThreadPool::shared() starts them
// on first use and joins them at exit.
//
// A job of n parts is queued; idle workers take parts from the queue and the
// caller takes parts of its own job until none is left, then waits for the
// parts others took. So:
//  - any number of threads may run jobs at once, each finishing its own;
//  - a part may run a job itself (nesting): its thread runs that job's parts
//    and waits only for parts other threads took, which are running (a
//    waiting thread takes no other job's parts, so no wait comes back to it,
//    and no stranger's part re-enters its thread_local scratch);
//  - n may exceed the free threads: parts queue. The price is that parts do
//    not all run at the same time, so a part must never wait for another part
//    of its job (a barrier, a spin on a flag another part sets): with fewer
//    free threads than parts that wait never ends.
// A pool may grow: a job of more parts than it has threads starts workers up
// to a limit, so that `--parallel N` above the core count still means N
// threads at once (they are kept for later jobs).
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace corank::io {

// A non-owning reference to a callable taking a part number: run() returns
// only when its parts have, so a callable passed to it (a temporary
// included) outlives them.
class PartFunction {
public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, PartFunction> && std::is_invocable_v<F&, unsigned>)
  PartFunction(F&& f) noexcept  // NOLINT(google-explicit-constructor)
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, unsigned part) { (*static_cast<std::remove_reference_t<F>*>(o))(part); }) {}
  void operator()(unsigned part) const { call_(object_, part); }

private:
  void* object_;
  void (*call_)(void*, unsigned);
};

class ThreadPool {
public:
  // `workers` threads besides the callers of run(), more started as jobs ask
  // (one fewer than a job's parts) up to `max_workers`; with none, run() runs
  // every part on its caller.
  explicit ThreadPool(unsigned workers, unsigned max_workers = 0);
  // Runs the parts still queued, then joins the workers. Jobs of the shared
  // pool must have ended by then: a static object that runs one from its
  // destructor calls shared() in its constructor, so the pool outlives it.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // The process's pool: hardware_concurrency() - 1 workers (at least one),
  // the caller of run() being the last thread, growing to at most
  // kMaxSharedWorkers. Started on first call.
  static ThreadPool& shared();
  static constexpr unsigned kMaxSharedWorkers = 255;

  // Threads started so far.
  unsigned workers();

  // Runs f(0) .. f(parts - 1), each once, f(0) on the caller; returns when all
  // are done and rethrows the first exception one of them threw (the other
  // parts still run).
  void run(unsigned parts, PartFunction f);

private:
  struct Job;
  void work();
  // Takes the next part of `job` (lock held), runs it unlocked, and counts it.
  void run_next(Job& job, std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job*> queue_;  // jobs with parts nobody took yet, oldest first
  unsigned idle_ = 0;       // workers waiting for a job
  const unsigned max_workers_;
  bool stop_ = false;
  std::vector<std::thread> workers_;  // last: started once the members above exist
};

}  // namespace corank::io
