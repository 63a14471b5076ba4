#pragma once
// The asynchronous I/O engine under every reader and writer: queue positional
// reads and writes, reap their completions. Two implementations: io_uring
// (uring_engine.hpp) and synchronous pread/pwrite (pread_engine.hpp), chosen by
// make_engine. An engine belongs to one thread.
//
// The engine finishes each request itself: short transfers are requeued for
// the remainder, -EAGAIN/-EINTR are retried, and a direct-I/O request that the
// file system refuses (-EINVAL) is retried on the buffered descriptor; a read
// answered -EFAULT has its destination populated and is retried once
// (prefault_for_write in file_desc.hpp says why). So a
// completion is final: all `len` bytes, fewer only when a read hit end of
// file, or a negative errno.
//
// Ownership and lifetime. An engine belongs to one thread and to one owner (a
// reader or writer: ReadAheadSource, WriteBehindSink, SegmentReader), which
// also owns the buffers its requests point into, or holds the caller's memory
// only for the length of the call that reads into it. The
// owner declares its buffers before its engine, so that the engine is
// destroyed first; the destructor reaps every request still in flight. An
// owner that fails a read reaps the requests already issued before it throws,
// so no request outlives the call that issued it. Registered buffers are fixed
// for the engine's life; a request that names one must lie inside it (checked
// on submit). Requests in flight between calls (read-ahead, write-behind)
// belong to the thread that submitted them, which must not exit before they
// are reaped: io_uring finishes a read that waited for the disk in that
// thread's context and fails it with EFAULT once the thread is gone. A reader
// or writer used in the background is therefore driven by one TaskThread
// (task_thread.hpp), not by a new thread per call; the io_uring engine refuses
// (std::logic_error) to reap a request whose submitter has exited.
#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "corank/io/options.hpp"

namespace corank::io {

enum class IoOp : std::uint8_t { read, write };

struct IoRequest {
  IoOp op = IoOp::read;
  int fd = -1;          // may be opened O_DIRECT
  int buffered_fd = -1; // same file without O_DIRECT: where unaligned remainders go (may equal fd)
  std::byte* buf = nullptr;
  std::size_t len = 0;
  std::uint64_t offset = 0;
  int buf_index = -1;   // index into the registered buffers, or -1
  std::uint64_t tag = 0;  // the caller's, returned in the completion
};

struct IoCompletion {
  std::uint64_t tag = 0;
  std::int64_t result = 0;  // bytes transferred, or -errno
};

class IoEngine {
public:
  virtual ~IoEngine() = default;
  // "io_uring" or "pread".
  virtual std::string_view name() const noexcept = 0;
  // Most requests in flight at once.
  virtual unsigned depth() const noexcept = 0;
  // Registers buffers for fixed-buffer I/O, once per engine; their indices are
  // the positions in `bufs`. Returns false where the engine cannot (pread, or
  // RLIMIT_MEMLOCK too low): the buffers still work, unregistered.
  virtual bool register_buffers(std::span<const iovec> bufs) = 0;
  // Starts a request; requires in_flight() < depth().
  virtual void submit(const IoRequest& req) = 0;
  // Starts the queued requests, waits until at least min_complete (at most
  // out.size()) have completed, and stores up to out.size() completions.
  virtual std::size_t reap(std::span<IoCompletion> out, std::size_t min_complete) = 0;
  virtual unsigned in_flight() const noexcept = 0;
};

// The engine IoOptions ask for: io_uring unless opt.use_uring is false or
// CORANK_IO=pread is set, and pread/pwrite when io_uring_queue_init fails
// (reported once on stderr under opt.verbose). Depth is opt.queue_depth.
std::unique_ptr<IoEngine> make_engine(const IoOptions& opt);

// Whether io_uring can be set up in this process (probed once).
bool uring_available();

}  // namespace corank::io
