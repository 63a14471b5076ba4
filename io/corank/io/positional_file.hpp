#pragma once
// Plain positional I/O through the page cache, on descriptors it does not own:
// byte ranges of one file that several threads write at once (a spilled text
// run, parts of the output), and reads of a range. Spilled text runs are such
// files (text/run_merge.hpp reads them back whole or in key ranges): under
// --compress-temp a run is a series of compressed streams (zstd or gzip), under
// --compress-program one stream that PROG wrote. Binary records' runs go
// through the engines instead (run_file.hpp). Also here: allocating a file
// ahead of threads that fill it at once, and FileRange, the bytes of a file
// that such threads fill.
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "corank/io/codec.hpp"
#include "corank/io/compressed_stream.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/options.hpp"
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

// Positional reads of bytes [from, to) of a spilled run's file (to its end
// by default). A file that ends before `to` is an IoError, "run ended early".
class PositionalSource final : public ByteSource {
public:
  explicit PositionalSource(int fd, std::uint64_t from = 0, std::uint64_t to = UINT64_MAX)
      : ByteSource("temporary file"), fd_(fd), offset_(from), end_(to) {}
  std::size_t read(void* dst, std::size_t n) override {
    n = static_cast<std::size_t>(std::min<std::uint64_t>(n, end_ - offset_));
    const std::size_t got = n ? pread_full(fd_, dst, n, offset_, name()) : 0;
    offset_ += got;
    if (got < n && end_ != UINT64_MAX) throw IoError("read failed", name(), "run ended early");
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

// The bytes of one file from a start offset on, which threads fill at offsets
// of their own: a spilled text run, or the rest of the output
// (OutputFile::reserve_range). Does not own the descriptor, which must outlive
// the range and everything it hands out. Offsets given to its methods count
// from the range's start.
class FileRange {
public:
  // `name` is the file's name for error messages. page_cache_only: never
  // written O_DIRECT (a region of a file that other writers share pages of:
  // their write-back would undo a direct write; output_file.hpp).
  FileRange(int fd, std::uint64_t start, std::string name, bool page_cache_only = false)
      : fd_(fd), start_(start), name_(std::move(name)), page_cache_only_(page_cache_only) {}

  // A writable shared mapping of some of the range; unmapped when destroyed.
  // Empty where the file could not be mapped.
  class Mapping {
  public:
    Mapping() = default;
    Mapping(Mapping&& other) noexcept
        : map_(std::exchange(other.map_, nullptr)), map_bytes_(std::exchange(other.map_bytes_, 0)),
          lead_(other.lead_) {}
    Mapping& operator=(Mapping&& other) noexcept {
      if (this != &other) {
        unmap();
        map_ = std::exchange(other.map_, nullptr);
        map_bytes_ = std::exchange(other.map_bytes_, 0);
        lead_ = other.lead_;
      }
      return *this;
    }
    ~Mapping() { unmap(); }
    explicit operator bool() const noexcept { return map_ != nullptr; }
    // Where the range's byte `offset` (as given to map()) is mapped.
    char* data() const noexcept { return static_cast<char*>(map_) + lead_; }

  private:
    friend class FileRange;
    Mapping(void* map, std::size_t map_bytes, std::size_t lead) : map_(map), map_bytes_(map_bytes), lead_(lead) {}
    void unmap() noexcept;

    void* map_ = nullptr;  // from the page boundary at or before the first byte
    std::size_t map_bytes_ = 0, lead_ = 0;
  };

  // Allocates [offset, offset + n) ahead of writes that will fill it exactly
  // (allocate_range); false, allocating nothing, where the file system cannot.
  bool allocate(std::uint64_t offset, std::uint64_t n) const { return allocate_range(fd_, start_ + offset, n, name_); }
  // Positional writes from `offset` on, through the page cache.
  std::unique_ptr<ByteSink> sink_at(std::uint64_t offset) const {
    return std::make_unique<PositionalSink>(fd_, start_ + offset, name_);
  }
  // Writes from `offset` on, behind the caller through the I/O engine per
  // `io` (whole aligned blocks O_DIRECT unless page_cache_only,
  // write_behind_sink.hpp): for bytes written once and not read again soon.
  // Its finish() does not fsync.
  std::unique_ptr<ByteSink> engine_sink_at(std::uint64_t offset, const IoOptions& io) const;
  // Maps [offset, offset + n) for writing, shared with the file: allocate()
  // it first, or a full file system turns a write into a SIGBUS. Empty where
  // the file cannot be mapped.
  Mapping map(std::uint64_t offset, std::uint64_t n) const;
  const std::string& name() const noexcept { return name_; }

private:
  int fd_;
  std::uint64_t start_;
  std::string name_;
  bool page_cache_only_;
};

// A run written sequentially into fd, compressed per `temp` (IoOptions:
// temp_codec at its fast level on `threads` threads at once, in pieces of
// piece_bytes, or temp_program) unless neither is set. stored_bytes() is the
// run's length in the file.
inline std::unique_ptr<ByteSink> page_cache_run_sink(int fd, const IoOptions& temp, unsigned threads = 1,
                                                     std::size_t piece_bytes = std::size_t{4} << 20) {
  if (!temp.temp_program.empty()) return program_compressing_sink(fd, temp.temp_program, "temporary file");
  return parallel_compressing_sink(std::make_unique<PositionalSink>(fd), temp.temp_codec, "temporary file", threads,
                                   piece_bytes);
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
