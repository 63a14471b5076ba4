// corank-bench merge: every merge variant against thrust::merge
// (thrust::merge_by_key for pairs) on the same inputs, in the same run.
//
// Timing: CUDA events around each call on one stream, 2 warm-up calls, the
// median of --reps calls. Our calls include their partition kernel; thrust
// gets a pre-allocated arena for its temporary storage and the non-syncing
// policy, so neither side pays for cudaMalloc or a host round trip.
// GB/s counts bytes read plus bytes written: 2 * (m + n) * (key + value).
#include <cuda_runtime_api.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/merge.h>
#include <thrust/scan.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/merge.cuh"
#include "corank/gpu/merge_dispatch.cuh"
#include "corank/gpu/stream.cuh"
#include "corank/gpu/word_key.cuh"

namespace {

using namespace corank::gpu;

struct Options {
  std::vector<int> size_log2{20, 22, 24, 26, 27, 28};
  std::vector<std::string> types{"u32", "u64", "key128", "u64+u64"};
  std::vector<std::string> dists{"uniform", "skewed"};
  int reps = 10;
  bool sweep = false;
  bool check = true;
};

void usage() {
  std::printf(
      "usage: corank-bench merge [--sizes L,L,...] [--types T,T,...] [--dists D,D,...] [--reps N]\n"
      "                          [--sweep] [--no-check]\n"
      "Merges two sorted device arrays of 2^L elements each with every corank variant\n"
      "(basic, tiled, circular, tuned, and automatic = the public default) and with thrust.\n"
      "  --sizes   log2 of the elements per input (default 20,22,24,26,27,28)\n"
      "  --types   u32, u64, key128 (2 x u64 words), u64+u64 (u64 key, u64 value), u32+u32\n"
      "            (default u32,u64,key128,u64+u64)\n"
      "  --dists   uniform: both inputs uniform; skewed: B clustered in runs of equal keys\n"
      "            separated by long gaps, so the merge path has long one-sided stretches\n"
      "  --reps    timed calls per measurement, median reported (default 10, minimum 10)\n"
      "  --sweep   also time the tuned kernel under each candidate policy (threads x items)\n"
      "  --no-check  skip comparing every output against thrust's\n");
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = s.find(',', start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// ---- input generation on the device ----

__host__ __device__ std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Gaps whose prefix sum is a sorted sequence with mean step mean_gap.
// clustered: 1 in 16 gaps is a jump of up to 32 * mean_gap, the rest are 0.
__global__ void gaps_kernel(std::uint64_t* out, std::int64_t n, std::uint64_t seed, std::uint64_t mean_gap,
                            bool clustered) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t h = mix64(seed ^ mix64(std::uint64_t(i)));
  if (clustered) {
    out[i] = (h & 15) == 0 ? (h >> 8) % (32 * mean_gap) : 0;
  } else {
    out[i] = (h >> 8) % (2 * mean_gap + 1);
  }
}

template <class Key>
__host__ __device__ Key key_from(std::uint64_t x);
template <>
__host__ __device__ std::uint32_t key_from<std::uint32_t>(std::uint64_t x) {
  return std::uint32_t(x);
}
template <>
__host__ __device__ std::uint64_t key_from<std::uint64_t>(std::uint64_t x) {
  return x;
}
template <>
__host__ __device__ Key128 key_from<Key128>(std::uint64_t x) {
  return Key128{{x >> 4, (x & 15) << 60}};
}

template <class Key>
__global__ void to_keys_kernel(const std::uint64_t* in, Key* out, std::int64_t n) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = key_from<Key>(in[i]);
}

template <class V>
__global__ void iota_kernel(V* out, std::int64_t n, std::int64_t start) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = V(start + i);
}

unsigned blocks_for(std::int64_t n) { return unsigned((n + 255) / 256); }

