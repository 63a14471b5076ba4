#pragma once
// Positional reads of an open file through the engine: the merge phase reads
// blocks of spilled runs at the offsets its sparse index names.
//
//   BlockReader r(run_fd, "temporary file", opt);
//   auto t1 = r.start_read(off1, dst1, n1);   // several reads in flight...
//   auto t2 = r.start_read(off2, dst2, n2);
//   r.wait(t1); r.wait(t2);                   // ...bytes read (fewer only at EOF)
//   r.read_at(off, dst, n);                   // or one synchronous read
//
// Each read goes O_DIRECT where possible: the enclosing aligned range is read
// into an aligned bounce buffer and the asked-for bytes copied out; a read
// whose dst, offset and length are all 4 KiB-aligned lands in dst directly.
// A read larger than block_size is split into block_size requests that run
// in parallel. Data written through a WriteBehindSink must be finish()ed first.
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "corank/io/buffer_allocator.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/io_engine.hpp"

namespace corank::io {

class BlockReader {
public:
  using Ticket = std::uint64_t;

  // Does not own fd; `name` is used in error messages.
  BlockReader(int fd, std::string name, const IoOptions& opt);
  ~BlockReader();
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  // Starts reading n bytes at offset into dst (which must stay valid until wait).
  // May block while all queue_depth requests are busy.
  Ticket start_read(std::uint64_t offset, void* dst, std::size_t n);
  // Waits for a read; returns the bytes read (fewer than asked only at end of
  // file) or throws IoError("read failed", name, ...). Each ticket once.
  std::size_t wait(Ticket t);
  std::size_t read_at(std::uint64_t offset, void* dst, std::size_t n) { return wait(start_read(offset, dst, n)); }

  std::string_view engine_name() const noexcept { return engine_->name(); }
  bool direct() const noexcept { return direct_fd_.valid(); }

private:
  struct Pending {
    unsigned ops = 0;          // requests still in flight
    std::uint64_t bytes = 0;
    std::int64_t error = 0;    // first -errno
  };
  struct Slot {
    Ticket ticket = 0;
    std::byte* dst = nullptr;  // where the wanted bytes go
    std::size_t skip = 0;      // bytes of the bounce buffer before them
    std::size_t want = 0;
    bool bounce = false;
  };
  void pump();  // reaps at least one completion

  int fd_;
  std::string name_;
  FileDesc direct_fd_;
  std::size_t block_;
  Ticket next_ticket_ = 1;
  std::unordered_map<Ticket, Pending> pending_;
  std::vector<Buffer> bufs_;  // bounce buffers, one per slot; before engine_ (it drains first)
  std::vector<Slot> slots_;
  std::vector<int> free_;
  std::unique_ptr<IoEngine> engine_;
};

}  // namespace corank::io
