#pragma once
// The GPU backend of run formation as src/ sees it. Builds without CUDA have
// the same interface; opening the backend there always fails with a reason.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "corank/format.hpp"
#include "corank/sort_options.hpp"

namespace corank {

// Any failure inside the GPU backend (a CUDA error, pinned memory exhausted).
class GpuError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Merges the slabs of the in-memory merge phase on the GPU, two in flight:
// see gpu/corank/gpu/slab_merger.cuh. Entries are KeyEntry<W> (W key words,
// then pos). Every member throws GpuError.
class GpuSlabMerge {
public:
  virtual ~GpuSlabMerge() = default;
  // The most entries one slab may hold.
  virtual std::uint64_t slab_records() const = 0;
  // Starts merging k sorted segments, in run order (equal keys keep the earlier
  // segment first); they are read before submit returns. At most two slabs may
  // be submitted and not yet taken.
  virtual void submit(const std::uint64_t* const* segments, const std::uint64_t* lengths, std::size_t k) = 0;
  // The oldest slab not yet taken, merged: `count` entries, valid and writable
  // until the next submit.
  virtual std::uint64_t* take(std::uint64_t& count) = 0;
  // h2d, merge and d2h of the merge phase (setup and sort stay 0).
  virtual GpuTimes times() const = 0;
  virtual std::string describe() const = 0;
};

// Sorts chunks of records into KeyEntry<W> arrays on the GPU, asynchronously:
// see gpu/corank/gpu/run_sorter.cuh. Every member throws GpuError.
class GpuRunFormation {
public:
  virtual ~GpuRunFormation() = default;
  virtual std::uint64_t chunk_records() const = 0;
  // n <= chunk_records() records; `out` (n entries of key words + pos) is
  // complete after finish(). `records` is read before submit returns.
  virtual void submit(const std::byte* records, std::uint64_t n, std::uint64_t pos_base, std::uint64_t* out) = 0;
  virtual void finish() = 0;
  virtual GpuTimes times() const = 0;
  virtual std::string describe() const = 0;
  // The merge phase's backend on the same device, for keys of key_words (1 or
  // 2) words and slabs of at most max_slab_records entries (fewer when the
  // device budget is smaller). Opened after run formation. nullptr: this
  // backend merges nothing, the merge stays on the CPU.
  virtual std::unique_ptr<GpuSlabMerge> open_slab_merge(unsigned /*key_words*/, std::uint64_t /*max_slab_records*/) {
    return nullptr;
  }
};

// Sorts an array of u64 words in host memory on the GPU, words only
// (corank::gpu::sort_host_u64: one round trip over PCIe when the words fit the
// device budget, else runs and a slab-by-slab merge). For records that are
// their 4- or 8-byte key (key_words_only.hpp). Every member throws GpuError.
class GpuKeySort {
public:
  struct Result {
    GpuTimes times;
    std::uint64_t runs = 0, slabs = 0;
  };
  virtual ~GpuKeySort() = default;
  // Sorts keys[0, n) ascending, in place.
  virtual Result sort(std::uint64_t* keys, std::uint64_t n) = 0;
  virtual std::string describe() const = 0;
};

// Sorts the 4-word key prefixes of text records on the GPU
// (gpu/corank/gpu/prefix_sort.cuh): the stable order of the keys, ties left in
// input order. Every member throws GpuError.
class GpuPrefixSort {
public:
  static constexpr unsigned kWords = 4;
  // pack(first, count, words) writes keys [first, first + count), kWords each.
  using Pack = std::function<void(std::uint64_t first, std::uint64_t count, std::uint64_t* words)>;
  virtual ~GpuPrefixSort() = default;
  // The most keys one sort() takes.
  virtual std::uint64_t max_records() const = 0;
  // order[i] = the index of the i-th smallest of keys [0, n); only their low
  // key_bits bits may differ.
  virtual void sort(std::uint64_t n, const Pack& pack, unsigned key_bits, std::uint32_t* order) = 0;
  // Summed over sorts; busy is their wall time.
  virtual GpuTimes times() const = 0;
  virtual std::string describe() const = 0;
};

// The --gpu policy for text prefixes, as for open_gpu_backend below, except
// that under auto an input known to be smaller than kAutoGpuMinTextBytes stays
// on the CPU.
inline constexpr std::uint64_t kAutoGpuMinTextBytes = std::uint64_t{1} << 30;
std::unique_ptr<GpuPrefixSort> open_gpu_prefix_sort(const SortOptions& options, std::optional<std::uint64_t> total_bytes);

// The --gpu policy for a words-only sort of total_records words, as for
// open_gpu_backend below: nullptr keeps the sort on the CPU.
std::unique_ptr<GpuKeySort> open_gpu_key_sort(const SortOptions& options, unsigned threads,
                                              std::optional<std::uint64_t> total_records);

// The --gpu policy: off → nullptr; auto → the backend if a device is present
// and setup works, else nullptr; on → the backend, or UsageError naming why
// none is usable. A key wider than the GPU sorts (2 words) gives nullptr under
// auto and on alike. --verbose says which backend runs and why.
// max_chunk_records: the largest run the sorter will submit at once.
// total_records: the input's size when known. Under auto, an input smaller than
// kAutoGpuMinRecords stays on the CPU: opening the device (about 0.45 s on the
// H100 machine) costs more than the GPU saves there (measured 2026-11-22: 10^7
// gensort records 0.7x with the GPU, 10^8 u64 1.5x; see BENCHMARKS.md).
inline constexpr std::uint64_t kAutoGpuMinRecords = std::uint64_t{1} << 25;
std::unique_ptr<GpuRunFormation> open_gpu_backend(const SortOptions& options, const RecordFormat& format,
                                                  std::uint64_t max_chunk_records, unsigned threads,
                                                  std::optional<std::uint64_t> total_records);

}  // namespace corank