template <class Key>
void fill_sorted(Key* out, std::int64_t n, std::uint64_t seed, bool clustered, std::uint64_t* scratch,
                 cudaStream_t s) {
  if (n == 0) return;
  // Keep the largest value below 2^31 * 2 for u32 keys, and spread wider keys.
  const std::uint64_t span = sizeof(Key) == 4 ? (std::uint64_t(1) << 31) : (std::uint64_t(1) << 50);
  const std::uint64_t mean_gap = std::max<std::uint64_t>(1, span / std::uint64_t(n));
  gaps_kernel<<<blocks_for(n), 256, 0, s>>>(scratch, n, seed, mean_gap, clustered);
  check_launch("gaps_kernel");
  thrust::inclusive_scan(thrust::cuda::par_nosync.on(s), scratch, scratch + n, scratch);
  check_launch("thrust::inclusive_scan");
  to_keys_kernel<<<blocks_for(n), 256, 0, s>>>(scratch, out, n);
  check_launch("to_keys_kernel");
}

// Thrust's temporary storage comes from here: one arena, bump-allocated and
// reset when everything is returned, so timed thrust calls never cudaMalloc.
struct ArenaAllocator {
  using value_type = char;
  char* base = nullptr;
  std::size_t capacity = 0;
  std::size_t used = 0;
  int live = 0;
  char* allocate(std::ptrdiff_t n) {
    const std::size_t bytes = (std::size_t(n) + 255) & ~std::size_t(255);
    if (used + bytes > capacity) throw std::runtime_error("bench arena exhausted");
    char* p = base + used;
    used += bytes;
    ++live;
    return p;
  }
  void deallocate(char*, std::size_t) {
    if (--live == 0) used = 0;
  }
};

// ---- timing ----

struct Row {
  std::string impl;
  double ms;
  bool ok;
};

double median_ms(int reps, const Stream& stream, const std::function<void()>& call) {
  for (int i = 0; i < 2; ++i) call();
  Event start, stop;
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    start.record(stream.get());
    call();
    stop.record(stream.get());
    stop.synchronize();
    t.push_back(stop.elapsed_ms_since(start));
  }
  std::sort(t.begin(), t.end());
  return reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
}

// Candidate tuned policies the --sweep times; each must fit 48 KB of static
// shared memory for its key (and value) width.
template <class... Ps>
struct PolicyList {};
template <class... Ps, class F>
void for_each_policy(PolicyList<Ps...>, F&& f) {
  (f(Ps{}), ...);
}
template <class Key, class Value>
struct SweepPolicies {
  using type = PolicyList<>;
};
template <>
struct SweepPolicies<std::uint32_t, NoValue> {
  using type = PolicyList<TunedPolicy<256, 15>, TunedPolicy<256, 23>, TunedPolicy<256, 31>, TunedPolicy<256, 39>,
                          TunedPolicy<384, 31>, TunedPolicy<512, 15>, TunedPolicy<512, 23>,
                          TunedPolicy<256, 31, true>>;
};
template <>
struct SweepPolicies<std::uint64_t, NoValue> {
  using type = PolicyList<TunedPolicy<256, 15>, TunedPolicy<256, 19>, TunedPolicy<256, 23>, TunedPolicy<384, 15>,
                          TunedPolicy<512, 7>, TunedPolicy<512, 9>, TunedPolicy<256, 23, true>>;
};
template <>
struct SweepPolicies<Key128, NoValue> {
  using type = PolicyList<TunedPolicy<256, 7>, TunedPolicy<256, 9>, TunedPolicy<256, 11>, TunedPolicy<384, 7>,
                          TunedPolicy<512, 5>, TunedPolicy<384, 7, true>>;
};
template <>
struct SweepPolicies<std::uint64_t, std::uint64_t> {
  using type = PolicyList<TunedPolicy<256, 11>, TunedPolicy<256, 9>, TunedPolicy<384, 7>, TunedPolicy<128, 23>,
                          TunedPolicy<512, 5>, TunedPolicy<256, 11, true>>;
};

