#include "corank/io/segment_reader.hpp"

#include <algorithm>
#include <vector>

#include "corank/io/error.hpp"

namespace corank::io {

SegmentReader::SegmentReader(const IoOptions& opt, std::string name)
    : engine_(make_engine(opt)), block_(std::max<std::size_t>(opt.block_size, 4096)), name_(std::move(name)) {}

void SegmentReader::read(std::span<const Segment> segments) {
  // Every segment is cut into block-size requests; requests are submitted while
  // the ring has room and reaped in batches. The engine completes short reads
  // itself, so a completion shorter than asked means the file ended early.
  std::vector<IoRequest> requests;
  for (const Segment& s : segments) {
    for (std::uint64_t done = 0; done < s.length; done += block_) {
      IoRequest r;
      r.op = IoOp::read;
      r.fd = r.buffered_fd = s.fd;
      r.buf = s.dst + done;
      r.len = static_cast<std::size_t>(std::min<std::uint64_t>(block_, s.length - done));
      r.offset = s.offset + done;
      r.tag = requests.size();
      requests.push_back(r);
    }
  }
  // A failure stops new submissions, but the requests already in flight are
  // reaped before anything is thrown: they point into the caller's memory,
  // which the caller may free as soon as read() returns or throws.
  std::vector<IoCompletion> done(engine_->depth());
  std::size_t next = 0;
  int error = 0;
  const char* short_read = nullptr;
  while (engine_->in_flight() > 0 || (next < requests.size() && !error && !short_read)) {
    while (!error && !short_read && next < requests.size() && engine_->in_flight() < engine_->depth())
      engine_->submit(requests[next++]);
    const std::size_t n = engine_->reap(done, 1);
    for (std::size_t i = 0; i < n; ++i) {
      const IoRequest& r = requests[done[i].tag];
      if (done[i].result < 0) {
        if (!error) error = static_cast<int>(-done[i].result);
      } else if (static_cast<std::size_t>(done[i].result) != r.len) {
        short_read = "run ended early";
      }
    }
  }
  if (error) throw_io_error("read failed", name_, error);
  if (short_read) throw IoError("read failed", name_, short_read);
}

}  // namespace corank::io
