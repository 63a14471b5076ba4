#include "corank/io/target_replacement.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/owned_temporary.hpp"
#include "corank/io/termination.hpp"

namespace corank::io {

namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool symlinks_protected() {
  const FileDesc f(::open("/proc/sys/fs/protected_symlinks", O_RDONLY | O_CLOEXEC));
  char c = '1';  // unknown: as most systems have it
  if (f.valid() && ::read(f.get(), &c, 1) != 1) c = '1';
  return c != '0';
}

// The kernel's rule for following `link` (fs.protected_symlinks): not in a
// sticky world-writable directory (/tmp) unless the follower or the
// directory's owner owns the link.
bool may_follow(const std::string& link, const struct stat& lst) {
  if (lst.st_uid == ::geteuid()) return true;
  struct stat dir {};
  if (::stat(directory_of(link).c_str(), &dir) != 0) return true;
  const bool shared = (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH);
  return !shared || dir.st_uid == lst.st_uid || !symlinks_protected();
}

}  // namespace

std::string resolve_target(const std::string& target) {
  struct stat st {};
  if (::lstat(target.c_str(), &st) == 0 && S_ISLNK(st.st_mode) && !may_follow(target, st))
    throw_io_error("open failed", target, EACCES);
  if (::stat(target.c_str(), &st) == 0) {
    char resolved[PATH_MAX];
    return ::realpath(target.c_str(), resolved) != nullptr ? std::string(resolved) : target;
  }
  if (errno == ELOOP) throw_io_error("open failed", target, ELOOP);
  if (errno != ENOENT) return target;  // creating the file will say what is wrong
  // A name that does not exist, or a dangling symlink: its end is created.
  std::string path = target;
  for (int hops = 0; hops < 40; ++hops) {
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    if (!may_follow(path, st)) throw_io_error("open failed", target, EACCES);
    std::vector<char> link(static_cast<std::size_t>(std::max<off_t>(st.st_size, 255)) + 1);
    const ssize_t n = ::readlink(path.c_str(), link.data(), link.size());
    if (n < 0 || static_cast<std::size_t>(n) == link.size()) return path;  // changed under us: let creation decide
    const std::string to(link.data(), static_cast<std::size_t>(n));
    path = to.starts_with('/') ? to : directory_of(path) + "/" + to;
  }
  throw_io_error("open failed", target, ELOOP);
}

int open_unnamed(const std::string& dir, unsigned mode) {
  if (inject_failure(FaultPoint::unnamed_file)) {
    errno = EOPNOTSUPP;
    return -1;
  }
  int fd;
  do {
    fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  // EISDIR, EINVAL: a kernel or file system without O_TMPFILE.
  if (fd < 0 && (errno == EISDIR || errno == EINVAL)) errno = EOPNOTSUPP;
  return fd;
}

std::string link_beside(int fd, const std::string& file) {
  const std::string dir = directory_of(file);
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = owned_temporary_name(dir, base_of(file));
    if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return name;
    const int e = errno;
    if (e == EEXIST) continue;
    // Without /proc: the descriptor itself (CAP_DAC_READ_SEARCH before Linux 6.10).
    if (e == ENOENT && ::linkat(fd, "", AT_FDCWD, name.c_str(), AT_EMPTY_PATH) == 0) return name;
    throw_io_error("cannot create output file in", dir, e);
  }
  throw_io_error("cannot create output file in", dir, EEXIST);
}

namespace {

// Takes the file's exclusive lock, waiting for another holder. A file system
// without locks (ENOLCK, some network file systems) is written unlocked.
void lock(int fd, const std::string& target) {
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    if (errno == ENOLCK || errno == EOPNOTSUPP || errno == EINVAL) return;
    throw_io_error("cannot lock", target, errno);
  }
}

void copy_bytes(int from, int to, std::uint64_t size, const std::string& target) {
  std::uint64_t at = 0;
  while (at < size) {
    if (inject_failure(FaultPoint::write)) throw_io_error("write failed", target, ENOSPC);
    auto off = static_cast<off_t>(at), to_off = static_cast<off_t>(at);
    const ssize_t n = ::copy_file_range(from, &off, to, &to_off, std::min<std::uint64_t>(size - at, 1u << 30), 0);
    if (n > 0) {
      at += static_cast<std::uint64_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL) {
      // No in-kernel copy between these files: through a buffer.
      std::vector<char> buf(std::size_t{4} << 20);
      while (at < size) {
        const std::size_t got = pread_full(
            from, buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), size - at)), at, target);
        if (got == 0) throw IoError("write failed", target, "temporary output ended early");
        pwrite_full(to, buf.data(), got, at, target);
        at += got;
      }
      return;
    }
    throw_io_error("write failed", target, errno);
  }
}

}  // namespace

void copy_over(int from, const std::string& path, const std::string& target, bool sync) {
  struct stat st {};
  if (::fstat(from, &st) != 0) throw_io_error("stat failed", target, errno);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  // Not O_TRUNC: the old content stays until the new one is copied over it.
  FileDesc out = FileDesc::open(path, O_WRONLY);
  lock(out.get(), target);
  // Space first (beyond the end too: KEEP_SIZE leaves the old size), so that a
  // full file system fails here. Where allocating is not supported, the copy
  // finds out.
  if (size > 0) {
    if (inject_failure(FaultPoint::write)) throw_io_error("write failed", target, ENOSPC);
    int r;
    while ((r = ::fallocate(out.get(), FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(size))) != 0 && errno == EINTR) {
    }
    if (r != 0 && errno != EOPNOTSUPP && errno != ENOSYS) throw_io_error("write failed", target, errno);
  }
  const DeferTermination hold;
  copy_bytes(from, out.get(), size, target);
  if (::ftruncate(out.get(), static_cast<off_t>(size)) != 0) throw_io_error("write failed", target, errno);
  if (sync && ::fsync(out.get()) != 0) throw_io_error("fsync failed", target, errno);
}

}  // namespace corank::io
