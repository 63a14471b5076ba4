#pragma once
// Move-only owner of a POSIX file descriptor; the destructor closes and never throws.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace corank::io {

class FileDesc {
public:
  FileDesc() = default;
  explicit FileDesc(int fd) noexcept : fd_(fd) {}
  FileDesc(FileDesc&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  FileDesc& operator=(FileDesc&& o) noexcept {
    if (this != &o) reset(std::exchange(o.fd_, -1));
    return *this;
  }
  FileDesc(const FileDesc&) = delete;
  FileDesc& operator=(const FileDesc&) = delete;
  ~FileDesc() { reset(); }

  // Opens path; throws IoError("open failed", path, errno) on failure.
  static FileDesc open(const std::string& path, int flags, unsigned mode = 0644);

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  int release() noexcept { return std::exchange(fd_, -1); }
  void reset(int fd = -1) noexcept;

private:
  int fd_ = -1;
};

// Whole-buffer positional I/O: retries EINTR and short transfers; throws
// IoError naming the syscall and `path`. pread_full returns fewer bytes only at EOF.
std::size_t pread_full(int fd, void* dst, std::size_t n, std::uint64_t offset, const std::string& path);
void pwrite_full(int fd, const void* src, std::size_t n, std::uint64_t offset, const std::string& path);
// Sequential variants for pipes and terminals.
std::size_t read_full(int fd, void* dst, std::size_t n, const std::string& path);
void write_full(int fd, const void* src, std::size_t n, const std::string& path);

}  // namespace corank::io
