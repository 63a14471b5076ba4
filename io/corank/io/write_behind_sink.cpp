#include "corank/io/write_behind_sink.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "corank/io/direct_fd.hpp"
#include "corank/io/error.hpp"
#include "corank/io/temp_files.hpp"

namespace corank::io {

namespace {
constexpr std::uint64_t kA = kDirectAlignment;
}  // namespace

WriteBehindSink::WriteBehindSink(int fd, std::string name, const IoOptions& opt, bool sync,
                                 std::optional<std::uint64_t> offset)
    : fd_(fd), name_(std::move(name)), opt_(opt), sync_(sync), positional_(offset.has_value()) {
  block_ = static_cast<std::size_t>((std::max<std::size_t>(opt.block_size, kA) + kA - 1) / kA * kA);
  if (offset) {
    next_off_ = *offset;
  } else {
    off_t pos = ::lseek(fd_, 0, SEEK_CUR);
    next_off_ = pos > 0 ? static_cast<std::uint64_t>(pos) : 0;
  }
}

WriteBehindSink::~WriteBehindSink() { release(); }

void WriteBehindSink::start() {
  if (opt_.direct && !direct_fd_.valid()) direct_fd_ = reopen_direct(fd_);
  engine_ = make_engine(opt_);
  BufferAllocator& alloc = opt_.allocator ? *opt_.allocator : default_allocator();
  std::vector<iovec> iov;
  for (unsigned i = 0; i < engine_->depth(); ++i) {
    bufs_.emplace_back(alloc, block_);
    iov.push_back({bufs_.back().data(), block_});
    free_.push_back(static_cast<int>(i));
  }
  engine_->register_buffers(iov);
}

void WriteBehindSink::release() noexcept {
  engine_.reset();  // waits for writes from bufs_ still in flight
  bufs_.clear();
  free_.clear();
  cur_ = -1;
  fill_ = 0;
}

void WriteBehindSink::check() const {
  if (error_) throw_io_error("write failed", file_name_in_errors(fd_, name_), error_);
}

void WriteBehindSink::fail(std::int64_t neg_errno) {
  if (!error_) error_ = static_cast<int>(-neg_errno);
  check();
  __builtin_unreachable();
}

void WriteBehindSink::pump(std::size_t min_complete) {
  IoCompletion c[16];
  std::size_t k = engine_->reap(c, min_complete);
  std::int64_t bad = 0;
  for (std::size_t j = 0; j < k; ++j) {
    if (c[j].result < 0 && !bad) bad = c[j].result;
    free_.push_back(static_cast<int>(c[j].tag));
  }
  if (bad) fail(bad);
}

void WriteBehindSink::submit_block(int slot, std::size_t len, bool allow_direct) {
  IoRequest r;
  r.op = IoOp::write;
  r.buf = bufs_[static_cast<std::size_t>(slot)].data();
  r.buf_index = slot;
  r.len = len;
  r.offset = next_off_;
  r.buffered_fd = fd_;
  r.fd = allow_direct && direct_fd_.valid() && next_off_ % kA == 0 && len % kA == 0 ? direct_fd_.get() : fd_;
  r.tag = static_cast<std::uint64_t>(slot);
  engine_->submit(r);
  next_off_ += len;
}

void WriteBehindSink::write(const void* src, std::size_t n) {
  check();
  if (n == 0) return;
  if (!engine_) start();
  auto* in = static_cast<const std::byte*>(src);
  while (n > 0) {
    if (cur_ < 0) {
      // Reap what is ready; wait only when every buffer is in flight.
      pump(free_.empty() ? 1 : 0);
      cur_ = free_.back();
      free_.pop_back();
      fill_ = 0;
    }
    // A block ends on a sector boundary of the file, so that the next one can go direct.
    const std::size_t len = block_ - static_cast<std::size_t>(next_off_ % kA);
    const std::size_t k = std::min(n, len - fill_);
    std::memcpy(bufs_[static_cast<std::size_t>(cur_)].data() + fill_, in, k);
    fill_ += k;
    in += k;
    n -= k;
    written_ += k;
    if (fill_ == len) {
      submit_block(cur_, fill_, true);
      cur_ = -1;
    }
  }
}

void WriteBehindSink::finish() {
  check();
  if (engine_) {
    if (cur_ >= 0 && fill_ > 0) {
      // The whole sectors of the tail go direct; the rest, buffered, after every
      // direct write is done so the two paths never touch the file at once.
      const std::size_t aligned = fill_ / kA * kA;
      const int slot = cur_;
      cur_ = -1;
      if (aligned > 0 && direct_fd_.valid()) {
        submit_block(slot, aligned, true);
        while (engine_->in_flight() > 0) pump(engine_->in_flight());
        free_.erase(std::find(free_.begin(), free_.end(), slot));
        const std::size_t rest = fill_ - aligned;
        if (rest > 0) {
          std::memmove(bufs_[static_cast<std::size_t>(slot)].data(), bufs_[static_cast<std::size_t>(slot)].data() + aligned, rest);
          submit_block(slot, rest, false);
        } else {
          free_.push_back(slot);
        }
      } else {
        while (engine_->in_flight() > 0) pump(engine_->in_flight());
        submit_block(slot, fill_, false);
      }
    }
    while (engine_->in_flight() > 0) pump(engine_->in_flight());
    release();
  }
  if (sync_ && ::fsync(fd_) != 0) {
    error_ = errno;
    check();
  }
  // Leave the descriptor where sequential writes would have left it.
  if (!positional_) ::lseek(fd_, static_cast<off_t>(next_off_), SEEK_SET);
}

}  // namespace corank::io