template <class Key, class Value>
void bench_one(const char* type_name, const std::string& dist, int size_log2, const Options& opt,
               const Stream& stream, ArenaAllocator& arena) {
  constexpr bool has_values = !std::is_same_v<Value, NoValue>;
  using V = std::conditional_t<has_values, Value, char>;
  const std::int64_t m = std::int64_t(1) << size_log2;
  const std::int64_t n = m;
  const std::int64_t total = m + n;
  const cudaStream_t s = stream.get();

  DeviceBuffer<Key> a(m), b(n), c(total), c_ref(total);
  DeviceBuffer<V> av(has_values ? m : 0), bv(has_values ? n : 0), cv(has_values ? total : 0),
      cv_ref(has_values ? total : 0);
  {
    DeviceBuffer<std::uint64_t> scratch(std::max(m, n));
    const bool skewed = dist == "skewed";
    fill_sorted(a.data(), m, 1000 + size_log2, false, scratch.data(), s);
    fill_sorted(b.data(), n, 2000 + size_log2, skewed, scratch.data(), s);
    if constexpr (has_values) {
      iota_kernel<<<blocks_for(m), 256, 0, s>>>(av.data(), m, 0);
      check_launch("iota_kernel");
      iota_kernel<<<blocks_for(n), 256, 0, s>>>(bv.data(), n, m);
      check_launch("iota_kernel");
    }
    stream.synchronize();
  }

  const MergeVariant variants[] = {MergeVariant::basic, MergeVariant::tiled, MergeVariant::circular,
                                   MergeVariant::tuned, MergeVariant::automatic};
  auto run_variant = [&](void* temp, std::size_t& bytes, MergeVariant v) {
    if constexpr (has_values) {
      merge<Key, Value>(temp, bytes, a.span(), av.span(), b.span(), bv.span(), c.span(), cv.span(), s, v);
    } else {
      merge<Key>(temp, bytes, a.span(), b.span(), c.span(), s, v);
    }
  };
  std::size_t temp_bytes = 0;
  for (const MergeVariant v : variants) {
    std::size_t bytes = 0;
    run_variant(nullptr, bytes, v);
    temp_bytes = std::max(temp_bytes, bytes);
  }
  // The smallest sweep tile (128 x 5) needs the most partitions.
  temp_bytes = std::max(temp_bytes, std::size_t(total / 640 + 2) * sizeof(std::int64_t));
  DeviceBuffer<unsigned char> temp{static_cast<std::int64_t>(temp_bytes)};

  auto thrust_policy = thrust::cuda::par_nosync(arena).on(s);
  auto run_thrust = [&] {
    if constexpr (has_values) {
      thrust::merge_by_key(thrust_policy, a.data(), a.data() + m, b.data(), b.data() + n, av.data(), bv.data(),
                           c_ref.data(), cv_ref.data());
    } else {
      thrust::merge(thrust_policy, a.data(), a.data() + m, b.data(), b.data() + n, c_ref.data());
    }
    check_launch("thrust::merge");
  };
  auto matches_thrust = [&]() -> bool {
    if (!opt.check) return true;
    bool same = thrust::equal(thrust::cuda::par.on(s), c.data(), c.data() + total, c_ref.data());
    if constexpr (has_values) {
      same = same && thrust::equal(thrust::cuda::par.on(s), cv.data(), cv.data() + total, cv_ref.data());
    }
    check_cuda(cudaMemsetAsync(c.data(), 0, c.bytes(), s), "cudaMemsetAsync");
    return same;
  };

  std::vector<Row> rows;
  rows.push_back({"thrust", median_ms(opt.reps, stream, run_thrust), true});
  for (const MergeVariant v : variants) {
    const double ms = median_ms(opt.reps, stream, [&] {
      std::size_t bytes = temp_bytes;
      run_variant(temp.data(), bytes, v);
    });
    rows.push_back({to_string(v), ms, matches_thrust()});
  }
  if (opt.sweep) {
    const MergeArgs<Key, Value> args{a.data(),  has_values ? reinterpret_cast<const Value*>(av.data()) : nullptr,
                                     m,         b.data(),
                                     has_values ? reinterpret_cast<const Value*>(bv.data()) : nullptr,
                                     n,         c.data(),
                                     has_values ? reinterpret_cast<Value*>(cv.data()) : nullptr};
    auto sweep = [&](auto policy) {
      using P = decltype(policy);
      const double ms = median_ms(opt.reps, stream, [&] { dispatch_merge_tuned<P>(args, temp.data(), s); });
      rows.push_back({"tuned<" + std::to_string(P::block_threads) + "," + std::to_string(P::items_per_thread) +
                          (P::streaming ? ",stream>" : ">"),
                      ms, matches_thrust()});
    };
    for_each_policy(typename SweepPolicies<Key, Value>::type{}, sweep);
  }

  const double bytes_moved = 2.0 * double(total) * double(sizeof(Key) + (has_values ? sizeof(V) : 0));
  const double thrust_ms = rows[0].ms;
  for (const Row& r : rows) {
    std::printf("%-8s %-8s 2^%-2d+2^%-2d %-16s %9.3f %8.1f %8.2f %6.3f %s\n", type_name, dist.c_str(), size_log2,
                size_log2, r.impl.c_str(), r.ms, bytes_moved / (r.ms * 1e6), double(total) / (r.ms * 1e6),
                thrust_ms / r.ms, r.ok ? "ok" : "MISMATCH");
  }
  std::fflush(stdout);
}

