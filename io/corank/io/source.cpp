#include "corank/io/source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"

namespace corank::io {

namespace {

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
  FdSink(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  void write(const void* src, std::size_t n) override {
    write_full(fd_, src, n, name_);
    written_ += n;
  }
  void finish() override {
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && ::fsync(fd_) != 0)
      throw_io_error("fsync failed", name_, errno);
  }
  std::uint64_t bytes_written() const override { return written_; }

private:
  int fd_;
  std::string name_;
  std::uint64_t written_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> open_source(const std::string& path, const IoOptions&) {
  if (path == "-") return std::make_unique<FdSource>(FileDesc{}, STDIN_FILENO, "-");
  FileDesc fd = FileDesc::open(path, O_RDONLY);
  int raw = fd.get();
  return std::make_unique<FdSource>(std::move(fd), raw, path);
}

std::unique_ptr<ByteSink> make_fd_sink(int fd, std::string name, const IoOptions&) {
  return std::make_unique<FdSink>(fd, std::move(name));
}

}  // namespace corank::io
