// corank-bench touch: what a first touch of fresh anonymous memory costs on
// this machine, with 4 KiB pages and with huge pages advised
// (io/corank/io/huge_pages.hpp decides between them for the sorter's
// buffers), each touched a page at a time or populated in one call a thread
// (io::prefault_for_write, as the sorter does before writing a range whole).
// Each rep takes the four ways in a rotated order; each maps SIZE MiB, has
// THREADS threads write a byte a page or populate their share, times it,
// writes every cache line again (memory already backed) and unmaps it, after
// IDLE seconds of rest: a VM may hand memory freed a few seconds ago back to
// its host.
//
//   corank-bench touch [--mib 1024] [--threads 2] [--reps 2] [--idle 5]
#include <sys/mman.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <thread>
#include <vector>

#include "corank/io/file_desc.hpp"
#include "corank/io/fresh_pages.hpp"
#include "corank/io/huge_pages.hpp"
#include "corank/stopwatch.hpp"

namespace {

using corank::Clock;
using corank::seconds_since;

void touch(bool huge, bool populate, std::size_t bytes, unsigned threads) {
  auto t0 = Clock::now();
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("corank-bench touch: mmap");
    return;
  }
  auto* m = static_cast<volatile char*>(p);
  if (huge) ::madvise(p, bytes, MADV_HUGEPAGE);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([=] {
      const std::size_t b = bytes / threads * t, e = bytes / threads * (t + 1);
      if (populate) (void)corank::io::prefault_for_write(const_cast<char*>(m + b), e - b);
      else
        for (std::size_t i = b; i < e; i += 4096) m[i] = 1;
    });
  for (auto& t : pool) t.join();
  const double first = seconds_since(t0);
  t0 = Clock::now();
  for (std::size_t i = 0; i < bytes; i += 64) m[i] = static_cast<char>(m[i] + 1);
  const double again = seconds_since(t0);
  ::munmap(p, bytes);
  std::printf("%-10s %-9s %zu MiB, %u threads: first touch %.3f s (%.2f GB/s); written again, one thread, %.3f s\n",
              huge ? "huge pages" : "4 KiB", populate ? "populated" : "touched", bytes >> 20, threads, first,
              static_cast<double>(bytes) / first / 1e9, again);
}

}  // namespace

int bench_touch(int argc, char** argv) {
  CLI::App app{"corank-bench touch: the cost of a first touch of fresh memory, 4 KiB pages against huge pages, "
               "touched or populated"};
  std::size_t mib = 1024;
  unsigned threads = 2, reps = 2, idle = 5;
  app.add_option("--mib", mib, "memory mapped each time, MiB");
  app.add_option("--threads", threads, "threads touching it");
  app.add_option("--reps", reps, "rounds of the four ways");
  app.add_option("--idle", idle, "seconds of rest before each touch");
  CLI11_PARSE(app, argc, argv);
  if (threads == 0) threads = 1;
  std::printf("huge pages advised for corank's buffers here: %s\n", corank::io::huge_pages_pay() ? "yes" : "no");
  std::printf("a fault here: %.2f us a page; fresh pages populated: %s\n", corank::io::fault_microseconds(),
              corank::io::populate_pays() ? "yes" : "no");
  for (unsigned r = 0; r < reps; ++r)
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned way = (k + r) % 4;
      std::this_thread::sleep_for(std::chrono::seconds(idle));
      touch(way & 1, way & 2, mib << 20, threads);
    }
  return 0;
}
