#include "corank/io/target_replacement.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/owned_temporary.hpp"

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

}  // namespace

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

}  // namespace corank::io
