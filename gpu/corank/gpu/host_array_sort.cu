#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/host_array_sort.cuh"
#include "corank/gpu/record_sorter.cuh"
#include "corank/gpu/transfer_ring.cuh"
#include "corank/gpu/u64_co_rank.hpp"

namespace corank::gpu {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

constexpr std::uint64_t kKeyBytes = sizeof(std::uint64_t);
// The merge needs room for a few keys of every run.
constexpr std::uint64_t kMinCapacity = 16;

// u64 keys as records: one little-endian 8-byte unsigned field, words only.
KeyLayout u64_layout() {
  KeyLayout layout;
  layout.record_size = kKeyBytes;
  layout.field_count = 1;
  layout.fields[0] = KeyField{0, kKeyBytes, KeyFieldType::UInt, false, false};
  return layout;
}

}  // namespace

HostSortPlan plan_host_sort_u64(std::uint64_t n, std::uint64_t device_budget, const HostSortTuning& tuning) {
  HostSortPlan p;
  p.n = n;
  p.device_budget = device_budget;
  const std::uint64_t capacity = RecordSorter::capacity_for(u64_layout(), device_budget);
  if (capacity < kMinCapacity)
    throw CudaError(cudaErrorMemoryAllocation,
                    "plan_host_sort_u64 (a GPU budget of " + std::to_string(device_budget) + " bytes holds too few keys)");
  p.one_pass = n <= capacity;
  p.chunk_keys = p.one_pass ? n : capacity;
  p.slab_keys = p.one_pass ? 0 : capacity;
  p.runs = n == 0 ? 0 : p.one_pass ? 1 : (n + capacity - 1) / capacity;
  p.slabs = p.one_pass ? 0 : p.runs;
  p.round_trips = n == 0 ? 0 : p.one_pass ? 1 : 2;
  const std::uint64_t presort = std::max(1u, tuning.presort_runs);
  p.presort_runs = !p.one_pass || n == 0 ? 0 : n / presort >= std::max<std::uint64_t>(tuning.min_run_keys, 1) ? presort : 1;
  p.device_bytes = RecordSorter::device_bytes_for(u64_layout(), std::max<std::uint64_t>(p.chunk_keys, 1));
  return p;
}

HostSortTimes sort_host_u64(std::uint64_t* data, std::uint64_t* out, std::uint64_t n, std::uint64_t device_budget,
                            const HostCopy& copy_in, const HostSortTuning& tuning) {
  HostSortTimes t;
  if (n == 0) return t;
  const auto t0 = Clock::now();
  if (data == nullptr || out == nullptr) throw CudaError(cudaErrorInvalidValue, "sort_host_u64 (null array)");
  const HostSortPlan plan = plan_host_sort_u64(n, device_budget, tuning);
  const bool overlap = out < data + n && data < out + n;
  if (overlap && !(plan.one_pass && out == data))
    throw CudaError(cudaErrorInvalidValue, "sort_host_u64 (out overlaps data, which needs one pass and out == data)");
  const HostCopy copy = copy_in ? copy_in : HostCopy([](void* d, const void* s, std::size_t b) { std::memcpy(d, s, b); });

  const std::size_t slot_bytes = std::max<std::size_t>(tuning.slot_bytes / kKeyBytes * kKeyBytes, kKeyBytes);
  TransferRing ring(static_cast<std::size_t>(std::min<std::uint64_t>(slot_bytes, n * kKeyBytes)),
                    std::max(2u, tuning.slots));
  t.staging_s = seconds_since(t0);
  RecordSorter sorter(u64_layout(), plan.chunk_keys, ring);
  // Keys [0, count) from src to device input position `at`, and the sorted
  // output's `count` keys to dst.
  auto upload = [&](const std::uint64_t* src, std::uint64_t count, std::uint64_t at) {
    sorter.upload(at, count, [&](std::byte* dst, std::uint64_t off, std::size_t bytes) {
      copy(dst, src + off / kKeyBytes, bytes);
      return bytes;
    });
  };
  auto download = [&](std::uint64_t* dst, std::uint64_t count) {
    sorter.download(count, [&](const std::byte* src, std::uint64_t off, std::size_t bytes) {
      copy(dst + off / kKeyBytes, src, bytes);
    });
  };

  const auto t_runs = Clock::now();
  std::vector<U64Run> runs;
  if (plan.one_pass) {
    // Up as presort_runs runs, each sorted on the device while the next
    // crosses PCIe; merged there, and down once.
    const std::uint64_t k = plan.presort_runs;
    std::vector<std::uint64_t> ends;
    for (std::uint64_t r = 0; r < k; ++r) {
      const std::uint64_t b = n * r / k, e = n * (r + 1) / k;
      upload(data + b, e - b, b);
      if (k > 1) sorter.presort(b, e - b);
      ends.push_back(e);
    }
    sorter.sort(n, k > 1 ? ends.data() : nullptr, k > 1 ? ends.size() : 0, Unique::none);
    download(out, n);
    runs.push_back(U64Run{out, n});
  } else {
    for (std::uint64_t b = 0; b < n; b += plan.chunk_keys) {
      const std::uint64_t len = std::min(plan.chunk_keys, n - b);
      upload(data + b, len, 0);
      sorter.sort(len, nullptr, 0, Unique::none);
      download(data + b, len);
      runs.push_back(U64Run{data + b, len});
    }
  }
  t.run_formation_s = seconds_since(t_runs);
  t.runs = runs.size();
  t.round_trips = 1;

  if (!plan.one_pass) {
    const auto t_merge = Clock::now();
    const std::size_t k = runs.size();
    std::vector<std::uint64_t> lo(k, 0), ends;
    for (std::uint64_t s = 0; s < plan.slabs; ++s) {
      const std::uint64_t rank = std::min(n, (s + 1) * plan.slab_keys);
      const std::vector<std::uint64_t> hi = u64_co_rank(runs.data(), k, rank);
      ends.clear();
      std::uint64_t at = 0;
      for (std::size_t i = 0; i < k; ++i) {
        if (hi[i] == lo[i]) continue;
        upload(runs[i].data + lo[i], hi[i] - lo[i], at);
        at += hi[i] - lo[i];
        ends.push_back(at);
      }
      sorter.sort(at, ends.data(), ends.size(), Unique::none);
      download(out + s * plan.slab_keys, at);
      lo = hi;
    }
    t.slabs = plan.slabs;
    t.round_trips = 2;
    t.merge_s = seconds_since(t_merge);
  }
  ring.synchronize();
  const TransferTimes tt = ring.times();
  const RecordSortTimes st = sorter.times();
  t.h2d_bytes = tt.h2d_bytes;
  t.d2h_bytes = tt.d2h_bytes;
  t.h2d_ms = tt.h2d_ms;
  t.d2h_ms = tt.d2h_ms;
  t.gpu_ms = st.sort_ms + st.merge_ms;
  t.total_s = seconds_since(t0);
  return t;
}

}  // namespace corank::gpu
