#include "corank/text/chunk_sort.hpp"

#include "corank/gpu_gate.hpp"
#include "corank/parallel.hpp"
#include "corank/stopwatch.hpp"
#include "corank/text/gpu_record_sort.hpp"
#include "corank/text/pile_sort.hpp"
#include "corank/text/record_sort.hpp"
#include "corank/text/tied_records.hpp"

namespace corank::text {

void ChunkSort::sort(Chunk& chunk, const TextFormat& format, io::HugeVector<RecordEntry>& scratch,
                     bool leave_merge) {
  const auto t0 = Clock::now();
  slices_.clear();
  const EntryLess less{&format, &chunk};
  bool done = false;
  if (gpu_) {
    try {
      gpu_sort_records(*gpu_, chunk.records, scratch, less, threads_);
      sorted_on_gpu_ = true;
      gpu_times_ = gpu_->times();
      done = true;
    } catch (const GpuError& e) {
      gpu_fail_over(options_, "sort", e);
      gpu_.reset();
    }
  }
  if (!done) {
    // By prefix, a cheap comparison; then the full one where prefixes tie.
    // Records of logs come nearly in order: dealt into piles and merged.
    slices_ = sort_into_slices(chunk.records, scratch, PrefixLess{}, threads_);
    if (!leave_merge) finish(chunk, format, scratch);
  }
  seconds_ += seconds_since(t0);
}

void ChunkSort::finish(Chunk& chunk, const TextFormat& format, io::HugeVector<RecordEntry>& scratch) {
  if (slices_.empty()) return;
  if (slices_.size() > 2) merge_sorted_slices(chunk.records, scratch, slices_, PrefixLess{}, threads_);
  settle_ties(chunk.records, 0, chunk.records.size(), EntryLess{&format, &chunk}, threads_);
  slices_.clear();
}

GpuTimes ChunkSort::gpu_times() const {
  GpuTimes t = gpu_times_;
  t.setup = setup_seconds_;
  return t;
}

}  // namespace corank::text
