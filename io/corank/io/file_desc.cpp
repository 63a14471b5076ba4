#include "corank/io/file_desc.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"

namespace corank::io {

FileDesc FileDesc::open(const std::string& path, int flags, unsigned mode) {
  int fd;
  do {
    fd = ::open(path.c_str(), flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) throw_io_error("open failed", path, errno);
  return FileDesc(fd);
}

void FileDesc::reset(int fd) noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

std::size_t pread_full(int fd, void* dst, std::size_t n, std::uint64_t offset, const std::string& path) {
  if (inject_read_failure()) throw_io_error("read failed", path, EIO);
  auto* p = static_cast<char*>(dst);
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::pread(fd, p + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw_io_error("read failed", path, errno);
    }
    if (r == 0) break;
    done += static_cast<std::size_t>(r);
  }
  return done;
}

void pwrite_full(int fd, const void* src, std::size_t n, std::uint64_t offset, const std::string& path) {
  if (inject_write_failure()) throw_io_error("write failed", path, ENOSPC);
  auto* p = static_cast<const char*>(src);
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::pwrite(fd, p + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw_io_error("write failed", path, errno);
    }
    done += static_cast<std::size_t>(r);
  }
}

std::size_t read_full(int fd, void* dst, std::size_t n, const std::string& path) {
  if (inject_read_failure()) throw_io_error("read failed", path, EIO);
  auto* p = static_cast<char*>(dst);
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::read(fd, p + done, n - done);
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw_io_error("read failed", path, errno);
    }
    if (r == 0) break;
    done += static_cast<std::size_t>(r);
  }
  return done;
}

void write_full(int fd, const void* src, std::size_t n, const std::string& path) {
  auto* p = static_cast<const char*>(src);
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::write(fd, p + done, n - done);
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw_io_error("write failed", path, errno);
    }
    done += static_cast<std::size_t>(r);
  }
}

}  // namespace corank::io
