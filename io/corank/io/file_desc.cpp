#include "corank/io/file_desc.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

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

int prefault_for_write(void* p, std::size_t n) noexcept {
  if (n == 0) return 0;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto lo = reinterpret_cast<std::uintptr_t>(p) / page * page;
  const auto hi = (reinterpret_cast<std::uintptr_t>(p) + n + page - 1) / page * page;
#ifdef MADV_POPULATE_WRITE
  if (::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_POPULATE_WRITE) == 0) return 0;
  if (errno != EINVAL) return errno;  // ENOMEM, or EFAULT for memory that cannot be written
#endif
  // Kernels before 5.14: no such advice. Touching a page is not safe in
  // general (it may be read-only, or not ours): answer as the read did.
  return EFAULT;
}

std::size_t pread_full(int fd, void* dst, std::size_t n, std::uint64_t offset, const std::string& path) {
  if (inject_read_failure()) throw_io_error("read failed", path, EIO);
  auto* p = static_cast<char*>(dst);
  std::size_t done = 0;
  bool prefaulted = false;
  while (done < n) {
    ssize_t r = ::pread(fd, p + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == EFAULT && !prefaulted) {
        prefaulted = true;  // see prefault_for_write
        if (const int e = prefault_for_write(p + done, n - done); e != 0) throw_io_error("read failed", path, e);
        continue;
      }
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
