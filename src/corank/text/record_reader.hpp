#pragma once
// Streams the records of one file (an input for -m and -c, or a spilled run)
// through a buffer: next() yields each record without its terminator, valid
// until the following call. A last record without terminator is supplied one.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/text_format.hpp"

namespace corank::text {

class RecordReader {
public:
  // read(dst, n) returns fewer than n bytes only at the end.
  using ReadFn = std::function<std::size_t(char*, std::size_t)>;
  // Records pass the format's check_record unless `check` is false (runs
  // written by the sort itself, whose records were checked on the way in).
  RecordReader(ReadFn read, std::string name, const TextFormat& format, std::size_t buffer_bytes, bool check = true);

  // False at the end of the file.
  bool next(std::string_view& record);
  const std::string& name() const noexcept { return name_; }

private:
  ReadFn read_;
  std::string name_;
  const TextFormat& format_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;
  std::uint64_t lines_ = 0;  // newlines consumed, for the format's error messages
  bool eof_ = false;
  bool check_ = true;
};

}  // namespace corank::text
