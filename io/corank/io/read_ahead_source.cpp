#include "corank/io/read_ahead_source.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "corank/io/direct_fd.hpp"
#include "corank/io/error.hpp"
#include "corank/io/thread_pool.hpp"

namespace corank::io {

namespace {
constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }
}  // namespace

ReadAheadSource::ReadAheadSource(int fd, FileDesc owned, std::string name, const IoOptions& opt,
                                 std::uint64_t begin, std::optional<std::uint64_t> end, Content content)
    : ByteSource(std::move(name)), owned_(std::move(owned)), fd_(fd), begin_(begin), content_(content) {
  if (end) {
    end_ = *end;
  } else {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_io_error("stat failed", this->name(), errno);
    if (S_ISDIR(st.st_mode)) throw IoError("read failed", this->name(), EISDIR);
    end_ = static_cast<std::uint64_t>(st.st_size);
  }
  end_ = std::max(end_, begin_);
  const std::uint64_t total = end_ - begin_;
  block_ = static_cast<std::size_t>(round_up(std::max<std::size_t>(opt.block_size, kDirectAlignment), kDirectAlignment));
  // A small file needs one small buffer, not queue_depth large ones.
  block_ = static_cast<std::size_t>(std::min<std::uint64_t>(block_, std::max<std::uint64_t>(round_up(total, kDirectAlignment), kDirectAlignment)));
  nblocks_ = (total + block_ - 1) / block_;
  if (opt.direct && begin_ % kDirectAlignment == 0 && total > 0 && !mostly_cached(fd_, begin_, total))
    direct_fd_ = reopen_direct(fd_);
  if (!direct_fd_.valid() && opt.read_threads > 1 && total > kParallelPart) {
    read_threads_ = opt.read_threads;
    next_ = begin_;
    return;
  }

  // The engine and its buffers come with the first read(), from the thread
  // that reads: not from the opening thread, which may be another
  // (io_engine.hpp); and a sort that opens all its inputs at once (to fail
  // before any output exists) holds the buffers of the one it reads, not
  // those of all.
  opt_ = opt;
}

void ReadAheadSource::start() {
  engine_ = make_engine(opt_);
  const auto nslots = static_cast<std::size_t>(std::min<std::uint64_t>(engine_->depth(), std::max<std::uint64_t>(nblocks_, 1)));
  BufferAllocator& alloc = opt_.allocator ? *opt_.allocator : default_allocator();
  std::vector<iovec> iov;
  for (std::size_t i = 0; i < nslots; ++i) {
    bufs_.emplace_back(alloc, block_);
    iov.push_back({bufs_.back().data(), block_});
  }
  slots_.resize(nslots);
  engine_->register_buffers(iov);
}

ReadAheadSource::~ReadAheadSource() {
  engine_.reset();  // waits for reads into bufs_ still in flight
}

std::uint64_t ReadAheadSource::block_len(std::uint64_t block) const noexcept {
  const std::uint64_t off = begin_ + block * block_;
  return std::min<std::uint64_t>(block_, end_ - off);
}

void ReadAheadSource::issue(std::uint64_t block) {
  const std::size_t i = static_cast<std::size_t>(block % slots_.size());
  slots_[i] = Slot{block, false, 0};
  IoRequest r;
  r.op = IoOp::read;
  r.offset = begin_ + block * block_;
  r.len = static_cast<std::size_t>(block_len(block));
  r.buf = bufs_[i].data();
  r.buf_index = static_cast<int>(i);
  r.buffered_fd = fd_;
  r.fd = fd_;
  if (direct_fd_.valid()) {
    // The tail block asks for whole sectors; the read stops at end of file.
    r.fd = direct_fd_.get();
    r.len = static_cast<std::size_t>(round_up(r.len, kDirectAlignment));
  }
  r.tag = block;
  engine_->submit(r);
}

void ReadAheadSource::wait_ready(Slot& s) {
  IoCompletion done[16];
  while (!s.ready) {
    std::size_t n = engine_->reap(done, 1);
    for (std::size_t k = 0; k < n; ++k) {
      Slot& t = slots_[done[k].tag % slots_.size()];
      t.ready = true;
      t.result = done[k].result;
    }
  }
  if (s.result < 0) throw_io_error("read failed", name(), static_cast<int>(-s.result));
  // The engine completes short transfers itself: fewer bytes is the end of the file.
  if (static_cast<std::uint64_t>(s.result) < block_len(s.block)) ended_early();
}

void ReadAheadSource::ended_early() const {
  if (content_ == Content::run) throw IoError("read failed", name(), "run ended early");
  throw_file_shrank(name(), fd_, end_);
}

std::size_t ReadAheadSource::read_parallel(void* dst, std::size_t n) {
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, end_ - next_));
  const std::size_t parts = std::clamp<std::size_t>(n / kParallelPart, 1, read_threads_);
  std::vector<std::size_t> got(parts, 0);
  ThreadPool::shared().run(static_cast<unsigned>(parts), [&](unsigned p) {
    const std::size_t lo = n * p / parts, hi = n * (p + 1) / parts;
    got[p] = pread_full(fd_, static_cast<std::byte*>(dst) + lo, hi - lo, next_ + lo, name());
  });
  for (std::size_t p = 0; p < parts; ++p)
    if (got[p] < n * (p + 1) / parts - n * p / parts) ended_early();
  next_ += n;
  return n;
}

std::size_t ReadAheadSource::read(void* dst, std::size_t n) {
  if (read_threads_ > 1) return read_parallel(dst, n);
  if (!engine_) start();
  auto* out = static_cast<std::byte*>(dst);
  std::size_t copied = 0;
  while (next_issue_ < nblocks_ && next_issue_ < slots_.size()) issue(next_issue_++);
  while (copied < n && cur_ < nblocks_) {
    Slot& s = slots_[cur_ % slots_.size()];
    wait_ready(s);
    const auto valid = static_cast<std::size_t>(block_len(cur_));  // a longer read: the file grew
    const std::size_t k = std::min(n - copied, valid - pos_);
    std::memcpy(out + copied, bufs_[cur_ % slots_.size()].data() + pos_, k);
    copied += k;
    pos_ += k;
    if (pos_ == valid) {
      ++cur_;
      pos_ = 0;
      if (next_issue_ < nblocks_) issue(next_issue_++);
    }
  }
  return copied;
}

}  // namespace corank::io
