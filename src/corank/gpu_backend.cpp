#include "corank/gpu_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#ifdef CORANK_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "corank/big_array.hpp"
#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/host_array_sort.cuh"
#include "corank/gpu/key_extract.cuh"
#include "corank/gpu/prefix_sort.cuh"
#include "corank/gpu/run_sorter.cuh"
#include "corank/gpu/slab_merger.cuh"
#include "corank/gpu_key_layout.hpp"
#include "corank/parallel.hpp"
#endif

namespace corank {

#ifdef CORANK_HAVE_CUDA

namespace {

// Copies through pinned staging on several threads: one thread moves about
// 6 GB/s, short of the PCIe rate the GPU pipeline can take.
void parallel_copy(void* dst, const void* src, std::size_t bytes, unsigned threads) {
  constexpr std::size_t kMinPerThread = std::size_t{4} << 20;
  threads = static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, bytes / kMinPerThread)));
  parallel_for(threads, [&](unsigned t) {
    const std::size_t b = bytes * t / threads, e = bytes * (t + 1) / threads;
    std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, e - b);
  });
}

template <class F>
void guarded(F&& f) {
  try {
    f();
  } catch (const gpu::CudaError& e) {
    throw GpuError(e.what());
  } catch (const std::invalid_argument& e) {  // corank::gpu::merge's argument checks
    throw GpuError(e.what());
  } catch (const std::bad_alloc&) {
    throw GpuError("out of host memory for pinned staging");
  }
}

std::string device_name() {
  cudaDeviceProp prop{};
  int dev = 0;
  return cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess ? prop.name
                                                                                                   : "GPU";
}

// The copy stages of a GPU phase's CUDA-event times (gpu::StageTimes or
// gpu::SlabMergeTimes) in seconds: H2D, D2H, busy time and bytes each way.
template <class StageTimes>
GpuTimes copy_times(const StageTimes& t) {
  GpuTimes g;
  g.h2d = t.h2d_ms / 1e3;
  g.d2h = t.d2h_ms / 1e3;
  g.busy = t.busy_ms / 1e3;
  g.h2d_bytes = t.h2d_bytes;
  g.d2h_bytes = t.d2h_bytes;
  return g;
}

class CudaSlabMerge final : public GpuSlabMerge {
public:
  CudaSlabMerge(unsigned key_words, std::uint64_t max_slab, std::uint64_t budget, unsigned threads)
      : merger_(key_words, max_slab, budget,
                [threads](void* d, const void* s, std::size_t b) { parallel_copy(d, s, b, threads); }) {}

  std::uint64_t slab_records() const override { return merger_.slab_records(); }
  void submit(const std::uint64_t* const* segments, const std::uint64_t* lengths, std::size_t k) override {
    guarded([&] { merger_.submit(segments, lengths, k); });
  }
  std::uint64_t* take(std::uint64_t& count) override {
    std::uint64_t* out = nullptr;
    guarded([&] { out = merger_.take(count); });
    return out;
  }
  GpuTimes times() const override {
    const auto t = merger_.times();
    GpuTimes g = copy_times(t);
    g.merge = t.merge_ms / 1e3;
    return g;
  }
  std::string describe() const override {
    return device_name() + ", slabs of " + std::to_string(merger_.slab_records()) + " records, " +
           std::to_string(merger_.device_bytes() >> 20) + " MiB of device memory";
  }

private:
  gpu::SlabMerger merger_;
};

class CudaRunFormation final : public GpuRunFormation {
public:
  CudaRunFormation(const RecordFormat& format, std::uint64_t max_chunk, std::uint64_t budget, unsigned threads)
      : sorter_(std::make_unique<gpu::RunSorter>(
            to_key_layout(format), max_chunk, budget,
            [threads](void* d, const void* s, std::size_t b) { parallel_copy(d, s, b, threads); })),
        chunk_(sorter_->chunk_records()),
        describe_(device_name() + ", chunks of " + std::to_string(chunk_) + " records, " +
                  std::to_string(sorter_->device_bytes() >> 20) + " MiB of device memory"),
        budget_(budget),
        threads_(threads) {}

