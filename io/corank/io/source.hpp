#pragma once
// Sequential byte sources (input files, stdin) and sinks (output, spilled runs).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "corank/io/options.hpp"

namespace corank::io {

class ByteSource {
public:
  virtual ~ByteSource() = default;
  // Reads up to n bytes into dst; returns fewer than n only at end of input.
  virtual std::size_t read(void* dst, std::size_t n) = 0;
  // The number of bytes the source will yield, when known before reading.
  virtual std::optional<std::uint64_t> size() const = 0;
  const std::string& name() const noexcept { return name_; }

protected:
  explicit ByteSource(std::string name) : name_(std::move(name)) {}

private:
  std::string name_;
};

class ByteSink {
public:
  virtual ~ByteSink() = default;
  virtual void write(const void* src, std::size_t n) = 0;
  // Flushes everything written so far to the file (and fsyncs regular files).
  virtual void finish() = 0;
  virtual std::uint64_t bytes_written() const = 0;
};

// Opens `path` for reading; "-" is standard input.
std::unique_ptr<ByteSource> open_source(const std::string& path, const IoOptions& opt);

// A sink writing sequentially to an open descriptor it does not own.
std::unique_ptr<ByteSink> make_fd_sink(int fd, std::string name, const IoOptions& opt);

}  // namespace corank::io
