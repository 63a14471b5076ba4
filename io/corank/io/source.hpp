#pragma once
// Sequential byte sources (input files, stdin) and sinks (output, spilled runs).
//
// What the factories return:
//   open_source(path)     regular file: ReadAheadSource (read_ahead_source.hpp),
//                         queue_depth blocks in flight through io_uring or pread;
//                         pipe/tty/stdin: plain read(2). Compressed input (.gz .bz2
//                         .xz .zst; a stream of text also by its header) is
//                         decompressed on the fly, and size() is then nullopt.
//   make_fd_sink(fd)      regular file: WriteBehindSink (write_behind_sink.hpp);
//                         otherwise plain write(2). finish() flushes and fsyncs
//                         (unless IoOptions::sync_output is off).
// Run files: run_file.hpp. Positional reads: segment_reader.hpp.
//
// One snapshot of a regular file: its size is taken when it is opened, reads
// stop there (a file that grows, a log being written, yields the bytes it had
// then), and a file found shorter than that while it is read is an error
// (throw_file_shrank), never a short input.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "corank/io/options.hpp"

namespace corank::io {

class ByteSource {
public:
  virtual ~ByteSource() = default;
  // Reads up to n bytes into dst; returns fewer than n only at end of input.
  virtual std::size_t read(void* dst, std::size_t n) = 0;
  // The number of bytes the source will yield, when known before reading.
  virtual std::optional<std::uint64_t> size() const = 0;
  // A regular file's size when it was opened, compressed or not: what
  // open_source's `snapshot` takes to open it again alike. nullopt otherwise.
  virtual std::optional<std::uint64_t> file_size() const { return size(); }
  const std::string& name() const noexcept { return name_; }

protected:
  explicit ByteSource(std::string name) : name_(std::move(name)) {}

private:
  std::string name_;
};

class ByteSink {
public:
  virtual ~ByteSink() = default;
  // May keep the bytes in memory and write them later (write-behind): a write
  // error can surface from a later write() or from finish().
  virtual void write(const void* src, std::size_t n) = 0;
  // Flushes everything written so far to the file (and fsyncs regular files,
  // except run sinks). Call it before reading the file back.
  virtual void finish() = 0;
  // Bytes passed to write().
  virtual std::uint64_t bytes_written() const = 0;
  // Bytes that reach the file: differs from bytes_written() when compressed.
  virtual std::uint64_t stored_bytes() const { return bytes_written(); }
};

// Whether a stream without a name to go by (standard input, a pipe) is told
// compressed by its first bytes. Text is: a compressed stream's header
// (codec.hpp) is never the start of a line. Binary records are not: their
// first bytes are anything, so a valid input would one day match.
enum class MagicBytes { detect, ignore };

// Opens `path` for reading; "-" is standard input. Decompresses per
// opt.input_codec (default: by suffix, else per `magic`). `snapshot`: the
// size a regular file had when the sort first opened it (a file opened again
// reads that much, and is reported if now shorter); by default its size now.
std::unique_ptr<ByteSource> open_source(const std::string& path, const IoOptions& opt,
                                        std::optional<std::uint64_t> snapshot = std::nullopt,
                                        MagicBytes magic = MagicBytes::detect);

// Why a read of an input ends the sort when the file is shorter than it was
// when opened: every reader of regular files says it in these words.
inline constexpr std::string_view kFileShrank = "the file shrank while it was being read";

// Throws IoError("read failed", path, "the file shrank while it was being read
// (from SNAPSHOT to N bytes)"), N the size of fd now.
[[noreturn]] void throw_file_shrank(const std::string& path, int fd, std::uint64_t snapshot);

// A sink writing sequentially to an open descriptor it does not own, from the
// descriptor's current offset; finish() fsyncs a regular file unless
// opt.sync_output is off.
std::unique_ptr<ByteSink> make_fd_sink(int fd, std::string name, const IoOptions& opt);

}  // namespace corank::io
