#pragma once
// Write-behind: hands a finished buffer to a background thread and returns, so
// the next buffer is computed while this one is written. One write is in flight
// at a time and writes complete in the order they were issued; a caller that
// alternates two buffers may refill a buffer once the write after it was issued.
#include <chrono>
#include <cstddef>
#include <future>

#include "corank/io/source.hpp"

namespace corank {

class WriteBehind {
public:
  WriteBehind() = default;
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;
  ~WriteBehind() {
    if (pending_.valid()) pending_.wait();  // errors were the caller's to collect
  }

  // finish_after: the sink is finished once this write is done (a run file's last write).
  void write(io::ByteSink& sink, const std::byte* data, std::size_t n, bool finish_after = false) {
    wait();
    pending_ = std::async(std::launch::async, [this, &sink, data, n, finish_after] {
      auto t0 = std::chrono::steady_clock::now();
      sink.write(data, n);
      if (finish_after) sink.finish();
      seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
  }
  // Waits for the write in flight and rethrows its error.
  void wait() {
    if (pending_.valid()) pending_.get();
  }
  double seconds() const noexcept { return seconds_; }

private:
  std::future<void> pending_;
  double seconds_ = 0;  // touched only by the one write in flight
};

}  // namespace corank
