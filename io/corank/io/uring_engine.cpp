#include "corank/io/uring_engine.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <memory>
#include <stdexcept>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"

namespace corank::io {

namespace {

// Whether this thread is still running, as seen by the requests it submitted
// (see UringEngine::Slot::submitter).
struct ThreadLife {
  std::shared_ptr<std::atomic<bool>> running = std::make_shared<std::atomic<bool>>(true);
  ~ThreadLife() { running->store(false); }
};

std::shared_ptr<const std::atomic<bool>> this_thread_life() {
  thread_local ThreadLife life;
  return life.running;
}

}  // namespace

UringEngine::UringEngine(unsigned depth) : depth_(depth ? depth : 1) {
  // CQ twice the SQ (liburing's default) so a full ring of completions plus
  // requeues never overflows.
  int r = io_uring_queue_init(depth_, &ring_, 0);
  if (r < 0) throw IoError("io_uring_queue_init failed", "io_uring", -r);
  slots_.resize(depth_);
  free_.reserve(depth_);
  for (auto& s : slots_) free_.push_back(&s);
}

UringEngine::~UringEngine() {
  // Requests still in flight point into buffers the caller is about to free:
  // wait for them before the ring goes away.
  while (in_flight_ > injected_.size()) {
    io_uring_submit(&ring_);
    io_uring_cqe* cqe = nullptr;
    int r = io_uring_wait_cqe(&ring_, &cqe);
    if (r == -EINTR) continue;
    if (r < 0) break;
    auto* s = static_cast<Slot*>(io_uring_cqe_get_data(cqe));
    IoCompletion c;
    bool final = complete(*s, cqe->res, c);
    io_uring_cqe_seen(&ring_, cqe);
    if (final) {
      free_.push_back(s);
      --in_flight_;
    }
  }
  if (!registered_.empty()) io_uring_unregister_buffers(&ring_);
  io_uring_queue_exit(&ring_);
}

bool UringEngine::register_buffers(std::span<const iovec> bufs) {
  if (!registered_.empty() || bufs.empty()) return false;
  // Fails with ENOMEM under a small RLIMIT_MEMLOCK; plain reads still work.
  if (io_uring_register_buffers(&ring_, bufs.data(), static_cast<unsigned>(bufs.size())) != 0) return false;
  registered_.assign(bufs.begin(), bufs.end());
  return true;
}

io_uring_sqe* UringEngine::get_sqe() {
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  while (!sqe) {
    // The SQ is as deep as the number of slots, so this only happens when
    // prepared SQEs were not yet handed over: hand them over and retry.
    int r = io_uring_submit(&ring_);
    if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY)
      throw IoError("io_uring_submit failed", "io_uring", -r);
    sqe = io_uring_get_sqe(&ring_);
  }
  return sqe;
}

void UringEngine::queue(Slot& s) {
  io_uring_sqe* sqe = get_sqe();
  const IoRequest& q = s.req;
  std::byte* p = q.buf + s.done;
  unsigned n = static_cast<unsigned>(q.len - s.done);
  auto off = q.offset + s.done;
  if (q.op == IoOp::read) {
    if (fixed(q))
      io_uring_prep_read_fixed(sqe, s.fd, p, n, off, q.buf_index);
    else
      io_uring_prep_read(sqe, s.fd, p, n, off);
  } else {
    if (fixed(q))
      io_uring_prep_write_fixed(sqe, s.fd, p, n, off, q.buf_index);
    else
      io_uring_prep_write(sqe, s.fd, p, n, off);
  }
  io_uring_sqe_set_data(sqe, &s);
  s.submitter = this_thread_life();
}

bool UringEngine::fixed(const IoRequest& q) const noexcept {
  return q.buf_index >= 0 && static_cast<std::size_t>(q.buf_index) < registered_.size();
}

