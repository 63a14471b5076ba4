// corank-bench hostsort: sort_host_u64 on B bytes of random u64 keys in
// ordinary (pageable) host memory, against the PCIe bound measured in the
// same run.
//
//   corank-bench hostsort --bytes 32G [--gpu-memory 16G] [--reps 3]
//                         [--slot-mib M] [--slots S] [--presort-runs K]
//
// Bound: pinned cudaMemcpy of the same B bytes (through a device buffer of at
// most 1 GiB, piece by piece), H2D then D2H, times the round trips of the plan
// (1 or 2). Where the plan takes two passes, the pipelined passes can run
// both directions at once, so the run also times H2D and D2H of B bytes
// concurrently on two streams ("duplex"); two of those are the tighter bound.
//
// Each rep fills fresh random keys (not timed), sorts them into a separate
// output, and verifies it: ascending, and the sum and xor of the keys equal to
// the input's. A failed check prints FAILED and exits 1. Times are wall clock;
// the keys are copied into and out of page-locked staging by all threads (a
// persistent pool), and allocating the staging is part of the sort's time,
// also shown on its own.
#include <cuda_runtime_api.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/host_array_sort.cuh"
#include "corank/gpu/pinned_buffer.cuh"
#include "corank/gpu/stream.cuh"
#include "corank/io/worker_pool.hpp"

namespace {

using namespace corank::gpu;
using Clock = std::chrono::steady_clock;

std::uint64_t parse_size(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  std::uint64_t mul = 1;
  switch (end && *end ? *end : 0) {
    case 'k': case 'K': mul = 1ull << 10; break;
    case 'm': case 'M': mul = 1ull << 20; break;
    case 'g': case 'G': mul = 1ull << 30; break;
    case 't': case 'T': mul = 1ull << 40; break;
    case 0: break;
    default: throw std::invalid_argument("bad size: " + s);
  }
  return static_cast<std::uint64_t>(v * static_cast<double>(mul));
}

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// f(t, begin, end) over `threads` contiguous slices of [0, n), one thread each.
template <class F>
void parallel_slices(unsigned threads, std::uint64_t n, F&& f) {
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    const std::uint64_t b = n * t / threads, e = n * (t + 1) / threads;
    pool.emplace_back([&f, t, b, e] { f(t, b, e); });
  }
  for (auto& th : pool) th.join();
}

struct Checksum {
  std::uint64_t sum = 0, x = 0;
  bool operator==(const Checksum&) const = default;
};

Checksum fill_random(std::uint64_t* data, std::uint64_t n, std::uint64_t seed, unsigned threads) {
  std::vector<Checksum> part(threads);
  parallel_slices(threads, n, [&](unsigned t, std::uint64_t b, std::uint64_t e) {
    Checksum c;
    for (std::uint64_t i = b; i < e; ++i) {
      const std::uint64_t k = mix64(seed ^ mix64(i));
      data[i] = k;
      c.sum += k;
      c.x ^= k;
    }
    part[t] = c;
  });
  Checksum c;
  for (const auto& p : part) c.sum += p.sum, c.x ^= p.x;
  return c;
}

// Checksum of out, and the first index i with out[i - 1] > out[i] (n if none).
std::uint64_t check_sorted(const std::uint64_t* out, std::uint64_t n, unsigned threads, Checksum& sum) {
  std::vector<Checksum> part(threads);
  std::vector<std::uint64_t> bad(threads, n);
  parallel_slices(threads, n, [&](unsigned t, std::uint64_t b, std::uint64_t e) {
    Checksum c;
    for (std::uint64_t i = b; i < e; ++i) {
      c.sum += out[i];
      c.x ^= out[i];
      if (i > 0 && out[i - 1] > out[i] && bad[t] == n) bad[t] = i;
    }
    part[t] = c;
  });
  sum = {};
  for (const auto& p : part) sum.sum += p.sum, sum.x ^= p.x;
  return *std::min_element(bad.begin(), bad.end());
}

struct Bound {
  double h2d_s = 0, d2h_s = 0, duplex_s = 0;
};

