#pragma once
// Write-behind: hands a finished buffer to a background thread and returns, so
// the next buffer is computed while this one is written. The thread is one
// TaskThread for the writer's life: a sink's writes may still be in flight
// when its write() returns (io_engine.hpp). One write is in flight
// at a time and writes complete in the order they were issued; a caller that
// alternates two buffers may refill a buffer once the write after it was issued.
//
// Beside WriteBehindSink (write_behind_sink.hpp): that is a sink over a
// regular file with blocks in flight in the engine; this overlaps a caller's
// whole-buffer writes to any ByteSink, one of those included, with the
// caller's next work.
//
// The write in flight uses a sink and a buffer that the caller owns. Whoever
// owns them holds a Drain over the same scope (declared after them), so that
// whichever way the scope ends, an exception included, no write outlives them.
#include <chrono>
#include <cstddef>
#include <future>

#include "corank/io/source.hpp"
#include "corank/io/task_thread.hpp"

namespace corank::io {

class WriteBehind {
public:
  WriteBehind() = default;
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;
  ~WriteBehind() { drain(); }

  // finish_after: the sink is finished once this write is done (a run file's last write).
  void write(ByteSink& sink, const std::byte* data, std::size_t n, bool finish_after = false) {
    start([&sink, data, n, finish_after] {
      sink.write(data, n);
      if (finish_after) sink.finish();
    });
  }
  // Finishes `sink` on the writer's thread once the writes before it are done,
  // and waits: requests still in flight are reaped by the thread that
  // submitted them, which ends with the writer (io_engine.hpp).
  void finish(ByteSink& sink) {
    start([&sink] { sink.finish(); });
    wait();
  }
  // Waits for the write in flight and rethrows its error.
  void wait() {
    if (pending_.valid()) pending_.get();
  }
  // Waits for the write in flight, dropping its error: for unwinding, when
  // an earlier error is already on its way.
  void drain() noexcept {
    if (pending_.valid()) pending_.wait();
    pending_ = {};
  }
  double seconds() const noexcept { return seconds_; }

  // Drains the writer when the scope that owns a write's sink or buffer ends.
  class [[nodiscard]] Drain {
  public:
    explicit Drain(WriteBehind& w) noexcept : w_(w) {}
    Drain(const Drain&) = delete;
    Drain& operator=(const Drain&) = delete;
    ~Drain() { w_.drain(); }

  private:
    WriteBehind& w_;
  };

private:
  // Waits for the write in flight, then runs `work` on the writer's thread, timed.
  template <class F>
  void start(F work) {
    wait();
    pending_ = thread_.run([this, work] {
      auto t0 = std::chrono::steady_clock::now();
      work();
      seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
  }

  TaskThread thread_;
  std::future<void> pending_;
  double seconds_ = 0;  // touched only by the one write in flight
};

}  // namespace corank::io