  std::uint64_t chunk_records() const override { return chunk_; }
  void submit(const std::byte* records, std::uint64_t n, std::uint64_t pos_base, std::uint64_t* out) override {
    if (!sorter_) throw GpuError("GPU run formation was closed for the merge phase");
    guarded([&] { sorter_->submit(records, n, pos_base, out); });
  }
  void finish() override {
    if (sorter_) guarded([&] { sorter_->finish(); });
  }
  GpuTimes times() const override {
    const auto t = sorter_ ? sorter_->times() : times_;
    GpuTimes g = copy_times(t);
    g.sort = t.sort_ms / 1e3;
    return g;
  }
  std::string describe() const override { return describe_; }

  // Run formation is over: its device buffers go first, so --gpu-memory caps
  // the device memory of both phases, and without it the slab merger takes most
  // of the free memory.
  std::unique_ptr<GpuSlabMerge> open_slab_merge(unsigned key_words, std::uint64_t max_slab_records) override {
    std::unique_ptr<GpuSlabMerge> m;
    guarded([&] {
      if (sorter_) {
        sorter_->finish();
        times_ = sorter_->times();
        sorter_.reset();
      }
      m = std::make_unique<CudaSlabMerge>(key_words, max_slab_records, budget_, threads_);
    });
    return m;
  }

private:
  std::unique_ptr<gpu::RunSorter> sorter_;  // null once the merge phase opened
  gpu::StageTimes times_{};
  std::uint64_t chunk_;
  std::string describe_;
  std::uint64_t budget_;
  unsigned threads_;
};

// Under --gpu=on a refusal is an error (UsageError naming why); otherwise it
// keeps `what` on the CPU, with a --verbose line. Returns false.
bool gpu_refused(const SortOptions& options, const char* what, const std::string& why) {
  if (options.gpu == GpuMode::On) throw UsageError("--gpu=on: no usable GPU (" + why + ")");
  if (options.verbose) std::fprintf(stderr, "corank: %s on the CPU (%s)\n", what, why.c_str());
  return false;
}

// Empty when a device is usable, else why not.
std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
  }
  if (count == 0) return "no CUDA device";
  return {};
}

// The part of the --gpu policy both backends share: whether to try the
// device at all. False, with a --verbose line naming `what` and why, keeps the
// work on the CPU; --gpu=on without a usable device throws UsageError.
bool gpu_wanted(const SortOptions& options, const char* what, std::optional<std::uint64_t> total_records) {
  if (options.gpu == GpuMode::Off) return false;
  if (options.gpu == GpuMode::Auto && total_records && *total_records < kAutoGpuMinRecords) {
    if (options.verbose)
      std::fprintf(stderr, "corank: %s on the CPU (%llu records: too few for the GPU to pay for its start-up)\n", what,
                   static_cast<unsigned long long>(*total_records));
    return false;
  }
  if (std::string why = gpu_unavailable_reason(); !why.empty()) return gpu_refused(options, what, why);
  return true;
}

class CudaKeySort final : public GpuKeySort {
public:
  // Opens the CUDA context and checks that the budget holds a plan for n words.
  CudaKeySort(std::uint64_t n, std::uint64_t budget, unsigned threads) : budget_(budget), threads_(threads) {
    guarded([&] {
      gpu::check_cuda(cudaFree(nullptr), "cudaFree (context start-up)");
      (void)gpu::plan_host_sort_u64(n, budget_);
    });
  }

