#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/host_array_sort.cuh"
#include "corank/gpu/merge.cuh"
#include "corank/gpu/stream.cuh"
#include "corank/gpu/u64_co_rank.hpp"

namespace corank::gpu {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

constexpr int kSlots = 3;
constexpr std::uint64_t kKeyBytes = sizeof(std::uint64_t);
// Sizes are 64-bit throughout; this only keeps one chunk's kernel grids in range.
constexpr std::uint64_t kMaxChunk = std::uint64_t{1} << 36;
// Each pass copies in its first chunk and copies out its last with nothing to
// overlap them, costing about 1/k of the pass; extra runs cost only GPU merge
// rounds (HBM, not PCIe). So two passes use at least this many runs, unless
// that makes chunks smaller than kMinChunk keys.
constexpr std::uint64_t kTargetRuns = 16;
constexpr std::uint64_t kMinChunk = std::uint64_t{1} << 24;

std::size_t sort_temp_bytes(std::uint64_t n) {
  cub::DoubleBuffer<std::uint64_t> keys(nullptr, nullptr);
  std::size_t bytes = 0;
  check_cuda(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys, static_cast<std::int64_t>(n), 0, 64, nullptr),
             "cub::DeviceRadixSort::SortKeys (temporary size)");
  return bytes;
}

std::size_t merge_temp_bytes(std::uint64_t n) {
  std::size_t bytes = 0;
  const auto len = static_cast<std::int64_t>(n);
  merge<std::uint64_t>(nullptr, bytes, DeviceSpan<const std::uint64_t>(nullptr, len),
                       DeviceSpan<const std::uint64_t>(nullptr, 0), DeviceSpan<std::uint64_t>(nullptr, len), nullptr);
  return bytes;
}

std::uint64_t resolve_budget(std::uint64_t device_budget) {
  if (device_budget != 0) return device_budget;
  std::size_t free = 0, total = 0;
  check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free / 20 * 17;
}

