#include "corank/io/owned_temporary.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <optional>
#include <random>
#include <string_view>

namespace corank::io {

namespace {

constexpr std::size_t kStemMax = 140;  // + ".corank-" and at most 64 + 1 + 10 + 1 + 20 + 1 + 6: within NAME_MAX (255)
constexpr std::size_t kHostMax = 64;
constexpr std::string_view kMark = ".corank-";

std::string prefix_of(const std::string& stem) {
  // Appended one by one: chained operator+ trips GCC 12's -Wrestrict false positive.
  std::string p(1, '.');
  p.append(stem, 0, kStemMax);
  p.append(kMark);
  return p;
}

std::string host_name() {
  char buf[kHostMax + 1] = {};
  if (::gethostname(buf, kHostMax) != 0 || buf[0] == '\0') return "localhost";
  std::string h(buf);
  for (char& c : h)
    if (c == '/') c = '_';
  return h;
}

bool proc_mounted() { return ::access("/proc/self/stat", F_OK) == 0; }

// The start time of process `pid` in clock ticks since boot (field 22 of
// /proc/PID/stat); 0 where /proc cannot tell; nullopt when there is no such process.
std::optional<unsigned long long> start_time(pid_t pid) {
  if (!proc_mounted()) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return std::nullopt;
    return 0;
  }
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT || errno == ESRCH ? std::nullopt : std::optional<unsigned long long>(0);
  char buf[1024];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return 0;
  const std::string_view s(buf, static_cast<std::size_t>(n));
  // "PID (COMM) STATE ...": COMM may hold spaces and parentheses; the fields
  // after its last ')' are numbered from 3 (STATE) on.
  std::size_t at = s.rfind(')');
  if (at == std::string_view::npos) return 0;
  for (int field = 2; field < 22 && at != std::string_view::npos; ++field) at = s.find(' ', at + 1);
  if (at == std::string_view::npos) return 0;
  unsigned long long t = 0;
  std::from_chars(s.data() + at + 1, s.data() + s.size(), t);
  return t;
}

const std::string& own_host() {
  static const std::string h = host_name();
  return h;
}

unsigned long long own_start() {
  static const unsigned long long t = start_time(::getpid()).value_or(0);
  return t;
}

// Six random letters and digits.
std::string random_suffix() {
  static const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device rd;
  std::string s(6, 'x');
  for (auto& c : s) c = kLetters[rd() % (sizeof kLetters - 1)];
  return s;
}

bool parse_number(std::string_view s, unsigned long long& v) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Whether the owner named by `rest` ("HOST-PID-START-XXXXXX") is a process of
// this host that is gone. The host may hold '-': the fields are taken from the right.
bool owner_gone(std::string_view rest) {
  const auto cut = [&rest](std::string_view& field) {
    const std::size_t dash = rest.rfind('-');
    if (dash == std::string_view::npos) return false;
    field = rest.substr(dash + 1);
    rest = rest.substr(0, dash);
    return true;
  };
  std::string_view letters, start_field, pid_field;
  if (!cut(letters) || !cut(start_field) || !cut(pid_field) || letters.size() != 6) return false;
  unsigned long long pid = 0, start = 0;
  if (!parse_number(pid_field, pid) || !parse_number(start_field, start) || pid == 0) return false;
  if (rest != own_host()) return false;
  if (pid == static_cast<unsigned long long>(::getpid())) return start != own_start() && start != 0 && own_start() != 0;
  const auto now = start_time(static_cast<pid_t>(pid));
  if (!now) return true;
  return *now != 0 && start != 0 && *now != start;  // the PID serves another process now
}

}  // namespace

std::string owned_temporary_name(const std::string& dir, const std::string& stem) {
  return (dir == "/" ? "" : dir) + "/" + prefix_of(stem) + own_host() + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(own_start()) + "-" + random_suffix();
}

int create_owned_temporary(const std::string& dir, const std::string& stem, unsigned mode, std::string* path) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = owned_temporary_name(dir, stem);
    // The kernel applies the umask to a new file's mode: no process-wide umask
    // juggling, which would race with other threads.
    const int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) {
      *path = std::move(name);
      return fd;
    }
    if (errno != EEXIST) return -1;
  }
  errno = EEXIST;
  return -1;
}

void remove_stale_temporaries(const std::string& dir, const std::string& stem) noexcept {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  try {
    const std::string prefix = prefix_of(stem);
    while (const dirent* e = ::readdir(d)) {
      const std::string_view name(e->d_name);
      if (name.starts_with(prefix) && owner_gone(name.substr(prefix.size())))
        ::unlinkat(::dirfd(d), e->d_name, 0);
    }
  } catch (...) {
    // Out of memory for a name: the files stay for a later run.
  }
  ::closedir(d);
}

}  // namespace corank::io