// Pinned copies of `bytes` bytes in pieces of at most 1 GiB; the median of 3
// after a warm-up, for H2D alone, D2H alone, and both at once.
Bound measure_bound(std::uint64_t bytes) {
  const std::uint64_t piece = std::min<std::uint64_t>(bytes, std::uint64_t{1} << 30);
  PinnedBuffer<std::byte> h_in(static_cast<std::int64_t>(piece)), h_out(static_cast<std::int64_t>(piece));
  DeviceBuffer<std::byte> d_in(static_cast<std::int64_t>(piece)), d_out(static_cast<std::int64_t>(piece));
  std::memset(h_in.data(), 1, piece);
  std::memset(h_out.data(), 2, piece);
  Stream up, down;
  Event start, up_done, down_done;
  auto copies = [&](bool h2d, bool d2h) {
    start.record(up.get());
    check_cuda(cudaStreamWaitEvent(down.get(), start.get(), 0), "cudaStreamWaitEvent");
    for (std::uint64_t off = 0; off < bytes; off += piece) {
      const std::uint64_t len = std::min(piece, bytes - off);
      if (h2d)
        check_cuda(cudaMemcpyAsync(d_in.data(), h_in.data(), len, cudaMemcpyHostToDevice, up.get()),
                   "cudaMemcpyAsync (H2D)");
      if (d2h)
        check_cuda(cudaMemcpyAsync(h_out.data(), d_out.data(), len, cudaMemcpyDeviceToHost, down.get()),
                   "cudaMemcpyAsync (D2H)");
    }
    up_done.record(up.get());
    down_done.record(down.get());
    up_done.synchronize();
    down_done.synchronize();
    return 1e-3 * std::max(up_done.elapsed_ms_since(start), down_done.elapsed_ms_since(start));
  };
  auto median = [&](bool h2d, bool d2h) {
    copies(h2d, d2h);
    std::vector<double> t;
    for (int r = 0; r < 3; ++r) t.push_back(copies(h2d, d2h));
    std::sort(t.begin(), t.end());
    return t[1];
  };
  Bound b;
  b.h2d_s = median(true, false);
  b.d2h_s = median(false, true);
  b.duplex_s = median(true, true);
  return b;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

int bench_hostsort(int argc, char** argv) {
  std::string bytes_arg = "4G", gpu_memory_arg = "0";
  int reps = 3;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  HostSortTuning tuning;
  std::size_t slot_mib = tuning.slot_bytes >> 20;
  CLI::App app{"corank-bench hostsort: sort_host_u64 on random u64 keys in pageable host memory, "
               "against the PCIe bound measured in the same run"};
  app.add_option("--bytes", bytes_arg, "bytes of keys (8 per key), with K/M/G/T suffix");
  app.add_option("--gpu-memory", gpu_memory_arg, "device budget, with K/M/G/T suffix (0: 85% of free memory)");
  app.add_option("--reps", reps, "sorts timed; the median is reported")->check(CLI::Range(1, 99));
  app.add_option("--threads", threads, "host threads filling and verifying the keys")->check(CLI::Range(1, 1024));
  app.add_option("--slot-mib", slot_mib, "page-locked staging slot size in MiB")->check(CLI::Range(1, 4096));
  app.add_option("--slots", tuning.slots, "page-locked staging slots")->check(CLI::Range(2, 64));
  app.add_option("--presort-runs", tuning.presort_runs, "runs a one-pass sort uploads and sorts one by one")
      ->check(CLI::Range(1, 64));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    tuning.slot_bytes = slot_mib << 20;
    const std::uint64_t n = parse_size(bytes_arg) / 8;
    const std::uint64_t budget = parse_size(gpu_memory_arg);
    const std::uint64_t bytes = n * 8;
    if (n == 0) throw std::invalid_argument("--bytes must hold at least one key");

    int device = 0;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    const HostSortPlan plan = plan_host_sort_u64(n, budget, tuning);
    std::printf("# corank-bench hostsort  device %s  keys %llu (%.3f GB)  budget %.3f GB  %s: chunk %llu keys, "
                "runs %llu (presorted %llu), slabs %llu, device %.3f GB, round trips %llu  staging %u x %zu MiB  "
                "threads %u  reps %d\n",
                prop.name, static_cast<unsigned long long>(n), bytes / 1e9, plan.device_budget / 1e9,
                plan.one_pass ? "one pass" : "two passes", static_cast<unsigned long long>(plan.chunk_keys),
                static_cast<unsigned long long>(plan.runs), static_cast<unsigned long long>(plan.presort_runs),
                static_cast<unsigned long long>(plan.slabs), plan.device_bytes / 1e9,
                static_cast<unsigned long long>(plan.round_trips), tuning.slots, slot_mib, threads, reps);
    std::fflush(stdout);

    const Bound bound = measure_bound(bytes);
    const double trips = static_cast<double>(plan.round_trips);
    const double serial_bound_s = (bound.h2d_s + bound.d2h_s) * trips;
    const double duplex_bound_s = plan.one_pass ? serial_bound_s : bound.duplex_s * trips;
    std::printf("pcie bytes=%llu h2d_s=%.4f (%.2f GB/s) d2h_s=%.4f (%.2f GB/s) duplex_s=%.4f  "
                "bound_s=%.4f (h2d+d2h x %llu)  duplex_bound_s=%.4f\n",
                static_cast<unsigned long long>(bytes), bound.h2d_s, bytes / bound.h2d_s / 1e9, bound.d2h_s,
                bytes / bound.d2h_s / 1e9, bound.duplex_s, serial_bound_s,
                static_cast<unsigned long long>(plan.round_trips), duplex_bound_s);
    std::fflush(stdout);

    // Pageable, as a caller's array would be; out is touched once so its
    // first-use page faults stay out of the first rep.
    std::unique_ptr<std::uint64_t[]> data(new std::uint64_t[n]);
    std::unique_ptr<std::uint64_t[]> out(new std::uint64_t[n]);
    parallel_slices(threads, n, [&](unsigned, std::uint64_t b, std::uint64_t e) {
      std::memset(out.get() + b, 0, (e - b) * 8);
    });

    corank::io::WorkerPool pool(threads);
    const HostCopy copy = [&](void* dst, const void* src, std::size_t b) {
      pool.for_ranges(b, std::size_t{1} << 20, 8, [&](std::uint64_t lo, std::uint64_t hi) {
        std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, hi - lo);
      });
    };
    std::vector<double> total, reg, runs, merge;
    for (int r = 0; r < reps; ++r) {
      const Checksum in = fill_random(data.get(), n, 0x5eed0000 + r, threads);
      const HostSortTimes t = sort_host_u64(data.get(), out.get(), n, budget, copy, tuning);
      Checksum got;
      const std::uint64_t bad = check_sorted(out.get(), n, threads, got);
      std::printf("rep %d total_s=%.4f staging_s=%.4f run_formation_s=%.4f merge_s=%.4f  "
                  "h2d_ms=%.1f gpu_ms=%.1f d2h_ms=%.1f (event sums)  %s\n",
                  r, t.total_s, t.staging_s, t.run_formation_s, t.merge_s, t.h2d_ms, t.gpu_ms, t.d2h_ms,
                  bad == n && got == in ? "ok" : "FAILED");
      std::fflush(stdout);
      if (bad != n) {
        std::fprintf(stderr, "corank-bench hostsort: FAILED: output not sorted at index %llu (%llu > %llu)\n",
                     static_cast<unsigned long long>(bad), static_cast<unsigned long long>(out[bad - 1]),
                     static_cast<unsigned long long>(out[bad]));
        return 1;
      }
      if (!(got == in)) {
        std::fprintf(stderr,
                     "corank-bench hostsort: FAILED: checksum of output (sum %llx, xor %llx) differs from input's "
                     "(sum %llx, xor %llx)\n",
                     static_cast<unsigned long long>(got.sum), static_cast<unsigned long long>(got.x),
                     static_cast<unsigned long long>(in.sum), static_cast<unsigned long long>(in.x));
        return 1;
      }
      total.push_back(t.total_s);
      reg.push_back(t.staging_s);
      runs.push_back(t.run_formation_s);
      merge.push_back(t.merge_s);
    }
    const double s = median_of(total);
    std::printf("hostsort keys=%llu bytes=%llu median_s=%.4f staging_s=%.4f run_formation_s=%.4f merge_s=%.4f  "
                "%.3f Gkeys/s  %.2f GB/s  bound/time=%.3f  duplex_bound/time=%.3f  without_staging: "
                "bound/time=%.3f\n",
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(bytes), s, median_of(reg),
                median_of(runs), median_of(merge), n / s / 1e9, bytes / s / 1e9, serial_bound_s / s,
                duplex_bound_s / s, serial_bound_s / (s - median_of(reg)));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank-bench hostsort: %s\n", e.what());
    return 1;
  }
  return 0;
}
