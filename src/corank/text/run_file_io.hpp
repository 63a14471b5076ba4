#pragma once
// Spilled text runs live in anonymous temporary files written and read with
// plain positional I/O through the page cache: a sorted chunk is written by all
// threads at once, each its own byte range, and a run is read back
// sequentially by the merge, whole or in key ranges (run_merge.hpp). Under
// --compress-temp a run is a series of compressed streams (zstd or gzip);
// under --compress-program, one stream that PROG wrote.
// Also here: allocating a file ahead of threads that fill it at once.
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "corank/io/codec.hpp"
#include "corank/io/compressed_stream.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/program_codec.hpp"
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

// Positional reads of bytes [from, to) of a spilled run (to its end by
// default), through a descriptor it does not own.
class RunFileSource final : public io::ByteSource {
public:
  explicit RunFileSource(int fd, std::uint64_t from = 0, std::uint64_t to = UINT64_MAX)
      : io::ByteSource("temporary file"), fd_(fd), offset_(from), end_(to) {}
  std::size_t read(void* dst, std::size_t n) override {
    n = static_cast<std::size_t>(std::min<std::uint64_t>(n, end_ - offset_));
    const std::size_t got = n ? io::pread_full(fd_, dst, n, offset_, name()) : 0;
    offset_ += got;
    return got;
  }
  std::optional<std::uint64_t> size() const override { return std::nullopt; }

private:
  int fd_;
  std::uint64_t offset_, end_;
};

// Allocates [at, at + n) of fd ahead of writes that will fill it exactly: a
// full disk fails here (not as a SIGBUS in a mapping), and direct writes land
// in allocated blocks rather than past the end of the file. Returns false,
// allocating nothing, where the file system cannot.
inline bool allocate(int fd, std::uint64_t at, std::uint64_t n, const std::string& name) {
  if (io::inject_failure(io::FaultPoint::write)) io::throw_io_error("write failed", name, ENOSPC);
  if (n == 0 || ::fallocate(fd, 0, static_cast<off_t>(at), static_cast<off_t>(n)) == 0) return true;
  if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) return false;
  io::throw_io_error("write failed", name, errno);
}

// A run written sequentially into fd, compressed per `temp` (IoOptions:
// temp_codec at its fast level, or temp_program) unless neither is set.
// stored_bytes() is the run's length in the file.
inline std::unique_ptr<io::ByteSink> run_file_sink(int fd, const io::IoOptions& temp) {
  if (!temp.temp_program.empty()) return io::program_compressing_sink(fd, temp.temp_program, "temporary file");
  return io::compressing_sink(std::make_unique<RunFileSink>(fd), temp.temp_codec, "temporary file",
                              io::CompressionLevel::fast);
}

// The run of `bytes` bytes in fd, decompressed per `temp` (a program reads
// the whole file, which is the run).
inline std::unique_ptr<io::ByteSource> run_file_source(int fd, std::uint64_t bytes, const io::IoOptions& temp) {
  if (!temp.temp_program.empty()) return io::program_decompressing_source(fd, temp.temp_program, "temporary file");
  return io::decompressing_source(std::make_unique<RunFileSource>(fd, 0, bytes), temp.temp_codec);
}

// Appends what is written to a string (a piece of a compressed run).
class StringSink final : public io::ByteSink {
public:
  explicit StringSink(std::string& out) : out_(out) {}
  void write(const void* src, std::size_t n) override { out_.append(static_cast<const char*>(src), n); }
  void finish() override {}
  std::uint64_t bytes_written() const override { return out_.size(); }

private:
  std::string& out_;
};

}  // namespace corank::text
