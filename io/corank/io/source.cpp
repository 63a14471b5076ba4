#include "corank/io/source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "corank/io/compressed_stream.hpp"
#include "corank/io/direct_fd.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/peeked_input.hpp"
#include "corank/io/read_ahead_source.hpp"
#include "corank/io/write_behind_sink.hpp"

namespace corank::io {

namespace {

// Pipes, terminals, character devices, the files of /proc and /sys:
// sequential read(2) to the end, no engine. Also standard input that is a
// regular file: read from its offset now up to the size it had when opened,
// as ReadAheadSource reads a named one.
class FdSource final : public ByteSource {
public:
  FdSource(FileDesc owned, int fd, std::string name) : ByteSource(std::move(name)), owned_(std::move(owned)), fd_(fd) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_io_error("stat failed", this->name(), errno);
    if (S_ISDIR(st.st_mode)) throw IoError("read failed", this->name(), EISDIR);
    const off_t at = S_ISREG(st.st_mode) && !on_pseudo_file_system(fd_) ? ::lseek(fd_, 0, SEEK_CUR) : -1;
    if (at >= 0) {
      end_ = static_cast<std::uint64_t>(st.st_size);
      start_ = at_ = std::min(static_cast<std::uint64_t>(at), *end_);
    }
  }
  std::size_t read(void* dst, std::size_t n) override {
    if (!end_) return read_full(fd_, dst, n, name());
    n = static_cast<std::size_t>(std::min<std::uint64_t>(n, *end_ - at_));
    const std::size_t got = read_full(fd_, dst, n, name());
    at_ += got;
    if (got < n) throw_file_shrank(name(), fd_, *end_);
    return got;
  }
  std::optional<std::uint64_t> size() const override {
    if (!end_) return std::nullopt;
    return *end_ - start_;
  }

private:
  FileDesc owned_;
  int fd_;
  std::optional<std::uint64_t> end_;  // a regular file: its size when opened
  std::uint64_t start_ = 0, at_ = 0;  // the offset read first, and next
};

class FdSink final : public ByteSink {
public:
  FdSink(int fd, std::string name, bool sync) : fd_(fd), name_(std::move(name)), sync_(sync) {}
  void write(const void* src, std::size_t n) override {
    write_full(fd_, src, n, name_);
    written_ += n;
  }
  void finish() override {
    struct stat st {};
    if (sync_ && ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && ::fsync(fd_) != 0)
      throw_io_error("fsync failed", name_, errno);
  }
  std::uint64_t bytes_written() const override { return written_; }

private:
  int fd_;
  std::string name_;
  bool sync_;
  std::uint64_t written_ = 0;
};

// Positional writes ignore the offset under O_APPEND: such descriptors (">>")
// must be written in order, so they get the plain sink.
bool positional_writes_ok(int fd) {
  int fl = ::fcntl(fd, F_GETFL);
  return fl >= 0 && (fl & O_APPEND) == 0 && is_regular_file(fd);
}

}  // namespace

std::unique_ptr<ByteSource> open_source(const std::string& path, const IoOptions& opt,
                                        std::optional<std::uint64_t> snapshot, MagicBytes magic) {
  std::unique_ptr<ByteSource> raw;
  bool regular = false;
  if (auto peeked = take_peeked_input(path)) {  // its first bytes read ahead (peeked_input.hpp)
    raw = head_first(std::move(peeked->head),
                     peeked->ended ? nullptr : std::make_unique<FdSource>(std::move(peeked->owned), peeked->fd, path),
                     path);
  } else if (path == "-") {
    raw = std::make_unique<FdSource>(FileDesc{}, STDIN_FILENO, "-");
  } else {
    FileDesc fd = FileDesc::open(path, O_RDONLY);
    const int r = fd.get();
    regular = is_regular_file(r) && !on_pseudo_file_system(r);
    if (regular)
      raw = std::make_unique<ReadAheadSource>(r, std::move(fd), path, opt, 0, snapshot);
    else
      raw = std::make_unique<FdSource>(std::move(fd), r, path);
  }
  if (opt.input_codec) return decompressing_source(std::move(raw), *opt.input_codec);
  const Codec by_suffix = path == "-" ? Codec::none : codec_from_suffix(path);
  if (by_suffix != Codec::none) return decompressing_source(std::move(raw), by_suffix);
  // A named regular file is compressed only if its suffix says so, and binary
  // records never by their first bytes: random records begin with a gzip
  // header often enough (about 1 in 2^27 inputs) that sniffing them would one
  // day reject a valid input. A pipe or standard input of text has no name to
  // go by, so there the stream's header decides.
  if (regular || magic == MagicBytes::ignore) return raw;
  return detect_and_decompress(std::move(raw));
}

void throw_file_shrank(const std::string& path, int fd, std::uint64_t snapshot) {
  struct stat st {};
  std::string why(kFileShrank);
  if (::fstat(fd, &st) == 0)
    why += " (from " + std::to_string(snapshot) + " to " + std::to_string(st.st_size) + " bytes)";
  throw IoError("read failed", path, why);
}

std::unique_ptr<ByteSink> make_fd_sink(int fd, std::string name, const IoOptions& opt) {
  if (positional_writes_ok(fd)) return std::make_unique<WriteBehindSink>(fd, std::move(name), opt, opt.sync_output);
  return std::make_unique<FdSink>(fd, std::move(name), opt.sync_output);
}

}  // namespace corank::io
