#include "corank/io/direct_fd.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

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

double cached_share(int fd, std::uint64_t offset, std::uint64_t length) noexcept {
  if (length == 0) return 0;
  const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  constexpr std::uint64_t kWindow = std::uint64_t{256} << 10;
  constexpr std::uint64_t kWindows = 64;
  const std::uint64_t windows = std::min(kWindows, (length + kWindow - 1) / kWindow);
  std::uint64_t resident = 0, pages = 0;
  std::vector<unsigned char> vec(kWindow / page + 1);
  for (std::uint64_t w = 0; w < windows; ++w) {
    // Windows spread evenly over the range, page-aligned.
    const std::uint64_t at = (offset + (length - std::min(length, kWindow)) / std::max<std::uint64_t>(windows - 1, 1) * w) / page * page;
    const std::uint64_t len = std::min(kWindow, offset + length - at);
    void* map = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(at));
    if (map == MAP_FAILED) return 0;
    const bool ok = ::mincore(map, len, vec.data()) == 0;
    ::munmap(map, len);
    if (!ok) return 0;
    const std::uint64_t n = (len + page - 1) / page;
    for (std::uint64_t i = 0; i < n; ++i) resident += vec[i] & 1;
    pages += n;
  }
  return pages ? static_cast<double>(resident) / static_cast<double>(pages) : 0;
}

bool is_regular_file(int fd) noexcept {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace corank::io
