#include "corank/io/direct_fd.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <string>

namespace corank::io {

FileDesc reopen_direct(int fd) noexcept {
  int fl = ::fcntl(fd, F_GETFL);
  if (fl < 0) return FileDesc{};
  std::string proc = "/proc/self/fd/" + std::to_string(fd);
  // O_APPEND would make every direct write land at the end, whatever its offset.
  int acc = fl & O_ACCMODE;
  int d = ::open(proc.c_str(), acc | O_DIRECT | O_CLOEXEC);
  return FileDesc(d);
}

bool is_regular_file(int fd) noexcept {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace corank::io
