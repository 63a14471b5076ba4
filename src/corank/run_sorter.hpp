#pragma once
// The run-formation seam: the pipeline hands every run to a RunSorter, which
// sorts it on the GPU backend when there is one and on the CPU (sort_run)
// otherwise. GPU runs complete asynchronously, so the next run is staged while
// the GPU still sorts the last; finish() delivers them all.
//
// A GPU failure never yields wrong output: under --gpu=auto the runs not yet
// delivered are redone on the CPU (one line on stderr says so) and the rest of
// the sort stays there; under --gpu=on it is an error.
#include <cstdio>
#include <span>
#include <type_traits>
#include <vector>

#include "corank/gpu_backend.hpp"
#include "corank/key_entry.hpp"
#include "corank/kway_merge.hpp"
#include "corank/run_sort.hpp"

namespace corank {

template <unsigned W>
class RunSorter {
  using E = KeyEntry<W>;
  static_assert(sizeof(E) == 8 * (W + 1) && std::is_standard_layout_v<E>, "the GPU writes entries as W + 1 words");

public:
  // gpu: the backend, or nullptr for the CPU. required: --gpu=on.
  RunSorter(const KeyNormalizer& norm, std::uint32_t record_size, unsigned threads, GpuRunFormation* gpu,
            bool required)
      : norm_(norm), R_(record_size), threads_(threads), gpu_(gpu), required_(required) {}

  // Sorts the keys of n records into out, like sort_run (scratch: n entries).
  // With the GPU, out is complete only after finish(), and records must stay
  // valid until then.
  void sort(const std::byte* records, std::uint64_t n, std::uint64_t pos_base, E* out, E* scratch) {
    if (gpu_ == nullptr) {
      sort_run<W>(norm_, records, R_, n, pos_base, out, scratch, threads_);
      return;
    }
    pending_.push_back({records, n, pos_base, out, scratch});
    try {
      const std::uint64_t chunk = gpu_->chunk_records();
      if (n <= chunk) {
        gpu_->submit(records, n, pos_base, words(out));
        return;
      }
      // A run larger than a GPU chunk: its chunks are sorted into scratch and
      // merged into out on the CPU, as sort_run merges its threads' pieces.
      std::vector<std::span<const E>> pieces;
      for (std::uint64_t b = 0; b < n; b += chunk) {
        const std::uint64_t m = std::min(chunk, n - b);
        gpu_->submit(records + b * R_, m, pos_base + b, words(scratch + b));
        pieces.emplace_back(scratch + b, m);
      }
      gpu_->finish();
      merge_kway_parallel(std::span<const std::span<const E>>(pieces), out, threads_);
      pending_.clear();
    } catch (const GpuError& e) {
      fail_over(e);
    }
  }

  // Every run handed to sort() is in its out array once this returns.
  void finish() {
    if (gpu_ == nullptr) return;
    try {
      gpu_->finish();
      pending_.clear();
    } catch (const GpuError& e) {
      fail_over(e);
    }
  }

  // True while the GPU sorts (false from the start on the CPU, or after a failure).
  bool on_gpu() const noexcept { return gpu_ != nullptr; }

private:
  struct Pending {
    const std::byte* records;
    std::uint64_t n, pos_base;
    E* out;
    E* scratch;
  };

  static std::uint64_t* words(E* e) noexcept { return reinterpret_cast<std::uint64_t*>(e); }

  void fail_over(const GpuError& e) {
    if (required_) throw GpuError(std::string("GPU run formation failed: ") + e.what());
    std::fprintf(stderr, "corank: GPU run formation failed (%s); sorting on the CPU\n", e.what());
    gpu_ = nullptr;
    for (const Pending& p : pending_) sort_run<W>(norm_, p.records, R_, p.n, p.pos_base, p.out, p.scratch, threads_);
    pending_.clear();
  }

  const KeyNormalizer& norm_;
  std::uint32_t R_;
  unsigned threads_;
  GpuRunFormation* gpu_;
  bool required_;
  std::vector<Pending> pending_;  // submitted to the GPU, not yet delivered
};

}  // namespace corank
