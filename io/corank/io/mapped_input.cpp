#include "corank/io/mapped_input.hpp"

#include <cerrno>
#include <fcntl.h>
#include <csignal>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

#include "corank/io/direct_fd.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/positional_input.hpp"
#include "corank/io/source.hpp"
#include "corank/io/temp_files.hpp"

namespace corank::io {

namespace {

// The SIGBUS handler's table: lock-free slots, each a mapped range, its
// file's descriptor and size when mapped, and the lines to print when a page
// of it has gone: the file shrank (the start of the line: the size now
// follows), or the page could not be read.
constexpr int kSlots = 64;  // a sort maps each of its inputs: a glob of logs
constexpr std::size_t kLineMax = 4096 + 256;
struct Line {
  std::array<char, kLineMax> text{};
  std::size_t size = 0;
  void assign(const std::string& s) {
    size = std::min(s.size(), kLineMax);
    std::memcpy(text.data(), s.data(), size);
  }
};
struct Slot {
  std::atomic<std::uintptr_t> begin{0}, end{0};  // end == 0: free
  int fd = -1;
  std::uint64_t size = 0;
  Line shrank, unreadable;
  std::string path;  // for check_mapped_inputs, under the mutex; never read by the handler
};
std::array<Slot, kSlots> g_slots;
std::mutex g_slots_mutex;
struct sigaction g_previous {};

// Set by the first thread to report a lost page: every thread that touches
// one at once raises SIGBUS, and one line is enough.
std::atomic<bool> g_reporting{false};

// What the handler writes: async-signal-safe calls only (fstat, write, pause, _exit).
[[noreturn]] void report_lost_page(const Slot& s) {
  if (g_reporting.exchange(true)) {
    for (;;) ::pause();  // until the reporting thread's _exit ends the process
  }
  struct stat st {};
  if (::fstat(s.fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) >= s.size) {
    [[maybe_unused]] ssize_t w = ::write(STDERR_FILENO, s.unreadable.text.data(), s.unreadable.size);
    ::_exit(2);
  }
  char tail[32];  // the size now, then " bytes)\n"
  char* p = tail + sizeof tail;
  for (const char c : {'\n', ')', 's', 'e', 't', 'y', 'b', ' '}) *--p = c;
  auto now = static_cast<std::uint64_t>(st.st_size);
  do *--p = static_cast<char>('0' + now % 10); while ((now /= 10) != 0);
  [[maybe_unused]] ssize_t w = ::write(STDERR_FILENO, s.shrank.text.data(), s.shrank.size);
  w = ::write(STDERR_FILENO, p, static_cast<std::size_t>(tail + sizeof tail - p));
  ::_exit(2);
}

extern "C" void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  // Raised by an access that returning would run again (not sent by kill or
  // raise, not an asynchronous memory error).
  const int code = info->si_code;
  const bool fault = code == BUS_ADRALN || code == BUS_ADRERR || code == BUS_OBJERR || code == BUS_MCEERR_AR;
  for (const Slot& s : g_slots) {
    if (!fault) break;
    const std::uintptr_t end = s.end.load(std::memory_order_acquire);
    if (end != 0 && addr >= s.begin.load(std::memory_order_relaxed) && addr < end) {
      unlink_registered_files();
      report_lost_page(s);
    }
  }
  // Not ours: the earlier disposition. Returning from a fault re-runs the
  // access, which then meets the default action; a sent signal is sent again.
  if (g_previous.sa_flags & SA_SIGINFO) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler == SIG_IGN) {
    if (fault) ::signal(sig, SIG_DFL);  // a fault cannot be ignored: the kernel would raise it forever
  } else if (g_previous.sa_handler != SIG_DFL) {
    g_previous.sa_handler(sig);
  } else {
    ::signal(sig, SIG_DFL);
    if (!fault) ::raise(sig);
  }
}

void install_sigbus_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previous);
  });
}

int register_range(const std::byte* p, std::uint64_t n, int fd, const std::string& path) {
  std::lock_guard lock(g_slots_mutex);
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[static_cast<std::size_t>(i)];
    if (s.end.load(std::memory_order_relaxed) != 0) continue;
    // As an IoError from a read would print them (error.hpp, source.hpp).
    const std::string head = std::string(program_invocation_short_name) + ": read failed: " + path + ": ";
    s.shrank.assign(head + std::string(kFileShrank) + " (from " + std::to_string(n) + " to ");
    s.unreadable.assign(head + std::strerror(EIO) + "\n");
    s.fd = fd;
    s.size = n;
    s.path = path;
    s.begin.store(reinterpret_cast<std::uintptr_t>(p), std::memory_order_relaxed);
    s.end.store(reinterpret_cast<std::uintptr_t>(p) + n, std::memory_order_release);
    return i;
  }
  return -1;
}

// Unmaps a mapping; one placed in a caller's reserved range becomes reserved
// pages again instead, so that no other mapping can take its addresses before
// the range's owner unmaps the whole range.
void release(const std::byte* p, std::uint64_t n, bool placed) noexcept {
  void* addr = const_cast<std::byte*>(p);
  if (placed)
    ::mmap(addr, static_cast<std::size_t>(n), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  else
    ::munmap(addr, static_cast<std::size_t>(n));
}

}  // namespace

std::unique_ptr<MappedInput> MappedInput::map_if_resident(const std::string& path, const IoOptions& opt,
                                                           std::uint64_t size, std::byte* at) {
  if (size == 0 || !PositionalInput::suits({path}, opt)) return nullptr;
  FileDesc fd = FileDesc::open(path, O_RDONLY);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw_io_error("stat failed", path, errno);
  // Shorter than the caller found it: reading reports that. Longer (a log
  // being written): the bytes it had then are mapped, as they would be read.
  if (!S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) < size) return nullptr;
  if (inject_failure(FaultPoint::read)) throw_io_error("read failed", path, EIO);
  // In memory: all but an eighth at most, which the sort's first pass then
  // faults in (with read-ahead). Not all: a cached file's pages leave the
  // cache a few at a time under memory pressure.
  if (!on_memory_file_system(fd.get()) && cached_share(fd.get(), 0, size) < 7.0 / 8) return nullptr;
  void* m = ::mmap(at, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED | (at ? MAP_FIXED : 0), fd.get(), 0);
  if (m == MAP_FAILED) return nullptr;
  auto* p = static_cast<const std::byte*>(m);
  const int slot = register_range(p, size, fd.get(), path);
  if (slot < 0) {
    release(p, size, at != nullptr);
    return nullptr;
  }
  install_sigbus_handler();
  // The sort reads the records front to back, then gathers them in key order.
  ::madvise(m, static_cast<std::size_t>(size), MADV_WILLNEED);
  return std::unique_ptr<MappedInput>(new MappedInput(p, size, at != nullptr, slot, std::move(fd)));
}

void check_mapped_inputs() {
  std::lock_guard lock(g_slots_mutex);
  for (const Slot& s : g_slots) {
    if (s.end.load(std::memory_order_acquire) == 0) continue;
    struct stat st {};
    if (::fstat(s.fd, &st) != 0) throw_io_error("stat failed", s.path, errno);
    if (static_cast<std::uint64_t>(st.st_size) < s.size) throw_file_shrank(s.path, s.fd, s.size);
  }
}

MappedInput::~MappedInput() {
  {
    std::lock_guard lock(g_slots_mutex);
    g_slots[static_cast<std::size_t>(slot_)].end.store(0, std::memory_order_release);
  }
  release(data_, size_, placed_);
}

}  // namespace corank::io
