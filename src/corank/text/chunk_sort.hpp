#pragma once
// Sorting a chunk of text records: on the GPU where one was opened for the
// sort (gpu_record_sort.hpp), else on all threads (parallel_sort). A GPU that
// fails is given up for the rest of the sort (gpu_fail_over: an error under
// --gpu=on, a note and the CPU otherwise). Both give the same order.
#include <memory>

#include "corank/gpu_backend.hpp"
#include "corank/io/huge_vector.hpp"
#include "corank/sort_options.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

class ChunkSort {
public:
  ChunkSort(const CommonSortOptions& options, unsigned threads) : options_(options), threads_(threads) {}

  // The GPU opened for the sort (null: none), and the seconds its opening took.
  void use(std::unique_ptr<GpuPrefixSort> gpu, double setup_seconds) {
    gpu_ = std::move(gpu);
    setup_seconds_ = setup_seconds;
  }
  void sort(Chunk& chunk, const TextFormat& format, io::HugeVector<RecordEntry>& scratch);

  double seconds() const noexcept { return seconds_; }  // sorting chunks, so far
  bool sorted_on_gpu() const noexcept { return sorted_on_gpu_; }  // some chunk was
  GpuTimes gpu_times() const;  // the GPU's, its opening included

private:
  const CommonSortOptions& options_;
  unsigned threads_;
  std::unique_ptr<GpuPrefixSort> gpu_;
  bool sorted_on_gpu_ = false;
  double setup_seconds_ = 0, seconds_ = 0;
  GpuTimes gpu_times_;
};

}  // namespace corank::text