void UringEngine::submit(const IoRequest& req) {
  if (req.len > (std::size_t{1} << 31))
    throw IoError("submit failed", "io_uring", "request larger than 2 GiB");
  if (fixed(req)) {
    // The kernel answers a fixed-buffer request outside its buffer with
    // -EFAULT ("Bad address"), long after the mistake: catch it here.
    const iovec& b = registered_[static_cast<std::size_t>(req.buf_index)];
    const auto* lo = static_cast<const std::byte*>(b.iov_base);
    if (req.buf < lo || req.buf + req.len > lo + b.iov_len)
      throw std::logic_error("io_uring request outside its registered buffer");
  }
  ++in_flight_;
  if (inject_failure(req.op == IoOp::write ? FaultPoint::write : FaultPoint::read)) {
    injected_.push_back({req.tag, req.op == IoOp::write ? -ENOSPC : -EIO});
    return;
  }
  if (req.op == IoOp::read && inject_failure(FaultPoint::early_end)) {
    injected_.push_back({req.tag, 0});
    return;
  }
  Slot* s = free_.back();
  free_.pop_back();
  s->req = req;
  s->done = 0;
  s->fd = req.fd;
  s->synchronous = false;
  if (req.len == 0) {
    // Nothing to transfer; a zero-length read would look like end of file anyway.
    injected_.push_back({req.tag, 0});
    free_.push_back(s);
    return;
  }
  queue(*s);
  // Start it now: a writer may not reap again until its next block is full.
  int r = io_uring_submit(&ring_);
  if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY) throw IoError("io_uring_submit failed", "io_uring", -r);
}

bool UringEngine::complete(Slot& s, int res, IoCompletion& out) {
  const IoRequest& q = s.req;
  if (res == -EAGAIN || res == -EINTR) {
    queue(s);
    return false;
  }
  if (res == -EINVAL && s.fd != q.buffered_fd && q.buffered_fd >= 0) {
    s.fd = q.buffered_fd;  // direct I/O refused here: buffered takes the rest
    queue(s);
    return false;
  }
  if (res == -EFAULT && !s.synchronous) {
    // A read into pages never touched may fail so when the memory cgroup is
    // at its limit (see prefault_for_write): the destination is populated from
    // user space and the remainder transferred once more by a plain
    // pread/pwrite from this thread; a truly bad address fails again, and
    // that answer is final.
    s.synchronous = true;
    if (q.op == IoOp::read)
      if (const int e = prefault_for_write(q.buf + s.done, q.len - s.done); e != 0) return complete(s, -e, out);
    const int fd = q.buffered_fd >= 0 ? q.buffered_fd : s.fd;
    const std::size_t n = q.len - s.done;
    const auto off = static_cast<off_t>(q.offset + s.done);
    const ssize_t r = q.op == IoOp::read ? ::pread(fd, q.buf + s.done, n, off) : ::pwrite(fd, q.buf + s.done, n, off);
    return complete(s, r < 0 ? -errno : static_cast<int>(r), out);
  }
  if (res < 0) {
    out = {q.tag, res};
    return true;
  }
  if (res == 0) {
    // End of file for a read; a write that makes no progress would spin forever.
    out = {q.tag, q.op == IoOp::read ? static_cast<std::int64_t>(s.done) : -EIO};
    return true;
  }
  s.done += static_cast<std::size_t>(res);
  if (s.done < q.len) {
    // Short transfer: the remainder is unaligned, so it goes buffered.
    if (q.buffered_fd >= 0) s.fd = q.buffered_fd;
    queue(s);
    return false;
  }
  out = {q.tag, static_cast<std::int64_t>(s.done)};
  return true;
}

std::size_t UringEngine::reap(std::span<IoCompletion> out, std::size_t min_complete) {
  std::size_t got = 0;
  while (got < out.size() && !injected_.empty()) {
    out[got++] = injected_.back();
    injected_.pop_back();
    --in_flight_;
  }
  if (min_complete > out.size()) min_complete = out.size();
  if (min_complete > in_flight_ + got) min_complete = in_flight_ + got;
  for (;;) {
    // Batch: take every CQE that is ready.
    io_uring_cqe* cqes[64];
    unsigned n = io_uring_peek_batch_cqe(&ring_, cqes, 64);
    unsigned used = 0;
    for (; used < n && got < out.size(); ++used) {
      auto* s = static_cast<Slot*>(io_uring_cqe_get_data(cqes[used]));
      if (!s->submitter->load())
        throw std::logic_error(
            "io_uring request reaped after the thread that submitted it exited: the kernel may have failed it "
            "with EFAULT; drive the engine from one thread that outlives its requests (io::TaskThread)");
      if (complete(*s, cqes[used]->res, out[got])) {
        ++got;
        free_.push_back(s);
        --in_flight_;
      }
    }
    io_uring_cq_advance(&ring_, used);
    if (got >= min_complete && (used == n || got == out.size())) {
      // Requeued remainders must reach the kernel even when nobody waits.
      if (io_uring_sq_ready(&ring_)) io_uring_submit(&ring_);
      return got;
    }
    if (used < n) continue;  // out is full is handled above; defensive
    int r = io_uring_submit_and_wait(&ring_, 1);
    if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY)
      throw IoError("io_uring_enter failed", "io_uring", -r);
  }
}

}  // namespace corank::io
