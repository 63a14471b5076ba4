#include "corank/planner.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "corank/errors.hpp"
#include "corank/machine_share.hpp"

namespace corank {

namespace {
constexpr std::uint64_t kMinRecords = 16;
}

std::uint64_t default_memory_budget() { return machine_share().memory / 2; }

std::uint64_t within_machine_memory(std::uint64_t budget) {
  struct sysinfo si {};
  if (::sysinfo(&si) != 0) return budget;
  const std::uint64_t unit = si.mem_unit ? si.mem_unit : 1;
  const std::uint64_t machine = (static_cast<std::uint64_t>(si.totalram) + si.totalswap) * unit;
  if (machine) budget = std::min(budget, machine);
  const std::uint64_t group = machine_share().cgroup.memory;  // a larger -S would be killed at the limit
  return group ? std::min(budget, group) : budget;
}

SortPlan make_plan(std::optional<std::uint64_t> total_records, std::uint32_t record_size, std::uint32_t entry_bytes,
                   std::uint64_t budget, unsigned threads) {
  const std::uint64_t R = record_size, E = entry_bytes;
  SortPlan p;
  p.threads = std::max(1u, threads);

  if (total_records) {
    // In memory: every record and its entry stay resident; runs are formed while
    // the next one is read, and the merge writes slab by slab.
    const std::uint64_t n = *total_records;
    // About eight runs, so sorting starts after an eighth of the input is read,
    // each at most 64 MiB of records.
    const std::uint64_t run = std::min(n, std::max<std::uint64_t>(4096, std::min(n / 8 + 1, (64u << 20) / R)));
    const std::uint64_t slab = std::min(n, std::max<std::uint64_t>(4096, (32u << 20) / R));
    const std::uint64_t need = n * (R + E) + run * E + slab * (E + 2 * R);
    if (need <= budget) {
      p.mode = SortPlan::Mode::InMemory;
      p.run_records = std::max<std::uint64_t>(run, 1);
      p.slab_records = std::max<std::uint64_t>(slab, 1);
      // One radix sort of every entry beats sorting runs and merging them
      // whenever scratch for all the entries fits too.
      p.single_sort = need - run * E + n * E <= budget;
      return p;
    }
  }
  // External. Run formation holds two input buffers (read-ahead), two entry
  // arrays and two output buffers (write-behind): 4R + 2E bytes a record. The
  // merge holds two loaded slabs with their entries, merged entries and two
  // output buffers: 4R + 3E a record. The phases never overlap, so each gets
  // the budget less the runs' sparse index, which lives through both.
  p.mode = SortPlan::Mode::External;
  const std::uint64_t index = budget / kIndexShare;
  p.index_bytes = index;
  p.run_records = std::max(kMinRecords, (budget - index) / (4 * R + 2 * E));
  p.slab_records = std::max(kMinRecords, (budget - index) / (4 * R + 3 * E));
  // A few hundred samples a run, a block of 64 KiB of records apart at most
  // (a cut reads one such stretch of every run). Where the index of the
  // whole input would outgrow its share, runs are merged record by record
  // instead (streamed_run_merge.hpp) and keep no index.
  p.sample_stride = std::clamp<std::uint64_t>(p.run_records / 256, 1, std::max<std::uint64_t>(1, (64u << 10) / R));
  p.streamed_merge = total_records && *total_records / p.sample_stride * E > index;
  return p;
}

std::pair<std::size_t, std::size_t> early_merge_group(std::span<const unsigned> levels, std::size_t fan_in) {
  const std::size_t n = levels.size();
  if (n <= 2) return {0, n};
  std::size_t best_end = 0, best_count = 0;
  for (std::size_t begin = 0; begin < n;) {
    std::size_t end = begin + 1;
    while (end < n && levels[end] == levels[begin]) ++end;
    // Later groups win ties: the rightmost group of the lowest level.
    if (end - begin >= 2 && (best_count == 0 || levels[begin] <= levels[best_end - 1]))
      best_end = end, best_count = end - begin;
    begin = end;
  }
  if (best_count == 0) return {n - 2, 2};
  const std::size_t count = std::min(best_count, std::max<std::size_t>(2, fan_in));
  return {best_end - count, count};
}

DeviceMergePlan plan_device_merge(std::uint64_t capacity, std::optional<std::uint64_t> total_records) {
  const std::uint64_t C = std::max<std::uint64_t>(capacity, 1);
  const std::uint64_t runs = total_records ? std::max<std::uint64_t>(1, (*total_records + C - 1) / C) : 16;
  DeviceMergePlan p;
  p.stride = std::clamp<std::uint64_t>(C / (4 * runs), 1, 4096);
  p.fan_in = std::max<std::uint64_t>(2, C / (2 * p.stride));
  return p;
}

std::uint64_t max_open_runs() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::uint64_t{1} << 20;
  const std::uint64_t open = limit.rlim_cur;
  const std::uint64_t margin = 64 + open / 4;
  return open > margin + 16 ? open - margin : 16;
}

std::uint64_t free_descriptors() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::uint64_t{1} << 20;
  const std::uint64_t soft = limit.rlim_cur;
  std::uint64_t open = 0;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    while (const dirent* e = ::readdir(d))
      if (e->d_name[0] != '.') ++open;
    ::closedir(d);
    open = open > 0 ? open - 1 : 0;  // the directory's own
  } else {
    // Without /proc: every descriptor below the limit (or the first 64 Ki) probed.
    for (int fd = 0; fd < static_cast<int>(std::min<std::uint64_t>(soft, 1 << 16)); ++fd)
      if (::fcntl(fd, F_GETFD) != -1) ++open;
  }
  return soft > open ? soft - open : 0;
}

