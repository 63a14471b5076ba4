#include "corank/text/time_sample.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <exception>

#include "corank/io/file_desc.hpp"
#include "corank/io/source.hpp"
#include "corank/text/time_inputs.hpp"

namespace corank::text {

namespace {

// Bytes of a file at evenly spaced places past its first kFormatSampleBytes,
// where the file is stored as it reads (not compressed): the parts of logs
// concatenated into one file. The last window is the file's end, so that a
// part appended last is seen too. Each window's partial first line is
// dropped by the caller.
std::vector<std::string> windows(const std::string& path, std::uint64_t size, std::string_view head) {
  std::vector<std::string> out;
  if (size <= head.size()) return out;
  const io::FileDesc fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return out;
  std::string raw(head.size(), '\0');
  if (::pread(fd.get(), raw.data(), raw.size(), 0) != static_cast<ssize_t>(raw.size()) || raw != head) return out;
  for (std::size_t k = 1; k <= kFormatSampleWindows + 1; ++k) {
    const std::uint64_t at = k <= kFormatSampleWindows ? size / (kFormatSampleWindows + 1) * k
                                                       : size - std::min<std::uint64_t>(size, kFormatWindowBytes);
    std::string w(static_cast<std::size_t>(std::min<std::uint64_t>(kFormatWindowBytes, size - at)), '\0');
    const ssize_t n = ::pread(fd.get(), w.data(), w.size(), static_cast<off_t>(at));
    if (n <= 0) break;
    w.resize(static_cast<std::size_t>(n));
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace

std::string first_bytes(const std::string& path, const io::IoOptions& io) {
  io::IoOptions small = io;
  small.block_size = kFormatSampleBytes;
  small.queue_depth = 1;
  small.use_uring = false;
  small.direct = false;
  small.read_threads = 1;
  small.verbose = false;  // a peek at the head: the sort's own reads say which engine reads
  std::string bytes(kFormatSampleBytes, '\0');
  try {
    auto src = io::open_source(path, small);
    bytes.resize(src->read(bytes.data(), bytes.size()));
  } catch (const std::exception&) {
    bytes.clear();
  }
  return bytes;
}

void add_lines(std::string_view bytes, char eol, bool from_line_start, bool to_end, std::size_t most,
               std::vector<std::string_view>& lines) {
  if (!from_line_start) {
    const std::size_t n = bytes.find(eol);
    bytes.remove_prefix(n == std::string_view::npos ? bytes.size() : n + 1);
  }
  for (std::size_t taken = 0; !bytes.empty() && taken < most; ++taken) {
    const std::size_t n = bytes.find(eol);
    if (n == std::string_view::npos) {
      if (to_end) lines.push_back(bytes);
      break;
    }
    lines.push_back(bytes.substr(0, n));
    bytes.remove_prefix(n + 1);
  }
}

FileSample::FileSample(const std::string& path, std::uint64_t size, char eol, const io::IoOptions& io)
    : head_(first_bytes(path, io)) {
  // A file that its head holds whole is sampled whole: a format of its last
  // lines alone is found, as the last window finds it in a larger file.
  const bool whole = head_.size() < kFormatSampleBytes || size == head_.size();
  add_lines(head_, eol, true, whole, whole ? SIZE_MAX : kFormatSampleLines, lines_);
  windows_ = windows(path, size, head_);
  for (std::size_t k = 0; k + 1 < windows_.size(); ++k) add_lines(windows_[k], eol, false, false, kFormatSampleLines, lines_);
  if (windows_.empty()) return;
  // The file's end: its last lines, however many its window holds.
  std::vector<std::string_view> tail;
  add_lines(windows_.back(), eol, false, true, SIZE_MAX, tail);
  const std::size_t from = tail.size() > kFormatSampleLines ? tail.size() - kFormatSampleLines : 0;
  lines_.insert(lines_.end(), tail.begin() + static_cast<std::ptrdiff_t>(from), tail.end());
}

}  // namespace corank::text