// Page-locks [p, p + bytes) for the guard's lifetime; memory that is already
// page-locked (cudaMallocHost, or registered by the caller) is left alone.
class HostRegistration {
 public:
  HostRegistration(void* p, std::size_t bytes) {
    if (p == nullptr || bytes == 0) return;
    cudaPointerAttributes attr{};
    check_cuda(cudaPointerGetAttributes(&attr, p), "cudaPointerGetAttributes");
    if (attr.type != cudaMemoryTypeUnregistered) return;
    check_cuda(cudaHostRegister(p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
    p_ = p;
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  // On an error path nothing can be reported; the DMA using the range has
  // been waited for by then (Pipeline's destructor runs first).
  ~HostRegistration() { (void)unregister_noexcept(); }

  void release() { check_cuda(unregister_noexcept(), "cudaHostUnregister"); }

 private:
  cudaError_t unregister_noexcept() noexcept {
    if (p_ == nullptr) return cudaSuccess;
    return cudaHostUnregister(std::exchange(p_, nullptr));
  }
  void* p_ = nullptr;
};

struct Slot {
  Stream stream;
  DeviceBuffer<std::uint64_t> keys[2];
  DeviceBuffer<std::byte> temp;
  Event start, copied_in, computed, copied_out;
  bool pending = false;  // work recorded whose times were not yet read
};

// The slots of one sort. Its destructor waits for every stream, so that on an
// error path no DMA still targets host memory when it is unregistered and no
// kernel still uses a buffer when it is freed.
struct Pipeline {
  std::vector<Slot> slots;
  HostSortTimes* times = nullptr;

  Pipeline(int count, std::uint64_t keys, std::size_t temp_bytes, HostSortTimes& t) : slots(count), times(&t) {
    for (auto& s : slots) {
      for (auto& b : s.keys) b = DeviceBuffer<std::uint64_t>(static_cast<std::int64_t>(keys));
      s.temp = DeviceBuffer<std::byte>(static_cast<std::int64_t>(std::max<std::size_t>(temp_bytes, 1)));
    }
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  ~Pipeline() {
    for (auto& s : slots) (void)cudaStreamSynchronize(s.stream.get());
  }

  // Waits for the slot's last piece of work and adds up its stage times.
  // Stream order alone already keeps the buffers safe; the wait is what lets
  // the events be read before they are recorded again.
  Slot& acquire(std::uint64_t i) {
    Slot& s = slots[i % slots.size()];
    complete(s);
    return s;
  }
  void complete(Slot& s) {
    if (!s.pending) return;
    s.pending = false;
    s.copied_out.synchronize();
    times->h2d_ms += s.copied_in.elapsed_ms_since(s.start);
    times->gpu_ms += s.computed.elapsed_ms_since(s.copied_in);
    times->d2h_ms += s.copied_out.elapsed_ms_since(s.computed);
  }
  void finish() {
    for (auto& s : slots) complete(s);
  }
};

void copy_async(void* dst, const void* src, std::uint64_t keys, cudaMemcpyKind kind, cudaStream_t stream,
                const char* what) {
  check_cuda(cudaMemcpyAsync(dst, src, keys * kKeyBytes, kind, stream), what);
}

// Sorts s.keys[0][0, n) on the slot's stream; returns the buffer holding the result.
const std::uint64_t* sort_keys(Slot& s, std::uint64_t n) {
  cub::DoubleBuffer<std::uint64_t> keys(s.keys[0].data(), s.keys[1].data());
  std::size_t bytes = s.temp.bytes();
  check_cuda(cub::DeviceRadixSort::SortKeys(s.temp.data(), bytes, keys, static_cast<std::int64_t>(n), 0, 64,
                                            s.stream.get()),
             "cub::DeviceRadixSort::SortKeys");
  return keys.Current();  // CUB sets the selector on the host, at dispatch
}

// Merges the segments of buf[0] between consecutive `bounds` pairwise in
// rounds on stream st, ping-ponging buf[0] and buf[1] (temp: merge's
// temporary area); returns the buffer holding the result.
const std::uint64_t* merge_segments(std::uint64_t* const buf[2], std::byte* temp, std::size_t temp_bytes,
                                    cudaStream_t st, std::vector<std::int64_t> bounds) {
  int cur = 0;
  while (bounds.size() > 2) {
    std::vector<std::int64_t> next_bounds;
    const std::size_t m = bounds.size() - 1;  // segments this round
    const std::uint64_t* src = buf[cur];
    std::uint64_t* dst = buf[cur ^ 1];
    for (std::size_t j = 0; j < m; j += 2) {
      next_bounds.push_back(bounds[j]);
      const std::int64_t lo = bounds[j], mid = bounds[j + 1];
      if (j + 1 < m) {
        const std::int64_t hi = bounds[j + 2];
        std::size_t bytes = temp_bytes;
        merge<std::uint64_t>(temp, bytes, DeviceSpan<const std::uint64_t>(src + lo, mid - lo),
                             DeviceSpan<const std::uint64_t>(src + mid, hi - mid),
                             DeviceSpan<std::uint64_t>(dst + lo, hi - lo), st);
      } else {
        // The odd one out moves to the other buffer as it is.
        copy_async(dst + lo, src + lo, static_cast<std::uint64_t>(mid - lo), cudaMemcpyDeviceToDevice, st,
                   "cudaMemcpyAsync (segment, device to device)");
      }
    }
    next_bounds.push_back(bounds.back());
    bounds = std::move(next_bounds);
    cur ^= 1;
  }
  return buf[cur];
}

const std::uint64_t* merge_segments(Slot& s, std::vector<std::int64_t> bounds) {
  std::uint64_t* const buf[2] = {s.keys[0].data(), s.keys[1].data()};
  return merge_segments(buf, s.temp.data(), s.temp.bytes(), s.stream.get(), std::move(bounds));
}

// One pass in runs: the runs are copied in on two streams, each sorted as soon
// as it is in (run i+1's H2D overlaps run i's sort), then merged on the device
// and copied out once. Against a single H2D, sort, D2H this hides the sort
// behind the copy in; the merge rounds cost HBM time only.
void sort_resident_runs(const std::uint64_t* data, std::uint64_t* out, const HostSortPlan& plan,
                        std::size_t sort_temp, std::size_t merge_temp, HostSortTimes& t) {
  const std::uint64_t n = plan.n, L = plan.chunk_keys;
  DeviceBuffer<std::uint64_t> keys[2] = {DeviceBuffer<std::uint64_t>(static_cast<std::int64_t>(n)),
                                         DeviceBuffer<std::uint64_t>(static_cast<std::int64_t>(n))};
  std::uint64_t* const buf[2] = {keys[0].data(), keys[1].data()};
  Stream streams[2];
  DeviceBuffer<std::byte> temps[2] = {
      DeviceBuffer<std::byte>(static_cast<std::int64_t>(std::max<std::size_t>({sort_temp, merge_temp, 1}))),
      DeviceBuffer<std::byte>(static_cast<std::int64_t>(std::max<std::size_t>(sort_temp, 1)))};
  // Waits for both streams on every path, before the buffers are freed and
  // the host ranges unregistered.
  struct Drain {
    Stream* s;
    ~Drain() {
      for (int i = 0; i < 2; ++i) (void)cudaStreamSynchronize(s[i].get());
    }
  } drain{streams};

  std::vector<Event> start(plan.runs), copied_in(plan.runs), sorted(plan.runs);
  std::vector<std::int64_t> bounds{0};
  for (std::uint64_t i = 0; i < plan.runs; ++i) {
    const std::uint64_t off = i * L, len = std::min(L, n - off);
    const cudaStream_t st = streams[i % 2].get();
    start[i].record(st);
    copy_async(buf[0] + off, data + off, len, cudaMemcpyHostToDevice, st, "cudaMemcpyAsync (run to device)");
    copied_in[i].record(st);
    cub::DoubleBuffer<std::uint64_t> dbuf(buf[0] + off, buf[1] + off);
    std::size_t bytes = temps[i % 2].bytes();
    check_cuda(cub::DeviceRadixSort::SortKeys(temps[i % 2].data(), bytes, dbuf, static_cast<std::int64_t>(len), 0,
                                              64, st),
               "cub::DeviceRadixSort::SortKeys");
    if (dbuf.Current() != buf[0] + off)
      copy_async(buf[0] + off, dbuf.Current(), len, cudaMemcpyDeviceToDevice, st,
                 "cudaMemcpyAsync (sorted run, device to device)");
    sorted[i].record(st);
    bounds.push_back(static_cast<std::int64_t>(off + len));
  }
  const cudaStream_t st = streams[0].get();
  check_cuda(cudaStreamWaitEvent(st, sorted[plan.runs - 1].get(), 0), "cudaStreamWaitEvent");
  Event merge_start, merged, copied_out;
  merge_start.record(st);
  const std::uint64_t* result = merge_segments(buf, temps[0].data(), temps[0].bytes(), st, std::move(bounds));
  merged.record(st);
  copy_async(out, result, n, cudaMemcpyDeviceToHost, st, "cudaMemcpyAsync (sorted keys to host)");
  copied_out.record(st);
  copied_out.synchronize();
  for (std::uint64_t i = 0; i < plan.runs; ++i) {
    t.h2d_ms += copied_in[i].elapsed_ms_since(start[i]);
    t.gpu_ms += sorted[i].elapsed_ms_since(copied_in[i]);
  }
  t.gpu_ms += merged.elapsed_ms_since(merge_start);
  t.d2h_ms += copied_out.elapsed_ms_since(merged);
}

bool overlap(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t n) {
  return a < b + n && b < a + n;
}

}  // namespace

HostSortPlan plan_host_sort_u64(std::uint64_t n, std::uint64_t device_budget) {
  HostSortPlan p;
  p.n = n;
  p.device_budget = resolve_budget(device_budget);
  if (n == 0) return p;
  const std::uint64_t B = p.device_budget;
  // One pass: the keys, their second buffer and temporary storage. In runs of
  // at least kMinChunk keys (up to kTargetRuns) when the keys are that many and
  // the two sort areas and the merge's fit too; else in a single sort.
  if (n <= B / (2 * kKeyBytes)) {
    const std::uint64_t runs = std::min(kTargetRuns, n / kMinChunk);
    if (runs >= 2) {
      const std::uint64_t L = (n + runs - 1) / runs;
      const std::size_t sort_temp = sort_temp_bytes(L), merge_temp = merge_temp_bytes(n);
      const std::uint64_t need = 2 * kKeyBytes * n + std::max<std::size_t>({sort_temp, merge_temp, 1}) +
                                 std::max<std::size_t>(sort_temp, 1);
      if (need <= B) {
        p.chunk_keys = L;
        p.runs = (n + L - 1) / L;
        p.round_trips = 1;
        p.device_bytes = need;
        return p;
      }
    }
    const std::size_t temp = sort_temp_bytes(n);
    if (2 * kKeyBytes * n + temp <= B) {
      p.chunk_keys = n;
      p.runs = 1;
      p.round_trips = 1;
      p.device_bytes = 2 * kKeyBytes * n + std::max<std::size_t>(temp, 1);
      return p;
    }
  }
  // Two passes: three slots of two buffers of L keys and a temporary area,
  // shared by the sort and the merge.
  const std::uint64_t slot_budget = B / kSlots;
  const std::uint64_t wanted = std::max((n + kTargetRuns - 1) / kTargetRuns, kMinChunk);
  std::uint64_t L = std::min({n, wanted, kMaxChunk, slot_budget / (2 * kKeyBytes)});
  auto temp_for = [](std::uint64_t keys) { return std::max(sort_temp_bytes(keys), merge_temp_bytes(keys)); };
  std::size_t temp = L ? temp_for(L) : 0;
  while (L > 0 && 2 * kKeyBytes * L + temp > slot_budget) {
    L = L * 9 / 10;
    temp = L ? temp_for(L) : 0;
  }
  if (L == 0)
    throw CudaError(cudaErrorMemoryAllocation,
                    "sort_host_u64 (a GPU budget of " + std::to_string(B) + " bytes holds no chunk)");
  p.one_pass = false;
  p.chunk_keys = p.slab_keys = L;
  p.runs = p.slabs = (n + L - 1) / L;
  p.round_trips = 2;
  p.device_bytes = std::min<std::uint64_t>(kSlots, p.runs) * (2 * kKeyBytes * L + std::max<std::size_t>(temp, 1));
  return p;
}

HostSortTimes sort_host_u64(std::uint64_t* data, std::uint64_t* out, std::uint64_t n, std::uint64_t device_budget) {
  HostSortTimes t;
  if (n == 0) return t;
  const auto t_start = Clock::now();
  const HostSortPlan plan = plan_host_sort_u64(n, device_budget);
  if (data == nullptr || out == nullptr)
    throw CudaError(cudaErrorInvalidValue, "sort_host_u64 (null array)");
  if (out != data && overlap(data, out, n))
    throw CudaError(cudaErrorInvalidValue, "sort_host_u64 (out overlaps data without being equal to it)");
  if (out == data && !plan.one_pass)
    throw CudaError(cudaErrorInvalidValue,
                    "sort_host_u64 (out == data, but " + std::to_string(n) + " keys take two passes)");

  const std::uint64_t bytes = n * kKeyBytes;
  auto t0 = Clock::now();
  HostRegistration reg_data(data, bytes);
  HostRegistration reg_out(out == data ? nullptr : out, bytes);
  t.register_s = seconds_since(t0);

  t.runs = plan.runs;
  t.slabs = plan.slabs;
  t.round_trips = plan.round_trips;
  if (plan.one_pass && plan.runs > 1) {
    t0 = Clock::now();
    sort_resident_runs(data, out, plan, sort_temp_bytes(plan.chunk_keys), merge_temp_bytes(n), t);
    t.run_formation_s = seconds_since(t0);
    t.h2d_bytes += static_cast<double>(bytes);
    t.d2h_bytes += static_cast<double>(bytes);
  } else {
    const int slot_count = static_cast<int>(std::min<std::uint64_t>(kSlots, plan.runs));
    const std::size_t temp_bytes = plan.one_pass ? sort_temp_bytes(n)
                                                 : std::max(sort_temp_bytes(plan.chunk_keys),
                                                            merge_temp_bytes(plan.slab_keys));
    Pipeline pipe(slot_count, plan.chunk_keys, temp_bytes, t);

    // Run formation (one pass: the whole sort, into out).
    t0 = Clock::now();
    std::uint64_t* const run_dst = plan.one_pass ? out : data;
    for (std::uint64_t i = 0; i < plan.runs; ++i) {
      const std::uint64_t off = i * plan.chunk_keys;
      const std::uint64_t len = std::min(plan.chunk_keys, n - off);
      Slot& s = pipe.acquire(i);
      const cudaStream_t st = s.stream.get();
      s.start.record(st);
      copy_async(s.keys[0].data(), data + off, len, cudaMemcpyHostToDevice, st, "cudaMemcpyAsync (chunk to device)");
      s.copied_in.record(st);
      const std::uint64_t* sorted = sort_keys(s, len);
      s.computed.record(st);
      copy_async(run_dst + off, sorted, len, cudaMemcpyDeviceToHost, st, "cudaMemcpyAsync (run to host)");
      s.copied_out.record(st);
      s.pending = true;
    }
    pipe.finish();
    t.run_formation_s = seconds_since(t0);
    t.h2d_bytes += static_cast<double>(bytes);
    t.d2h_bytes += static_cast<double>(bytes);

    if (!plan.one_pass) {
      // Merge: slab s is out[s * L, (s + 1) * L), gathered from bounds[s] to
      // bounds[s + 1] of every run.
      t0 = Clock::now();
      std::vector<U64Run> runs;
      for (std::uint64_t i = 0; i < plan.runs; ++i) {
        const std::uint64_t off = i * plan.chunk_keys;
        runs.push_back({data + off, std::min(plan.chunk_keys, n - off)});
      }
      const auto bounds = u64_slab_bounds(runs.data(), runs.size(), plan.slab_keys);
      for (std::uint64_t sl = 0; sl + 1 < bounds.size(); ++sl) {
        Slot& s = pipe.acquire(sl);
        const cudaStream_t st = s.stream.get();
        s.start.record(st);
        std::vector<std::int64_t> seg_bounds{0};
        std::uint64_t filled = 0;
        for (std::size_t i = 0; i < runs.size(); ++i) {
          const std::uint64_t len = bounds[sl + 1][i] - bounds[sl][i];
          if (len == 0) continue;
          copy_async(s.keys[0].data() + filled, runs[i].data + bounds[sl][i], len, cudaMemcpyHostToDevice, st,
                     "cudaMemcpyAsync (segment to device)");
          filled += len;
          seg_bounds.push_back(static_cast<std::int64_t>(filled));
        }
        if (filled != std::min(plan.slab_keys, n - sl * plan.slab_keys))
          throw CudaError(cudaErrorInvalidValue, "sort_host_u64 (slab " + std::to_string(sl) + " gathers " +
                                                     std::to_string(filled) + " keys)");
        s.copied_in.record(st);
        const std::uint64_t* merged = merge_segments(s, std::move(seg_bounds));
        s.computed.record(st);
        copy_async(out + sl * plan.slab_keys, merged, filled, cudaMemcpyDeviceToHost, st,
                   "cudaMemcpyAsync (slab to host)");
        s.copied_out.record(st);
        s.pending = true;
      }
      pipe.finish();
      t.merge_s = seconds_since(t0);
      t.h2d_bytes += static_cast<double>(bytes);
      t.d2h_bytes += static_cast<double>(bytes);
    }
  }

  t0 = Clock::now();
  reg_out.release();
  reg_data.release();
  t.register_s += seconds_since(t0);
  t.total_s = seconds_since(t_start);
  return t;
}

}  // namespace corank::gpu