std::uint64_t runs_within_descriptors(std::uint64_t reserve) {
  const std::uint64_t free = free_descriptors();
  const std::uint64_t kept = reserve + kLibraryDescriptors;
  return std::max<std::uint64_t>(free > kept ? free - kept : 0, 2);
}

io::IoOptions io_within_descriptors(io::IoOptions io) {
  if (free_descriptors() < kFewDescriptors) {
    if (io.use_uring) io.pread_reason = "few file descriptors left";
    io.use_uring = false;
    io.direct = false;
  }
  return io;
}

void require_descriptors(std::uint64_t needed) {
  const std::uint64_t free = free_descriptors();
  if (free >= needed) return;
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  throw LimitError("too few open files allowed: the limit of " + std::to_string(limit.rlim_cur) +
                   " (ulimit -n) leaves " + std::to_string(free) + " for temporary files, and a sort that spills needs " +
                   std::to_string(needed));
}

RunsHeld runs_held(std::uint64_t reserve, std::uint64_t plain_reserve, bool through_program) {
  require_descriptors(3);  // this run, the next, and the merge of the two
  RunsHeld h;
  h.plain_io = free_descriptors() < reserve + kFewRuns;
  const std::uint64_t room = runs_within_descriptors(h.plain_io ? plain_reserve : reserve);
  h.max_runs = static_cast<std::size_t>(std::min<std::uint64_t>(room, SIZE_MAX));
  if (through_program) {
    h.fan_in_cap = static_cast<std::size_t>(std::max<std::uint64_t>(room / 2, 2));
    h.max_runs = static_cast<std::size_t>(std::max<std::uint64_t>(room > h.fan_in_cap + 1 ? room - h.fan_in_cap - 1 : 0, 2));
  }
  return h;
}

void raise_open_file_limit() noexcept {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);  // best effort: the sort plans with whatever limit holds
}

std::uint64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long size = 0, resident = 0;
  const int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return got == 2 ? resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

unsigned threads_within(std::uint64_t budget, unsigned threads) {
  return static_cast<unsigned>(std::clamp<std::uint64_t>(budget / 4 / kThreadBytes, 1, std::max(1u, threads)));
}

MemoryPlan plan_memory(const io::IoOptions& io, std::uint64_t budget, unsigned streams) {
  MemoryPlan m;
  m.io = io;
  const std::uint64_t per_stream = budget / 8 / std::max(1u, streams) / std::max(1u, io.queue_depth);
  // Whole 64 KiB multiples (direct I/O alignment), from 64 KiB up to the default.
  const std::uint64_t block = std::clamp<std::uint64_t>(per_stream / (64 << 10) * (64 << 10), 64 << 10, io.block_size);
  m.io.block_size = static_cast<std::size_t>(block);
  m.io_bytes = block * io.queue_depth * streams;
  m.resident = resident_bytes();
  const std::uint64_t taken = m.io_bytes + m.resident;
  // Tiny budgets (tests force spills with a few KiB) keep a quarter for arrays.
  m.arrays = std::max<std::uint64_t>(budget > taken ? budget - taken : 0, budget / 4);
  return m;
}

TextSortPlan plan_text_sort(std::uint64_t budget, unsigned threads, const MemoryPlan& memory, unsigned batch_size,
                            bool compressed_runs) {
  TextSortPlan p;
  p.budget = budget;
  p.threads = threads_within(budget, threads);
  p.io = memory.io;
  p.arrays = memory.arrays;
  p.sample_bytes = p.arrays / kIndexShare;
  p.chunk_bytes = std::max<std::uint64_t>((p.arrays - p.sample_bytes) / 3, 1024);
  p.gather_buffer = static_cast<std::size_t>(std::min<std::uint64_t>(std::uint64_t{64} << 20, p.arrays / 16));
  // Each merge input holds a buffer (a compressed run also its decompressor's
  // window); the fan-in keeps them within the budget (and small budgets,
  // which tests use, exercise several merge passes).
  const std::uint64_t per_input = compressed_runs ? std::uint64_t{1} << 20 : std::uint64_t{64} << 10;
  p.fan_in = static_cast<std::size_t>(std::clamp<std::uint64_t>(p.arrays / per_input, 2, 256));
  if (batch_size >= 2) p.fan_in = std::min<std::size_t>(p.fan_in, batch_size);
  // Reads of a few hundred KiB: the records are parsed while still in cache.
  p.merge_buffer =
      static_cast<std::size_t>(std::clamp<std::uint64_t>(p.arrays / (2 * (p.fan_in + 1)), 4 << 10, 256 << 10));
  // Samples of spilled runs for the parallel merge: a few thousand per run.
  p.sample_stride = std::clamp<std::uint64_t>(p.chunk_bytes / 4096, 4 << 10, 4 << 20);
  p.piece_bytes = std::clamp<std::uint64_t>(p.arrays / 64, 4 << 10, 8 << 20);
  return p;
}

std::string SortPlan::describe() const {
  std::string s = mode == Mode::InMemory ? (single_sort ? "in-memory, one sort" : "in-memory") : "external";
  s += ", runs of " + std::to_string(run_records) + " records, slabs of " + std::to_string(slab_records) +
       " records";
  if (mode == Mode::External) s += ", sparse index every " + std::to_string(sample_stride) + " records";
  s += ", " + std::to_string(threads) + " threads";
  return s;
}

}  // namespace corank
