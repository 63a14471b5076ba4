#pragma once
// Sorting a chunk of text records: on the GPU where one was opened for the
// sort (gpu_record_sort.hpp), else on all threads (parallel_sort). A GPU that
// fails is given up for the rest of the sort (gpu_fail_over: an error under
// --gpu=on, a note and the CPU otherwise). Both give the same order.
#include <cstdint>
#include <memory>
#include <vector>

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
  // With `leave_merge`, a sort on the CPU stops before its last step: the
  // chunk's records are left as sorted slices (pending_slices) for a writer
  // that merges them into the output as it writes (merged_chunk_writer.hpp);
  // finish() completes the sort instead.
  void sort(Chunk& chunk, const TextFormat& format, io::HugeVector<RecordEntry>& scratch, bool leave_merge = false);
  // Where the sorted slices of the chunk last sorted begin, and its end; empty
  // where the chunk is sorted whole.
  const std::vector<std::uint64_t>& pending_slices() const noexcept { return slices_; }
  void finish(Chunk& chunk, const TextFormat& format, io::HugeVector<RecordEntry>& scratch);
  void merged() noexcept { slices_.clear(); }  // a writer merged the slices

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
  std::vector<std::uint64_t> slices_;
};

}  // namespace corank::text
