#include "corank/io/temp_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/owned_temporary.hpp"
#include "corank/io/quote_name.hpp"

namespace corank::io {

namespace {

// unlink_registered_files() may run in a signal handler, which may only touch
// lock-free state: a fixed table of path slots.
constexpr int kSlots = 64;
constexpr std::size_t kPathMax = 4096;
std::array<std::array<char, kPathMax>, kSlots> g_paths{};
std::array<std::atomic<bool>, kSlots> g_used{};
std::mutex g_register_mutex;

}  // namespace

void unlink_registered_files() noexcept {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load(std::memory_order_acquire)) ::unlink(g_paths[i].data());
}

TempDirectories::TempDirectories(std::vector<std::string> dirs) : dirs_(std::move(dirs)) {
  if (dirs_.empty()) {
    const char* t = std::getenv("TMPDIR");
    dirs_.emplace_back(t && *t ? t : "/tmp");
  }
  swept_.assign(dirs_.size(), false);
}

FileDesc TempDirectories::create_anonymous() {
  const std::size_t i = next_++ % dirs_.size();
  const std::string& dir = dirs_[i];
  int fd = inject_failure(FaultPoint::unnamed_file) ? (errno = EOPNOTSUPP, -1)
                                                    : ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return FileDesc(fd);
  // EISDIR, EINVAL: a kernel or file system without O_TMPFILE.
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    throw_io_error("cannot create temporary file in", dir, errno);
  if (!swept_[i]) {
    remove_stale_temporaries(dir, "run");
    swept_[i] = true;
  }
  std::string path;
  fd = create_owned_temporary(dir, "run", 0600, &path);
  if (fd < 0) {
    const int e = errno;
    struct stat st {};
    // A directory that answers "no such file" for a new file in it: a file
    // system that takes none (/proc, /sys).
    if (e == ENOENT && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw IoError("cannot create temporary file in", dir, "the file system there takes no new files");
    throw_io_error("cannot create temporary file in", dir, e);
  }
  ::unlink(path.c_str());
  return FileDesc(fd);
}

std::string file_name_in_errors(int fd, const std::string& name) {
  if (name != kTemporaryFile) return name;
  char link[PATH_MAX];
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(proc.c_str(), link, sizeof link);
  if (n <= 0 || link[0] != '/') return name;
  // "/dir/#1234 (deleted)" for an unnamed file: its directory is what it lies in.
  const std::string_view target(link, static_cast<std::size_t>(n));
  const std::size_t slash = target.rfind('/');
  return name + " in " + quote_name_always(target.substr(0, slash == 0 ? 1 : slash));
}

int register_cleanup(const std::string& path) {
  if (path.size() >= kPathMax) return -1;
  std::lock_guard lock(g_register_mutex);
  for (int i = 0; i < kSlots; ++i) {
    if (!g_used[i].load(std::memory_order_relaxed)) {
      std::memcpy(g_paths[i].data(), path.c_str(), path.size() + 1);
      g_used[i].store(true, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unregister_cleanup(int slot) noexcept {
  if (slot >= 0 && slot < kSlots) g_used[slot].store(false, std::memory_order_release);
}

}  // namespace corank::io
