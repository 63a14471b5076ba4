#pragma once
// Reads a file (or standard input, "-") as blocks of whole records in constant memory.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "corank/io/file_desc.hpp"

namespace corank::tools {

// The file's size is not a whole number of records; reported as a usage error (exit 2).
class RecordSizeError : public std::runtime_error {
public:
  RecordSizeError(const std::string& path, std::uint64_t size, std::uint32_t record_size);
};

class RecordReader {
public:
  // A regular file's size is checked here, before anything is read, so a bad
  // size never produces a partial report; pipes are checked at their end.
  // Throws RecordSizeError or corank::io::IoError.
  RecordReader(const std::string& path, std::uint32_t record_size);

  // Reads up to max_records whole records into out; returns how many, 0 at the end.
  std::uint64_t read(std::uint8_t* out, std::uint64_t max_records);

private:
  std::string name_;  // for messages
  std::uint32_t record_size_;
  corank::io::FileDesc owned_;
  int fd_;
  std::uint64_t total_ = 0;
};

// Calls on_block(records, count) for consecutive blocks of a few MiB until the end.
void scan_records(const std::string& path, std::uint32_t record_size,
                  const std::function<void(const std::uint8_t*, std::uint64_t)>& on_block);

// Records per read block: a few MiB, at least one record.
std::uint64_t records_per_block(std::uint32_t record_size) noexcept;

}  // namespace corank::tools
