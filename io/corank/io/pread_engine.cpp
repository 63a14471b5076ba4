#include "corank/io/pread_engine.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"

namespace corank::io {

std::int64_t run_request_sync(const IoRequest& req) noexcept {
  if (req.op == IoOp::write && inject_failure(FaultPoint::write)) return -ENOSPC;
  if (req.op == IoOp::read && inject_failure(FaultPoint::read)) return -EIO;
  if (req.op == IoOp::read && inject_failure(FaultPoint::early_end)) return 0;
  std::size_t done = 0;
  int fd = req.fd;
  bool prefaulted = false;
  while (done < req.len) {
    ssize_t r = req.op == IoOp::read
                    ? ::pread(fd, req.buf + done, req.len - done, static_cast<off_t>(req.offset + done))
                    : ::pwrite(fd, req.buf + done, req.len - done, static_cast<off_t>(req.offset + done));
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      // Direct I/O refused for this range: the buffered descriptor takes it.
      if (errno == EINVAL && fd != req.buffered_fd && req.buffered_fd >= 0) {
        fd = req.buffered_fd;
        continue;
      }
      if (errno == EFAULT && req.op == IoOp::read && !prefaulted) {
        prefaulted = true;  // see prefault_for_write
        if (const int e = prefault_for_write(req.buf + done, req.len - done); e != 0) return -e;
        continue;
      }
      return -errno;
    }
    if (r == 0) {
      if (req.op == IoOp::read) break;  // end of file
      return -EIO;                      // a write that makes no progress would spin forever
    }
    done += static_cast<std::size_t>(r);
    // The remainder of a short transfer is unaligned: buffered from here on.
    if (req.buffered_fd >= 0) fd = req.buffered_fd;
  }
  return static_cast<std::int64_t>(done);
}

void PreadEngine::submit(const IoRequest& req) {
  done_.push_back({req.tag, run_request_sync(req)});
}

std::size_t PreadEngine::reap(std::span<IoCompletion> out, std::size_t) {
  std::size_t n = std::min(out.size(), done_.size());
  std::copy_n(done_.begin(), n, out.begin());
  done_.erase(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(n));
  return n;
}

}  // namespace corank::io