  Result sort(std::uint64_t* keys, std::uint64_t n) override {
    // Test hook: CORANK_GPU_FAIL_SORT=before|after|partial fails this sort
    // before touching the words, after sorting them, or after overwriting one
    // word with its neighbour (a DMA cut short), to exercise the fail-over.
    const char* fail = std::getenv("CORANK_GPU_FAIL_SORT");
    const std::string fault = fail ? fail : "";
    if (fault == "before") throw GpuError("injected failure (CORANK_GPU_FAIL_SORT=before)");
    Result r;
    guarded([&] {
      const gpu::HostSortPlan plan = gpu::plan_host_sort_u64(n, budget_);
      gpu::HostSortTimes t;
      if (plan.one_pass || n == 0) {
        t = gpu::sort_host_u64(keys, keys, n, budget_);
      } else {
        // Two passes write their runs over the input: sort into a second array.
        BigArray<std::uint64_t> out(n);
        t = gpu::sort_host_u64(keys, out.get(), n, budget_);
        parallel_copy(keys, out.get(), n * sizeof(std::uint64_t), threads_);
      }
      r.runs = t.runs;
      r.slabs = t.slabs;
      r.times.h2d = t.h2d_ms / 1e3;
      r.times.sort = t.gpu_ms / 1e3;
      r.times.d2h = t.d2h_ms / 1e3;
      r.times.busy = t.run_formation_s + t.merge_s;
      r.times.pin = t.register_s;
      r.times.h2d_bytes = t.h2d_bytes;
      r.times.d2h_bytes = t.d2h_bytes;
    });
    if (fault == "partial" && n > 1) {
      std::uint64_t i = 0;
      while (i + 2 < n && keys[i] == keys[i + 1]) ++i;
      keys[i] = keys[i + 1];
    }
    if (fault == "after" || fault == "partial") throw GpuError("injected failure (CORANK_GPU_FAIL_SORT=" + fault + ")");
    return r;
  }

  std::string describe() const override {
    return device_name() + ", words only" + (budget_ ? ", device budget " + std::to_string(budget_ >> 20) + " MiB" : "");
  }

private:
  std::uint64_t budget_;
  unsigned threads_;
};

class CudaPrefixSort final : public GpuPrefixSort {
public:
  explicit CudaPrefixSort(std::uint64_t budget) : budget_(budget) {
    guarded([&] { sorter_ = std::make_unique<gpu::PrefixSorter>(budget); });
  }
  std::uint64_t max_records() const override { return sorter_->max_records(); }
  void sort(std::uint64_t n, const Pack& pack, unsigned key_bits, std::uint32_t* order) override {
    // Test hook: CORANK_GPU_FAIL_SORT=before fails every sort before it starts.
    if (const char* fail = std::getenv("CORANK_GPU_FAIL_SORT"); fail && std::string(fail) == "before")
      throw GpuError("injected failure (CORANK_GPU_FAIL_SORT=before)");
    const auto t0 = std::chrono::steady_clock::now();
    guarded([&] { sorter_->sort(n, pack, key_bits, order); });
    busy_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  GpuTimes times() const override {
    const gpu::PrefixSortTimes t = sorter_->times();
    GpuTimes g;
    g.h2d = t.h2d_ms / 1e3;
    g.sort = t.sort_ms / 1e3;
    g.d2h = t.d2h_ms / 1e3;
    g.busy = busy_;
    g.h2d_bytes = t.h2d_bytes;
    g.d2h_bytes = t.d2h_bytes;
    return g;
  }
  std::string describe() const override {
    return device_name() + ", prefixes, up to " + std::to_string(sorter_->max_records()) + " records a sort" +
           (budget_ ? ", device budget " + std::to_string(budget_ >> 20) + " MiB" : "");
  }

private:
  std::uint64_t budget_;
  std::unique_ptr<gpu::PrefixSorter> sorter_;
  double busy_ = 0;
};

}  // namespace

std::unique_ptr<GpuPrefixSort> open_gpu_prefix_sort(const SortOptions& options, std::optional<std::uint64_t> total_bytes) {
  if (options.gpu == GpuMode::Auto && total_bytes && *total_bytes < kAutoGpuMinTextBytes) {
    if (options.verbose)
      std::fprintf(stderr, "corank: sort on the CPU (%llu bytes: too few for the GPU to pay for its start-up)\n",
                   static_cast<unsigned long long>(*total_bytes));
    return nullptr;
  }
  if (!gpu_wanted(options, "sort", std::nullopt)) return nullptr;
  try {
    auto backend = std::make_unique<CudaPrefixSort>(options.gpu_memory);
    if (options.verbose) std::fprintf(stderr, "corank: sort on the GPU (%s)\n", backend->describe().c_str());
    return backend;
  } catch (const GpuError& e) {
    gpu_refused(options, "sort", e.what());
    return nullptr;
  }
}

