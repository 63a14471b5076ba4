#pragma once
// A ByteSource over a byte range of a regular file that keeps queue_depth
// blocks in flight through the engine while the caller consumes earlier ones.
// open_source() returns one for regular input files; make_run_source() for
// spilled runs read back sequentially.
//
// Direct I/O: blocks start at aligned offsets and are whole multiples of 4 KiB,
// so they go O_DIRECT (no page-cache pollution for a file read once); the last
// block asks for a rounded-up length and gets the bytes up to end of file.
//
// The range's end is fixed when the source is made: a file that grows is read
// up to it, and one found shorter while it is read throws IoError, "the file
// shrank while it was being read" for an input (source.hpp) or "run ended
// early" for a spilled run, never a short read.
//
// Parallel reads: an input that is not read O_DIRECT (mostly in the page cache)
// and whose options ask for read_threads > 1 is read without the engine, each
// read() split into parts of at least kParallelPart bytes that as many threads
// pread at once.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "corank/io/buffer_allocator.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/io_engine.hpp"
#include "corank/io/source.hpp"

namespace corank::io {

class ReadAheadSource final : public ByteSource {
public:
  // What the bytes are, for the error a short file is.
  enum class Content { input, run };
  // Reads fd from `begin` to `end` (nullopt: the file's size now). `owned`,
  // when valid, is closed with the source (it is normally fd itself).
  ReadAheadSource(int fd, FileDesc owned, std::string name, const IoOptions& opt, std::uint64_t begin = 0,
                  std::optional<std::uint64_t> end = std::nullopt, Content content = Content::input);
  ~ReadAheadSource() override;

  static constexpr std::size_t kParallelPart = std::size_t{4} << 20;

  std::size_t read(void* dst, std::size_t n) override;
  std::optional<std::uint64_t> size() const override { return end_ - begin_; }

  // "parallel pread" when reads are split over threads. Starts the engine if
  // no read has: call it from the thread that reads.
  std::string_view engine_name() {
    if (read_threads_ > 1) return "parallel pread";
    if (!engine_) start();
    return engine_->name();
  }
  bool direct() const noexcept { return direct_fd_.valid(); }

private:
  struct Slot {
    std::uint64_t block = 0;
    bool ready = false;
    std::int64_t result = 0;
  };
  void start();  // the engine and its buffers, at the first read
  void issue(std::uint64_t block);
  void wait_ready(Slot& s);
  std::uint64_t block_len(std::uint64_t block) const noexcept;
  std::size_t read_parallel(void* dst, std::size_t n);
  [[noreturn]] void ended_early() const;

  FileDesc owned_;
  FileDesc direct_fd_;
  int fd_;
  std::uint64_t begin_, end_;
  std::size_t block_;
  std::uint64_t nblocks_;
  std::uint64_t next_issue_ = 0;  // first block not yet issued
  std::uint64_t cur_ = 0;         // block being consumed
  std::size_t pos_ = 0;           // bytes of it consumed
  Content content_;
  unsigned read_threads_ = 1;     // > 1: parallel reads, no engine
  std::uint64_t next_ = 0;        // parallel reads: the next byte's offset
  IoOptions opt_;                 // for start()
  std::vector<Buffer> bufs_;      // declared before engine_: the engine drains first
  std::vector<Slot> slots_;
  std::unique_ptr<IoEngine> engine_;
};

}  // namespace corank::io
