#pragma once
// Plain positional I/O through the page cache, on descriptors it does not own:
// byte ranges of one file that several threads write at once (a spilled text
// run, parts of the output), and reads of a range. Spilled text runs are such
// files (text/run_merge.hpp reads them back whole or in key ranges): under
// --compress-temp a run is a series of compressed streams (zstd or gzip), under
// --compress-program one stream that PROG wrote. Binary records' runs go
// through the engines instead (run_file.hpp). Also here: allocating a file
// ahead of threads that fill it at once.
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

namespace corank::io {

// Positional writes: a spilled run, or one thread's part of a run or of the
// output, which several threads write at once.
class PositionalSink final : public ByteSink {
public:
  // Writes from byte `offset` on, so that threads can fill disjoint parts of one
  // file; `name` is for error messages.
  explicit PositionalSink(int fd, std::uint64_t offset = 0, std::string name = "temporary file")
      : fd_(fd), offset_(offset), name_(std::move(name)) {}
  void write(const void* src, std::size_t n) override {
    pwrite_full(fd_, src, n, offset_ + written_, name_);
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

// Positional reads of bytes [from, to) of a file (to its end by default).
class PositionalSource final : public ByteSource {
public:
  explicit PositionalSource(int fd, std::uint64_t from = 0, std::uint64_t to = UINT64_MAX)
      : ByteSource("temporary file"), fd_(fd), offset_(from), end_(to) {}
  std::size_t read(void* dst, std::size_t n) override {
    n = static_cast<std::size_t>(std::min<std::uint64_t>(n, end_ - offset_));
    const std::size_t got = n ? pread_full(fd_, dst, n, offset_, name()) : 0;
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
inline bool allocate_range(int fd, std::uint64_t at, std::uint64_t n, const std::string& name) {
  if (inject_failure(FaultPoint::write)) throw_io_error("write failed", name, ENOSPC);
  if (n == 0 || ::fallocate(fd, 0, static_cast<off_t>(at), static_cast<off_t>(n)) == 0) return true;
  if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) return false;
  throw_io_error("write failed", name, errno);
}

// A run written sequentially into fd, compressed per `temp` (IoOptions:
// temp_codec at its fast level, or temp_program) unless neither is set.
// stored_bytes() is the run's length in the file.
inline std::unique_ptr<ByteSink> page_cache_run_sink(int fd, const IoOptions& temp) {
  if (!temp.temp_program.empty()) return program_compressing_sink(fd, temp.temp_program, "temporary file");
  return compressing_sink(std::make_unique<PositionalSink>(fd), temp.temp_codec, "temporary file",
                              CompressionLevel::fast);
}

// The run of `bytes` bytes in fd, decompressed per `temp` (a program reads
// the whole file, which is the run).
inline std::unique_ptr<ByteSource> page_cache_run_source(int fd, std::uint64_t bytes, const IoOptions& temp) {
  if (!temp.temp_program.empty()) return program_decompressing_source(fd, temp.temp_program, "temporary file");
  return decompressing_source(std::make_unique<PositionalSource>(fd, 0, bytes), temp.temp_codec);
}

// Appends what is written to a string (a piece of a compressed run).
class StringSink final : public ByteSink {
public:
  explicit StringSink(std::string& out) : out_(out) {}
  void write(const void* src, std::size_t n) override { out_.append(static_cast<const char*>(src), n); }
  void finish() override {}
  std::uint64_t bytes_written() const override { return out_.size(); }

private:
  std::string& out_;
};

}  // namespace corank::io
