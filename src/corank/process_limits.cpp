#include "corank/process_limits.hpp"

#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace corank {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// The soft limit, or 0 where there is none.
std::uint64_t finite_limit(int resource) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  return limit.rlim_cur;
}

// Address space mapped now (/proc/self/statm), 0 where unknown.
std::uint64_t mapped_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long pages = 0;
  const int got = std::fscanf(f, "%llu", &pages);
  std::fclose(f);
  return got == 1 ? pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

// MemAvailable from /proc/meminfo, 0 where unknown.
std::uint64_t available_bytes() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
  std::fclose(f);
  return kib * 1024;
}

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + kMiB / 2) / kMiB) + " MiB"; }

}  // namespace

void bound_malloc_arenas() noexcept {
  if (finite_limit(RLIMIT_AS) || finite_limit(RLIMIT_DATA)) ::mallopt(M_ARENA_MAX, kArenasUnderALimit);
  if (!finite_limit(RLIMIT_AS)) return;
  pthread_attr_t attr;
  if (::pthread_getattr_default_np(&attr) != 0) return;
  std::size_t stack = 0;
  if (::pthread_attr_getstacksize(&attr, &stack) == 0 && stack > kThreadStackUnderALimit &&
      ::pthread_attr_setstacksize(&attr, kThreadStackUnderALimit) == 0)
    ::pthread_setattr_default_np(&attr);
  ::pthread_attr_destroy(&attr);
}

std::string memory_exhausted_message(std::uint64_t budget) {
  const std::string sort = budget ? "a sort with -S " + mib(budget) : "the sort";
  if (const std::uint64_t as = finite_limit(RLIMIT_AS))
    return "memory exhausted: the address-space limit (ulimit -v) of " + mib(as) + " is too small for " + sort +
           " besides the program's own " + mib(mapped_bytes()) + " (code, libraries, thread stacks)";
  if (const std::uint64_t data = finite_limit(RLIMIT_DATA))
    return "memory exhausted: the data limit (ulimit -d) of " + mib(data) + " is too small for " + sort;
  return "memory exhausted: the system refused more memory to " + sort + " (" + mib(available_bytes()) +
         " available)";
}

}  // namespace corank
