#pragma once
// One long-lived thread that runs tasks in the order they were handed over:
// the background reader or writer of a sort. It replaces a new
// std::async(std::launch::async) thread per chunk, and is needed, not only
// cheaper: an io_uring request belongs to the thread that submitted it. A
// buffered read that has to wait for the disk is finished in that thread's
// context, and if the thread has exited by then the kernel fails it with
// EFAULT ("Bad address"). A reader or writer whose requests stay in flight
// between calls (read-ahead, write-behind) must therefore be driven by one
// thread that outlives them. (UringEngine checks that it is.)
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

namespace corank::io {

class TaskThread {
public:
  TaskThread() : thread_([this] { loop(); }) {}
  // Runs the tasks already handed over, then ends the thread.
  ~TaskThread() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  TaskThread(const TaskThread&) = delete;
  TaskThread& operator=(const TaskThread&) = delete;

  // Queues f; its result (or exception) comes back through the future. Unlike
  // std::async's, the future does not wait when destroyed: a scope whose
  // state the tasks touch holds a Drain (declared after that state).
  template <class F>
  std::future<std::invoke_result_t<F&>> run(F f) {
    using R = std::invoke_result_t<F&>;
    auto task = std::make_shared<std::packaged_task<R()>>(std::move(f));
    std::future<R> result = task->get_future();
    {
      std::lock_guard lock(mutex_);
      tasks_.emplace_back([task] { (*task)(); });
      ++unfinished_;
    }
    wake_.notify_one();
    return result;
  }

  // Waits until every task handed over has finished.
  void drain() noexcept {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return unfinished_ == 0; });
  }

  // Drains the thread when the scope that owns its tasks' state ends, an
  // exception included.
  class [[nodiscard]] Drain {
  public:
    explicit Drain(TaskThread& t) noexcept : t_(t) {}
    Drain(const Drain&) = delete;
    Drain& operator=(const Drain&) = delete;
    ~Drain() { t_.drain(); }

  private:
    TaskThread& t_;
  };

private:
  void loop() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();  // a packaged_task: its exception goes to its future
      {
        std::lock_guard lock(mutex_);
        --unfinished_;
      }
      idle_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<std::function<void()>> tasks_;
  std::size_t unfinished_ = 0;  // handed over and not yet finished
  bool stop_ = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace corank::io
