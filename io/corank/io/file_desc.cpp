#include "corank/io/file_desc.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/thread_pool.hpp"

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
  if (inject_failure(FaultPoint::read)) throw_io_error("read failed", path, EIO);
  if (inject_failure(FaultPoint::early_end)) return 0;
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
  if (inject_failure(FaultPoint::write)) throw_io_error("write failed", file_name_in_errors(fd, path), ENOSPC);
  auto* p = static_cast<const char*>(src);
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::pwrite(fd, p + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      const int e = errno;
      throw_io_error("write failed", file_name_in_errors(fd, path), e);
    }
    done += static_cast<std::size_t>(r);
  }
}

std::size_t read_full(int fd, void* dst, std::size_t n, const std::string& path) {
  if (inject_failure(FaultPoint::read)) throw_io_error("read failed", path, EIO);
  if (inject_failure(FaultPoint::early_end)) return 0;
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

bool on_memory_file_system(int fd) noexcept {
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) return false;
  const auto type = static_cast<unsigned long>(fs.f_type);
  return type == TMPFS_MAGIC || type == RAMFS_MAGIC;
}

namespace {
bool pseudo(const struct statfs& fs) noexcept {
  switch (static_cast<unsigned long>(fs.f_type)) {
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case DEBUGFS_MAGIC:
    case TRACEFS_MAGIC:
    case SECURITYFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC: return true;
    default: return false;
  }
}
}  // namespace

bool on_pseudo_file_system(int fd) noexcept {
  struct statfs fs {};
  return ::fstatfs(fd, &fs) == 0 && pseudo(fs);
}

bool on_pseudo_file_system(const std::string& path) noexcept {
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 && pseudo(fs);
}

bool append_in_parallel(int fd, std::uint64_t offset, const void* src, std::size_t n, unsigned threads,
                        const std::string& path) {
  // A slice of at least this much per thread: below it, threads cost more than they gain.
  constexpr std::size_t kSlice = std::size_t{4} << 20;
  const std::size_t slices = std::clamp<std::size_t>(n / kSlice, 1, std::max(threads, 1u));
  const auto written = [&] {
    pwrite_full(fd, src, n, offset, path);
    return false;
  };
  if (slices == 1 || !on_memory_file_system(fd)) return written();
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t from = offset / page * page, lead = offset - from;  // mmap's offset is whole pages
  if (::ftruncate(fd, static_cast<off_t>(offset + n)) != 0) {
    const int e = errno;
    throw_io_error("write failed", file_name_in_errors(fd, path), e);
  }
  void* m = ::mmap(nullptr, lead + n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(from));
  if (m == MAP_FAILED) return written();
  auto* map = static_cast<char*>(m);
  // Populating a page allocates it and leaves its bytes alone: the lead's
  // bytes (written before) stay, and pages two slices share are safe.
  std::vector<int> failed(slices, 0);
  ThreadPool::shared().run(static_cast<unsigned>(slices), [&](unsigned i) {
    const std::size_t b = n * i / slices, e = n * (i + 1) / slices;
    const std::uint64_t at = (lead + b) / page * page;
    if (::madvise(map + at, static_cast<std::size_t>(lead + e - at), MADV_POPULATE_WRITE) != 0) {
      failed[i] = errno;
      return;
    }
    std::memcpy(map + lead + b, static_cast<const char*>(src) + b, e - b);
  });
  ::munmap(m, lead + n);
  for (const int e : failed) {
    if (e == 0) continue;
    // A kernel that cannot populate (EINVAL: older than 5.14) writes the
    // usual way; anything else is the file system refusing the pages.
    if (e == EINVAL) return written();
    throw_io_error("write failed", file_name_in_errors(fd, path), e == EFAULT || e == ENOMEM ? ENOSPC : e);
  }
  return true;
}

}  // namespace corank::io
