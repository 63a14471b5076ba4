#pragma once
// Reads a file (or standard input, "-") as blocks of whole records in constant memory.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace corank::tools {

// The file's size is not a whole number of records; reported as a usage error (exit 2).
class RecordSizeError : public std::runtime_error {
public:
  RecordSizeError(const std::string& path, std::uint64_t size, std::uint32_t record_size);
};

// Calls on_block(records, count) for consecutive blocks (a few MiB each) until
// the end. A regular file's size is checked before anything is read, so a bad
// size never produces a partial report; pipes are checked at their end.
// Throws RecordSizeError or corank::io::IoError.
void scan_records(const std::string& path, std::uint32_t record_size,
                  const std::function<void(const std::uint8_t*, std::uint64_t)>& on_block);

}  // namespace corank::tools
