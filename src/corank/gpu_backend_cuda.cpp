// The CUDA GPU backend: the record device over gpu::TransferRing and
// gpu::RecordSorter, and the text prefix sorter over gpu::PrefixSorter.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/key_extract.cuh"
#include "corank/gpu/prefix_sort.cuh"
#include "corank/gpu/record_sorter.cuh"
#include "corank/gpu/transfer_ring.cuh"
#include "corank/gpu_backend.hpp"
#include "corank/gpu_key_layout.hpp"
#include "corank/io/fault_injection.hpp"

namespace corank::gpu_backend {

namespace {

// CUDA's errors, and gpu::merge's argument checks, leave the backend as GpuError.
template <class F>
decltype(auto) guarded(F&& f) {
  try {
    return f();
  } catch (const gpu::CudaError& e) {
    throw GpuError(e.what());
  } catch (const std::invalid_argument& e) {
    throw GpuError(e.what());
  }
}

std::string device_name() {
  cudaDeviceProp prop{};
  int dev = 0;
  return cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess ? prop.name
                                                                                                   : "GPU";
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

class CudaRecordDevice final : public RecordDevice {
public:
  static constexpr std::uint64_t kMinCapacity = 16;

  CudaRecordDevice(const RecordFormat& format, std::uint64_t budget, std::uint64_t max_records,
                   std::size_t slot_bytes, unsigned slots)
      : R_(format.record_size) {
    guarded([&] {
      gpu::check_cuda(cudaFree(nullptr), "cudaFree (context start-up)");
      const gpu::KeyLayout layout = to_key_layout(format);
      std::uint64_t capacity = gpu::RecordSorter::capacity_for(layout, budget);
      // Device memory for the input and no more: allocating and freeing it is
      // part of every sort's time.
      if (max_records > 0 && capacity >= kMinCapacity)
        capacity = std::min(capacity, std::max(max_records, kMinCapacity));
      // The merge cuts slabs of a few samples per run: it needs room for a few records.
      if (capacity < kMinCapacity)
        throw gpu::CudaError(cudaErrorMemoryAllocation, "a GPU budget of " + std::to_string(budget) +
                                                            " bytes holds fewer than " + std::to_string(kMinCapacity) +
                                                            " records");
      ring_ = std::make_unique<gpu::TransferRing>(std::max<std::size_t>(slot_bytes, R_), slots);
      sorter_ = std::make_unique<gpu::RecordSorter>(layout, capacity, *ring_);
    });
  }

  std::uint64_t capacity() const override { return sorter_->capacity(); }
  std::uint64_t staging_bytes() const override { return ring_->pinned_bytes(); }

  std::uint64_t upload(std::uint64_t at, std::uint64_t max, const Fill& fill) override {
    return guarded([&] {
      return sorter_->upload(at, max, [&](std::byte* dst, std::uint64_t offset, std::size_t bytes) {
        return static_cast<std::size_t>(fill(dst, offset / R_, bytes / R_) * R_);
      });
    });
  }

  void arrange(std::span<const Piece> pieces) override {
    std::vector<gpu::RecordSorter::Piece> p(pieces.size());
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = {pieces[i].at, pieces[i].count};
    guarded([&] { sorter_->arrange(p.data(), p.size()); });
  }

  std::uint64_t sort(std::uint64_t n, std::span<const std::uint64_t> segment_ends, KeepEqual keep) override {
    // Fault points (io/fault_injection.hpp): a sort that fails before it
    // starts or after the device sorted, to exercise the fail-over.
    if (io::inject_failure(io::FaultPoint::device_sort)) throw GpuError("injected failure (before the sort)");
    const gpu::Unique unique = keep == KeepEqual::all     ? gpu::Unique::none
                               : keep == KeepEqual::first ? gpu::Unique::first
                                                          : gpu::Unique::continued;
    const std::uint64_t kept = guarded([&] { return sorter_->sort(n, segment_ends.data(), segment_ends.size(), unique); });
    if (io::inject_failure(io::FaultPoint::device_sort_done)) throw GpuError("injected failure (after the sort)");
    return kept;
  }

  void download(std::uint64_t count, const Drain& drain) override {
    guarded([&] {
      sorter_->download(count, [&](const std::byte* src, std::uint64_t offset, std::size_t bytes) {
        drain(src, offset / R_, bytes / R_);
      });
    });
  }

  GpuTimes times() const override {
    const gpu::TransferTimes t = ring_->times();
    const gpu::RecordSortTimes s = sorter_->times();
    GpuTimes g;
    g.h2d = t.h2d_ms / 1e3;
    g.d2h = t.d2h_ms / 1e3;
    g.sort = s.sort_ms / 1e3;
    g.merge = s.merge_ms / 1e3;
    g.busy = t.busy_ms / 1e3;
    g.pin = t.alloc_ms / 1e3;
    g.h2d_bytes = t.h2d_bytes;
    g.d2h_bytes = t.d2h_bytes;
    return g;
  }

  std::string describe() const override {
    return device_name() + ", " + (sorter_->words_only() ? "words only, " : "whole records, ") + "up to " +
           std::to_string(sorter_->capacity()) + " records a sort, " + mib(sorter_->device_bytes()) +
           " of device memory, " + std::to_string(ring_->slots()) + " staging slots of " +
           std::to_string(ring_->slot_bytes() >> 10) + " KiB";
  }

private:
  std::uint32_t R_;
  std::unique_ptr<gpu::TransferRing> ring_;
  std::unique_ptr<gpu::RecordSorter> sorter_;  // after ring_: its work runs on the ring's stream
};

class CudaPrefixSort final : public GpuPrefixSort {
public:
  explicit CudaPrefixSort(std::uint64_t budget) : budget_(budget) {
    guarded([&] { sorter_ = std::make_unique<gpu::PrefixSorter>(budget); });
  }
  std::uint64_t max_records() const override { return sorter_->max_records(); }
  void sort(std::uint64_t n, const Pack& pack, unsigned key_bits, std::uint32_t* order) override {
    if (io::inject_failure(io::FaultPoint::device_sort)) throw GpuError("injected failure (before the sort)");
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
           (budget_ ? ", device budget " + mib(budget_) : "");
  }

private:
  std::uint64_t budget_;
  std::unique_ptr<gpu::PrefixSorter> sorter_;
  double busy_ = 0;
};

}  // namespace

std::string unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
  }
  if (count == 0) return "no CUDA device";
  return {};
}

bool sorts_records_of(const RecordFormat& format) {
  return format.key_words() <= gpu::kMaxGpuKeyWords && format.keys.size() <= gpu::kMaxKeyFields;
}

std::unique_ptr<RecordDevice> open_record_device(const RecordFormat& format, std::uint64_t device_budget,
                                                 std::uint64_t max_records, std::size_t slot_bytes, unsigned slots) {
  return std::make_unique<CudaRecordDevice>(format, device_budget, max_records, slot_bytes, slots);
}

std::unique_ptr<GpuPrefixSort> open_prefix_sort(std::uint64_t device_budget) {
  return std::make_unique<CudaPrefixSort>(device_budget);
}

}  // namespace corank::gpu_backend