int run(const Options& opt) {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::printf("# corank-bench merge  date %s  device %s (sm_%d%d, %d SMs)  reps %d (median, 2 warm-up)\n", date,
              prop.name, prop.major, prop.minor, prop.multiProcessorCount, opt.reps);
  std::printf("# GB/s = 2 * (m+n) * (key+value bytes) / time; Gout/s = outputs per second; vs_thrust = thrust time / time\n");
  std::printf("%-8s %-8s %-11s %-16s %9s %8s %8s %6s %s\n", "type", "dist", "m+n", "impl", "ms", "GB/s", "Gout/s",
              "vs_thr", "check");

  const Stream stream;
  DeviceBuffer<char> arena_buf(std::int64_t(256) << 20);
  ArenaAllocator arena{arena_buf.data(), std::size_t(arena_buf.size())};
  int failures = 0;
  for (const std::string& type : opt.types) {
    for (const int l : opt.size_log2) {
      for (const std::string& dist : opt.dists) {
        try {
          if (type == "u32") {
            bench_one<std::uint32_t, NoValue>("u32", dist, l, opt, stream, arena);
          } else if (type == "u64") {
            bench_one<std::uint64_t, NoValue>("u64", dist, l, opt, stream, arena);
          } else if (type == "key128") {
            bench_one<Key128, NoValue>("key128", dist, l, opt, stream, arena);
          } else if (type == "u64+u64") {
            bench_one<std::uint64_t, std::uint64_t>("u64+u64", dist, l, opt, stream, arena);
          } else if (type == "u32+u32") {
            bench_one<std::uint32_t, std::uint32_t>("u32+u32", dist, l, opt, stream, arena);
          } else {
            std::fprintf(stderr, "corank-bench merge: unknown type '%s'\n", type.c_str());
            return 2;
          }
        } catch (const CudaError& e) {
          std::fprintf(stderr, "corank-bench merge: %s %s 2^%d: %s\n", type.c_str(), dist.c_str(), l, e.what());
          ++failures;
          if (e.code() != cudaErrorMemoryAllocation) return 1;  // sticky errors poison the rest
        }
      }
    }
  }
  return failures ? 1 : 0;
}

}  // namespace

int bench_merge(int argc, char** argv) {
  Options opt;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
        return argv[++i];
      };
      if (arg == "--help" || arg == "-h") {
        usage();
        return 0;
      } else if (arg == "--sizes") {
        opt.size_log2.clear();
        for (const auto& s : split(value())) {
          const int l = std::stoi(s);
          if (l < 0 || l > 31) throw std::invalid_argument("--sizes takes log2 values in [0, 31]");
          opt.size_log2.push_back(l);
        }
      } else if (arg == "--types") {
        opt.types = split(value());
      } else if (arg == "--dists") {
        opt.dists = split(value());
        for (const auto& d : opt.dists) {
          if (d != "uniform" && d != "skewed") throw std::invalid_argument("unknown dist '" + d + "'");
        }
      } else if (arg == "--reps") {
        opt.reps = std::max(10, std::stoi(value()));
      } else if (arg == "--sweep") {
        opt.sweep = true;
      } else if (arg == "--no-check") {
        opt.check = false;
      } else {
        throw std::invalid_argument("unknown option '" + arg + "'");
      }
    }
    return run(opt);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank-bench merge: %s\n", e.what());
    return 2;
  }
}
