#pragma once
// A ByteSink over a regular file that copies the caller's bytes into aligned
// blocks and writes them through the engine, queue_depth blocks in flight,
// while the caller goes on producing. OutputFile's sink and make_fd_sink /
// make_run_sink on regular files are these.
//
// Writes are positional from the descriptor's offset at construction, or from
// a given offset (then several sinks may fill disjoint parts of one file at
// once). Whole aligned blocks go O_DIRECT, the rest buffered: a first block
// that starts off a sector boundary is cut short to end on one, and so is the
// tail. Until finish() returns, written bytes may still be in memory: call
// finish() before reading the file back (without a given offset it also
// leaves the descriptor's offset at the end). finish() releases the buffers
// and the ring, so a finished sink costs no memory, and writing after finish()
// continues where it stopped.
//
// A failed write is reported by the write() or finish() call that notices it;
// every later call throws the same error.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "corank/io/buffer_allocator.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/io_engine.hpp"
#include "corank/io/source.hpp"

namespace corank::io {

class WriteBehindSink final : public ByteSink {
public:
  // Does not own fd. sync: finish() fsyncs (the output); run files skip it.
  WriteBehindSink(int fd, std::string name, const IoOptions& opt, bool sync,
                  std::optional<std::uint64_t> offset = std::nullopt);
  ~WriteBehindSink() override;

  void write(const void* src, std::size_t n) override;
  void finish() override;
  std::uint64_t bytes_written() const override { return written_; }

  // "io_uring" or "pread"; empty before the first write and after finish().
  std::string_view engine_name() const noexcept { return engine_ ? engine_->name() : std::string_view{}; }
  bool direct() const noexcept { return direct_fd_.valid(); }

private:
  void start();
  void release() noexcept;
  void submit_block(int slot, std::size_t len, bool allow_direct);
  void pump(std::size_t min_complete);
  void check() const;
  [[noreturn]] void fail(std::int64_t neg_errno);

  int fd_;
  std::string name_;
  IoOptions opt_;
  bool sync_;
  FileDesc direct_fd_;
  std::size_t block_;
  std::uint64_t next_off_;      // where the next block goes
  bool positional_;             // an offset was given: the descriptor's own offset is left alone
  std::uint64_t written_ = 0;
  int cur_ = -1;                // slot being filled
  std::size_t fill_ = 0;
  int error_ = 0;               // first errno seen
  std::vector<Buffer> bufs_;    // before engine_: the engine drains first
  std::vector<int> free_;
  std::unique_ptr<IoEngine> engine_;
};

}  // namespace corank::io
