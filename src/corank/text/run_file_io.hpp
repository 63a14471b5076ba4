#pragma once
// Spilled text runs live in anonymous temporary files written and read with
// plain positional I/O: a sorted chunk is written by all threads at once, each
// its own byte range, and a run is read back once, sequentially, by the merge.
// Under --compress-temp a run is one compressed stream (zstd or gzip) instead,
// written by one thread.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "corank/io/codec.hpp"
#include "corank/io/compressed_stream.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/source.hpp"

namespace corank::text {

// Positional writes to a descriptor it does not own: a spilled run, or one
// thread's part of a run or of the output, which several threads write at once.
class RunFileSink final : public io::ByteSink {
public:
  // Writes from byte `offset` on, so that threads can fill disjoint parts of one
  // file; `name` is for error messages.
  explicit RunFileSink(int fd, std::uint64_t offset = 0, std::string name = "temporary file")
      : fd_(fd), offset_(offset), name_(std::move(name)) {}
  void write(const void* src, std::size_t n) override {
    io::pwrite_full(fd_, src, n, offset_ + written_, name_);
    written_ += n;
  }
  void finish() override {}  // a run dies with the process; the output's owner syncs it
  std::uint64_t bytes_written() const override { return written_; }

private:
  int fd_;
  std::uint64_t offset_;
  std::string name_;
  std::uint64_t written_ = 0;
};

// Positional reads of a spilled run from its first byte, through a descriptor
// it does not own.
class RunFileSource final : public io::ByteSource {
public:
  explicit RunFileSource(int fd) : io::ByteSource("temporary file"), fd_(fd) {}
  std::size_t read(void* dst, std::size_t n) override {
    const std::size_t got = io::pread_full(fd_, dst, n, offset_, name());
    offset_ += got;
    return got;
  }
  std::optional<std::uint64_t> size() const override { return std::nullopt; }

private:
  int fd_;
  std::uint64_t offset_ = 0;
};

// A run written sequentially into fd, compressed with `codec` (fast levels)
// unless it is Codec::none. stored_bytes() is the run's length in the file.
inline std::unique_ptr<io::ByteSink> run_file_sink(int fd, io::Codec codec) {
  return io::compressing_sink(std::make_unique<RunFileSink>(fd), codec, "temporary file", io::CompressionLevel::fast);
}

// The run in fd, decompressed with `codec`.
inline std::unique_ptr<io::ByteSource> run_file_source(int fd, io::Codec codec) {
  return io::decompressing_source(std::make_unique<RunFileSource>(fd), codec);
}

}  // namespace corank::text
