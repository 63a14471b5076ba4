#include "corank/io/thread_pool.hpp"

#include <algorithm>
#include <exception>
#include <system_error>

namespace corank::io {

struct ThreadPool::Job {
  Job(PartFunction f, unsigned parts) noexcept : f(f), parts(parts) {}
  PartFunction f;
  unsigned parts;
  unsigned next = 0;      // the first part nobody took
  unsigned finished = 0;  // parts that returned or threw
  bool queued = false;    // in queue_ until its last part is taken
  std::exception_ptr error;
  std::condition_variable done;
};

ThreadPool::ThreadPool(unsigned workers, unsigned max_workers) : max_workers_(std::max(workers, max_workers)) {
  std::lock_guard lock(mutex_);
  // Where the system starts fewer (an address-space or process limit), the
  // pool begins with those it got and run() tries again as jobs come: a
  // thread left running here when the constructor threw would end the
  // process (std::thread's destructor calls std::terminate).
  try {
    for (unsigned i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  } catch (const std::system_error&) {
  }
}

unsigned ThreadPool::workers() {
  std::lock_guard lock(mutex_);
  return static_cast<unsigned>(workers_.size());
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

ThreadPool& ThreadPool::shared() {
  static ThreadPool pool(std::max(2u, std::thread::hardware_concurrency()) - 1, kMaxSharedWorkers);
  return pool;
}

void ThreadPool::run_next(Job& job, std::unique_lock<std::mutex>& lock) {
  const unsigned part = job.next++;
  if (job.next == job.parts && job.queued) {
    queue_.erase(std::find(queue_.begin(), queue_.end(), &job));
    job.queued = false;
  }
  lock.unlock();
  std::exception_ptr error;
  try {
    job.f(part);
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  if (error && !job.error) job.error = error;
  // Notified under the lock: once the caller sees the count, `job` is gone.
  if (++job.finished == job.parts) job.done.notify_one();
}

void ThreadPool::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    ++idle_;
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    --idle_;
    if (queue_.empty()) return;  // stopping, and every queued part taken
    run_next(*queue_.front(), lock);
  }
}

void ThreadPool::run(unsigned parts, PartFunction f) {
  if (parts <= 1) {
    if (parts == 1) f(0);
    return;
  }
  Job job(f, parts);
  std::unique_lock lock(mutex_);
  // Started under the lock: they take parts once run() waits or lets go of it.
  // Where the system starts no more, the job runs on the threads there are.
  const std::size_t wanted = std::min<std::size_t>(parts - 1, max_workers_);
  try {
    while (workers_.size() < wanted) workers_.emplace_back([this] { work(); });
  } catch (const std::system_error&) {
  }
  if (!workers_.empty()) {
    queue_.push_back(&job);
    job.queued = true;
    // Busy workers look at the queue before they wait again: wake only idle ones.
    for (unsigned i = std::min(parts - 1, idle_); i > 0; --i) wake_.notify_one();
  }
  // The caller takes part 0 before it lets go of the lock, then whatever is left.
  while (job.next < job.parts) run_next(job, lock);
  job.done.wait(lock, [&] { return job.finished == job.parts; });
  lock.unlock();
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace corank::io
