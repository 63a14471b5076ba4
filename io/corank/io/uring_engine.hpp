#pragma once
// The io_uring engine. Shaped like liburing's examples/io_uring-cp.c: each
// request lives in a slot whose address is the SQE's user_data; a short
// transfer or -EAGAIN puts the slot back on the ring for the remainder;
// completions are reaped in batches; buffers registered with the ring use the
// fixed-buffer opcodes, which skip the per-request page pinning. A request
// must be reaped before the thread that submitted it exits.
#include <liburing.h>

#include <atomic>
#include <memory>

#include <vector>

#include "corank/io/io_engine.hpp"

namespace corank::io {

class UringEngine final : public IoEngine {
public:
  // Throws IoError("io_uring_queue_init failed", ...) when the ring cannot be set up.
  explicit UringEngine(unsigned depth);
  ~UringEngine() override;
  UringEngine(const UringEngine&) = delete;
  UringEngine& operator=(const UringEngine&) = delete;

  std::string_view name() const noexcept override { return "io_uring"; }
  unsigned depth() const noexcept override { return depth_; }
  bool register_buffers(std::span<const iovec> bufs) override;
  void submit(const IoRequest& req) override;
  std::size_t reap(std::span<IoCompletion> out, std::size_t min_complete) override;
  unsigned in_flight() const noexcept override { return in_flight_; }

private:
  struct Slot {
    IoRequest req;
    std::size_t done = 0;  // bytes transferred so far
    int fd = -1;           // the descriptor the next attempt uses
    bool synchronous = false;  // an -EFAULT was retried with pread/pwrite
    // The thread that queued it: the kernel finishes a request that had to
    // wait (a buffered read from disk) in that thread's context and fails it
    // with EFAULT if the thread has exited. reap() refuses a request whose
    // submitter is gone, so that such a caller is found by tests, not by
    // users (see TaskThread).
    std::shared_ptr<const std::atomic<bool>> submitter;
  };
  void queue(Slot& s);
  io_uring_sqe* get_sqe();
  // Handles one CQE; true when its request is final and stored in `out`.
  bool complete(Slot& s, int res, IoCompletion& out);
  bool fixed(const IoRequest& q) const noexcept;  // names a registered buffer

  io_uring ring_{};
  unsigned depth_;
  unsigned in_flight_ = 0;
  std::vector<iovec> registered_;  // the fixed buffers, empty when none are registered
  std::vector<Slot> slots_;
  std::vector<Slot*> free_;
  std::vector<IoCompletion> injected_;  // writes failed by fault injection, never issued
};

}  // namespace corank::io
