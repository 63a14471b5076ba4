#pragma once
// The samples of spilled text runs (run_merge.hpp: a copy of a record about
// every `stride` bytes, by which the parallel merge cuts key ranges) grow
// with the input, not with the budget: 2 GB of log lines at -S 10M kept
// 85 MB of them. SampleBudget keeps the samples of all runs held within a
// share of the budget: when they outgrow it, every run keeps every other
// sample (its first among them, so that a run with samples keeps some), and
// later runs are sampled at twice the stride. Fewer samples cost the merge a
// longer scan at each cut, never its correctness.
#include <cstdint>
#include <span>
#include <vector>

#include "corank/text/record_writer.hpp"
#include "corank/text/run_merge.hpp"

namespace corank::text {

class SampleBudget {
public:
  SampleBudget(std::uint64_t limit, std::uint64_t stride) : limit_(limit), stride_(stride) {}

  // The stride at which runs are sampled from now on.
  std::uint64_t stride() const noexcept { return stride_; }
  // After each spill and merge: thins the samples of `runs` (every run held)
  // while they take more than the limit.
  void trim(std::span<SpilledRun> runs);

  // Memory that samples take: the vector's slots and each record's own
  // allocation where it has one.
  static std::uint64_t bytes_of(const std::vector<RunSample>& samples) noexcept;

private:
  std::uint64_t limit_;
  std::uint64_t stride_;
};

}  // namespace corank::text
