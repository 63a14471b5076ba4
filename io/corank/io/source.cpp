#include "corank/io/source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "corank/io/compressed_stream.hpp"
#include "corank/io/direct_fd.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/read_ahead_source.hpp"
#include "corank/io/write_behind_sink.hpp"

namespace corank::io {

namespace {

// Pipes, terminals, character devices: sequential read(2), no engine.
class FdSource final : public ByteSource {
public:
  FdSource(FileDesc owned, int fd, std::string name) : ByteSource(std::move(name)), owned_(std::move(owned)), fd_(fd) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_io_error("stat failed", this->name(), errno);
    if (S_ISDIR(st.st_mode)) throw IoError("read failed", this->name(), EISDIR);
    if (S_ISREG(st.st_mode)) size_ = static_cast<std::uint64_t>(st.st_size);
  }
  std::size_t read(void* dst, std::size_t n) override { return read_full(fd_, dst, n, name()); }
  std::optional<std::uint64_t> size() const override { return size_; }

private:
  FileDesc owned_;
  int fd_;
  std::optional<std::uint64_t> size_;
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

std::unique_ptr<ByteSource> open_source(const std::string& path, const IoOptions& opt) {
  std::unique_ptr<ByteSource> raw;
  bool regular = false;
  if (path == "-") {
    raw = std::make_unique<FdSource>(FileDesc{}, STDIN_FILENO, "-");
  } else {
    FileDesc fd = FileDesc::open(path, O_RDONLY);
    const int r = fd.get();
    regular = is_regular_file(r);
    if (regular)
      raw = std::make_unique<ReadAheadSource>(r, std::move(fd), path, opt);
    else
      raw = std::make_unique<FdSource>(std::move(fd), r, path);
  }
  if (opt.input_codec) return decompressing_source(std::move(raw), *opt.input_codec);
  const Codec by_suffix = path == "-" ? Codec::none : codec_from_suffix(path);
  if (by_suffix != Codec::none) return decompressing_source(std::move(raw), by_suffix);
  // A named regular file is compressed only if its suffix says so: random binary
  // records begin with a gzip or bzip2 magic often enough (about 1 in 2^27 files)
  // that sniffing them would one day reject a valid input. Pipes and standard
  // input have no name to go by, so there the magic bytes decide.
  if (regular) return raw;
  return detect_and_decompress(std::move(raw));
}

std::unique_ptr<ByteSink> make_fd_sink(int fd, std::string name, const IoOptions& opt) {
  if (positional_writes_ok(fd)) return std::make_unique<WriteBehindSink>(fd, std::move(name), opt, opt.sync_output);
  return std::make_unique<FdSink>(fd, std::move(name), opt.sync_output);
}

}  // namespace corank::io
