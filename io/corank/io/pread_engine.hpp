#pragma once
// The fallback engine: each request runs to completion inside submit() with
// pread/pwrite, so nothing overlaps, but every reader and writer works the same
// where io_uring cannot be set up (old kernels, seccomp filters in containers).
#include <vector>

#include "corank/io/io_engine.hpp"

namespace corank::io {

class PreadEngine final : public IoEngine {
public:
  explicit PreadEngine(unsigned depth) : depth_(depth ? depth : 1) { done_.reserve(depth_); }
  std::string_view name() const noexcept override { return "pread"; }
  unsigned depth() const noexcept override { return depth_; }
  bool register_buffers(std::span<const iovec>) override { return false; }
  void submit(const IoRequest& req) override;
  std::size_t reap(std::span<IoCompletion> out, std::size_t min_complete) override;
  unsigned in_flight() const noexcept override { return static_cast<unsigned>(done_.size()); }

private:
  unsigned depth_;
  std::vector<IoCompletion> done_;  // finished, not yet reaped
};

// One request, synchronously, with the engines' retry rules; returns bytes or -errno.
std::int64_t run_request_sync(const IoRequest& req) noexcept;

}  // namespace corank::io
