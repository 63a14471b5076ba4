#pragma once
// The lines of a log file that decide its timestamp formats (time_inputs.hpp):
// its first lines, all of them where its first bytes hold the whole file;
// lines from windows spread over the rest of it, where it is stored as it
// reads (not compressed: the parts of logs concatenated into one file); and
// its last lines, so that a part appended last is seen too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "corank/io/options.hpp"

namespace corank::text {

// The first bytes of a file (decompressed where it is compressed), at most
// kFormatSampleBytes; empty when it cannot be read: the sort itself reports that.
std::string first_bytes(const std::string& path, const io::IoOptions& io);

// Up to `most` whole lines of `bytes` appended to `lines`; `from_line_start`:
// bytes begins a line (else its partial first line is dropped); `to_end`:
// bytes ends the file (its last line may lack a terminator).
void add_lines(std::string_view bytes, char eol, bool from_line_start, bool to_end, std::size_t most,
               std::vector<std::string_view>& lines);

class FileSample {
public:
  // The sample of the regular file `path` of `size` bytes.
  FileSample(const std::string& path, std::uint64_t size, char eol, const io::IoOptions& io);
  FileSample(const FileSample&) = delete;
  FileSample& operator=(const FileSample&) = delete;
  // Views into the bytes this object holds.
  const std::vector<std::string_view>& lines() const noexcept { return lines_; }

private:
  std::string head_;
  std::vector<std::string> windows_;
  std::vector<std::string_view> lines_;
};

}  // namespace corank::text