std::unique_ptr<GpuKeySort> open_gpu_key_sort(const SortOptions& options, unsigned threads,
                                              std::optional<std::uint64_t> total_records) {
  if (!gpu_wanted(options, "sort", total_records)) return nullptr;
  try {
    auto backend = std::make_unique<CudaKeySort>(total_records.value_or(0), options.gpu_memory, threads);
    if (options.verbose) std::fprintf(stderr, "corank: sort on the GPU (%s)\n", backend->describe().c_str());
    return backend;
  } catch (const GpuError& e) {
    gpu_refused(options, "sort", e.what());
    return nullptr;
  }
}

std::unique_ptr<GpuRunFormation> open_gpu_backend(const SortOptions& options, const RecordFormat& format,
                                                  std::uint64_t max_chunk_records, unsigned threads,
                                                  std::optional<std::uint64_t> total_records) {
  if (!gpu_wanted(options, "run formation", total_records)) return nullptr;
  auto cpu = [&](const std::string& why) -> std::unique_ptr<GpuRunFormation> {
    gpu_refused(options, "run formation", why);
    return nullptr;
  };
  if (format.key_words() > gpu::kMaxGpuKeyWords || format.keys.size() > gpu::kMaxKeyFields) {
    // Not a missing GPU: the data is fine on the CPU under --gpu=on too.
    if (options.verbose)
      std::fprintf(stderr, "corank: run formation on the CPU (the GPU sorts keys of up to %u bytes, this one has %u)\n",
                   8 * gpu::kMaxGpuKeyWords, format.key_bytes());
    return nullptr;
  }
  try {
    auto backend = std::make_unique<CudaRunFormation>(format, max_chunk_records, options.gpu_memory, threads);
    if (options.verbose) std::fprintf(stderr, "corank: run formation on the GPU (%s)\n", backend->describe().c_str());
    return backend;
  } catch (const gpu::CudaError& e) {
    return cpu(e.what());
  } catch (const std::bad_alloc&) {
    return cpu("out of host memory for pinned staging");
  }
}

#else  // no CUDA in this build

std::unique_ptr<GpuPrefixSort> open_gpu_prefix_sort(const SortOptions& options, std::optional<std::uint64_t>) {
  if (options.gpu == GpuMode::On)
    throw UsageError("--gpu=on: no usable GPU (this build of corank has no GPU backend)");
  if (options.gpu == GpuMode::Auto && options.verbose)
    std::fprintf(stderr, "corank: sort on the CPU (this build of corank has no GPU backend)\n");
  return nullptr;
}

std::unique_ptr<GpuKeySort> open_gpu_key_sort(const SortOptions& options, unsigned,
                                              std::optional<std::uint64_t>) {
  if (options.gpu == GpuMode::On)
    throw UsageError("--gpu=on: no usable GPU (this build of corank has no GPU backend)");
  if (options.gpu == GpuMode::Auto && options.verbose)
    std::fprintf(stderr, "corank: sort on the CPU (this build of corank has no GPU backend)\n");
  return nullptr;
}

std::unique_ptr<GpuRunFormation> open_gpu_backend(const SortOptions& options, const RecordFormat&, std::uint64_t,
                                                  unsigned, std::optional<std::uint64_t>) {
  if (options.gpu == GpuMode::On)
    throw UsageError("--gpu=on: no usable GPU (this build of corank has no GPU backend)");
  if (options.gpu == GpuMode::Auto && options.verbose)
    std::fprintf(stderr, "corank: run formation on the CPU (this build of corank has no GPU backend)\n");
  return nullptr;
}

#endif

}  // namespace corank
