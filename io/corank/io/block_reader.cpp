#include "corank/io/block_reader.hpp"

#include <algorithm>
#include <cstring>

#include "corank/io/direct_fd.hpp"
#include "corank/io/error.hpp"

namespace corank::io {

namespace {
constexpr std::uint64_t kA = kDirectAlignment;
constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }
}  // namespace

BlockReader::BlockReader(int fd, std::string name, const IoOptions& opt) : fd_(fd), name_(std::move(name)) {
  block_ = static_cast<std::size_t>(round_up(std::max<std::size_t>(opt.block_size, 2 * kA), kA));
  if (opt.direct) direct_fd_ = reopen_direct(fd_);
  engine_ = make_engine(opt);
  BufferAllocator& alloc = opt.allocator ? *opt.allocator : default_allocator();
  std::vector<iovec> iov;
  for (unsigned i = 0; i < engine_->depth(); ++i) {
    bufs_.emplace_back(alloc, block_);
    iov.push_back({bufs_.back().data(), block_});
    free_.push_back(static_cast<int>(i));
  }
  slots_.resize(bufs_.size());
  engine_->register_buffers(iov);
}

BlockReader::~BlockReader() { engine_.reset(); }

BlockReader::Ticket BlockReader::start_read(std::uint64_t offset, void* dst, std::size_t n) {
  const Ticket t = next_ticket_++;
  Pending& p = pending_[t];
  auto* out = static_cast<std::byte*>(dst);
  const bool direct = direct_fd_.valid();
  std::size_t done = 0;
  while (done < n) {
    while (free_.empty()) pump();
    const int i = free_.back();
    free_.pop_back();
    const std::uint64_t off = offset + done;
    IoRequest r;
    r.op = IoOp::read;
    r.buffered_fd = fd_;
    r.tag = static_cast<std::uint64_t>(i);
    Slot& s = slots_[static_cast<std::size_t>(i)];
    s = Slot{t, out + done, 0, 0, true};
    const bool in_place = direct && off % kA == 0 && reinterpret_cast<std::uintptr_t>(out + done) % kA == 0 &&
                          (n - done) >= kA;
    if (in_place) {
      // Aligned all round: straight into the caller's memory, whole sectors only.
      s.want = std::min<std::size_t>(block_, (n - done) / kA * kA);
      s.bounce = false;
      r.fd = direct_fd_.get();
      r.buf = out + done;
      r.len = s.want;
      r.offset = off;
    } else {
      const std::uint64_t lo = direct ? off / kA * kA : off;
      s.skip = static_cast<std::size_t>(off - lo);
      s.want = std::min<std::size_t>(n - done, block_ - s.skip);
      r.fd = direct ? direct_fd_.get() : fd_;
      r.buf = bufs_[static_cast<std::size_t>(i)].data();
      r.buf_index = i;
      r.offset = lo;
      r.len = direct ? static_cast<std::size_t>(round_up(s.skip + s.want, kA)) : s.want;
    }
    engine_->submit(r);
    ++p.ops;
    done += s.want;
  }
  return t;
}

void BlockReader::pump() {
  IoCompletion c[16];
  std::size_t k = engine_->reap(c, 1);
  for (std::size_t j = 0; j < k; ++j) {
    const auto i = static_cast<std::size_t>(c[j].tag);
    Slot& s = slots_[i];
    Pending& p = pending_[s.ticket];
    if (c[j].result < 0) {
      if (!p.error) p.error = c[j].result;
    } else {
      const auto got = static_cast<std::size_t>(c[j].result);
      const std::size_t valid = got > s.skip ? std::min(got - s.skip, s.want) : 0;
      if (s.bounce && valid) std::memcpy(s.dst, bufs_[i].data() + s.skip, valid);
      p.bytes += valid;
    }
    --p.ops;
    free_.push_back(static_cast<int>(i));
  }
}

std::size_t BlockReader::wait(Ticket t) {
  auto it = pending_.find(t);
  if (it == pending_.end()) throw IoError("read failed", name_, "wait on an unknown read");
  while (it->second.ops > 0) {
    pump();
    it = pending_.find(t);  // pump may rehash the map
  }
  Pending p = it->second;
  pending_.erase(it);
  if (p.error) throw_io_error("read failed", name_, static_cast<int>(-p.error));
  return static_cast<std::size_t>(p.bytes);
}

}  // namespace corank::io
