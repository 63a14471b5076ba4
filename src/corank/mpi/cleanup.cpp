#include "corank/mpi/cleanup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "corank/io/temp_files.hpp"

namespace corank::mpi {

namespace {

// remove_registered_paths() reads this table without a lock, on the thread
// that takes signals while others may still register: a fixed table of
// atomic flags, no allocation.
constexpr int kSlots = 64;
constexpr std::size_t kPathMax = 4096;
struct Slot {
  std::array<char, kPathMax> path{};
  bool directory = false;
  std::atomic<bool> used{false};
};
Slot g_slots[kSlots];
std::mutex g_register_mutex;

// getdents64's record (the C library declares none).
struct Dirent64 {
  std::uint64_t ino;
  std::int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

bool dot_or_dotdot(const char* n) { return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')); }

// The files in `dir`, then `dir`; no allocation (raw getdents64, not
// opendir). Entries are unlinked while the directory is read, so it is read
// again until a pass finds none.
void remove_directory(const char* dir) noexcept {
  const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char buf[4096];
    for (bool removed = true; removed;) {
      removed = false;
      ::lseek(fd, 0, SEEK_SET);
      for (long n; (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
        for (long at = 0; at < n;) {
          const auto* d = reinterpret_cast<const Dirent64*>(buf + at);
          if (!dot_or_dotdot(d->name) && ::unlinkat(fd, d->name, 0) == 0) removed = true;
          at += d->reclen;
        }
    }
    ::close(fd);
  }
  ::rmdir(dir);
}

std::string host_name() {
  char h[256] = {};
  if (::gethostname(h, sizeof h - 1) != 0 || h[0] == '\0') return "localhost";
  std::string s = h;
  for (char& c : s)
    if (c == '/') c = '_';
  return s;
}

// Of /proc/PID/stat: field 22, the process's start (0 where it cannot be
// read), and field 3, its state.
struct ProcessStat {
  unsigned long long start = 0;
  char state = '?';
};
ProcessStat process_stat(long pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(f, stat);
  ProcessStat s;
  const auto paren = stat.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos) return s;
  std::istringstream fields(stat.substr(paren + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
    if (i == 3) s.state = field[0];
    if (i == 22) s.start = std::strtoull(field.c_str(), nullptr, 10);
  }
  return s;
}

bool digits_only(const std::string& s) {
  return !s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::string job_mark() {
  static const std::string mark =
      "corank-mpi." + host_name() + "." + std::to_string(::getpid()) + "." + std::to_string(process_stat(::getpid()).start);
  return mark;
}

bool parse_job_mark(const std::string& name, JobMark& mark) {
  static const std::string kMark = "corank-mpi.";
  const auto at = name.rfind(kMark);
  if (at == std::string::npos || (at > 0 && name[at - 1] != '.')) return false;
  // <host>.<pid>.<start>.<tag>, the host perhaps with dots of its own: read from the right.
  std::string rest = name.substr(at + kMark.size());
  std::string parts[3];  // tag, start, pid
  for (auto& p : parts) {
    const auto dot = rest.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size()) return false;
    p = rest.substr(dot + 1);
    rest.resize(dot);
  }
  if (!digits_only(parts[1]) || !digits_only(parts[2]) || parts[2].size() > 9) return false;
  mark.host = rest;
  mark.start = std::strtoull(parts[1].c_str(), nullptr, 10);
  mark.pid = std::stol(parts[2]);
  return mark.pid > 0;
}

bool alive(const JobMark& mark) {
  if (::kill(static_cast<pid_t>(mark.pid), 0) != 0 && errno == ESRCH) return false;
  // A process with that id: the one that made the mark only if it started
  // then, and not if it has ended (killed, not yet reaped by its parent).
  const ProcessStat s = process_stat(mark.pid);
  if (s.state == 'Z' || s.state == 'X') return false;
  return s.start == 0 || mark.start == 0 || s.start == mark.start;
}

void sweep_dead_jobs(const std::string& dir) {
  static const std::string mine = [] {
    JobMark m;
    parse_job_mark(job_mark() + ".x", m);
    return m.host;
  }();
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    JobMark mark;
    if (!parse_job_mark(e->d_name, mark) || mark.host != mine || alive(mark)) continue;
    const std::string path = dir + "/" + e->d_name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode))
      remove_directory(path.c_str());
    else
      ::unlink(path.c_str());
  }
  ::closedir(d);
}

void remove_registered_paths() noexcept {
  io::unlink_registered_files();  // the library's named temporaries, and most of this table's files
  for (int pass = 0; pass < 2; ++pass)  // files first: a directory may hold some
    for (auto& s : g_slots)
      if (s.used.load(std::memory_order_acquire) && s.directory == (pass == 1)) {
        if (s.directory)
          remove_directory(s.path.data());
        else
          ::unlink(s.path.data());
      }
}

CleanupPath::CleanupPath(const std::string& path, bool directory) {
  // The library's own dying paths (a mapped input that shrank: SIGBUS, see
  // io/mapped_input.hpp) remove the files it knows of: this one too.
  if (!directory) io_slot_ = io::register_cleanup(path);
  if (path.size() >= kPathMax) return;
  std::lock_guard lock(g_register_mutex);
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    if (s.used.load(std::memory_order_relaxed)) continue;
    std::memcpy(s.path.data(), path.c_str(), path.size() + 1);
    s.directory = directory;
    s.used.store(true, std::memory_order_release);
    slot_ = i;
    return;
  }
}

CleanupPath::CleanupPath(CleanupPath&& o) noexcept : slot_(o.slot_), io_slot_(o.io_slot_) {
  o.slot_ = -1;
  o.io_slot_ = -1;
}

CleanupPath& CleanupPath::operator=(CleanupPath&& o) noexcept {
  if (this != &o) {
    release();
    slot_ = o.slot_;
    io_slot_ = o.io_slot_;
    o.slot_ = -1;
    o.io_slot_ = -1;
  }
  return *this;
}

void CleanupPath::release() noexcept {
  if (slot_ >= 0) g_slots[slot_].used.store(false, std::memory_order_release);
  if (io_slot_ >= 0) io::unregister_cleanup(io_slot_);
  slot_ = -1;
  io_slot_ = -1;
}

}  // namespace corank::mpi
