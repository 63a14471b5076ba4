#include "corank/text/sample_budget.hpp"

#include <string>
#include <utility>

namespace corank::text {

namespace {

// Keeps samples 0, 2, 4, ...: those a stride twice as long would have taken
// about, and the run's first.
void keep_every_other(std::vector<RunSample>& samples) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < samples.size(); i += 2) samples[kept++] = std::move(samples[i]);
  samples.resize(kept);
  samples.shrink_to_fit();
}

}  // namespace

std::uint64_t SampleBudget::bytes_of(const std::vector<RunSample>& samples) noexcept {
  // A string longer than its inline buffer holds a heap block of its
  // capacity, the terminator and malloc's header, rounded to 16 bytes.
  static const std::size_t kInline = std::string().capacity();
  std::uint64_t bytes = samples.capacity() * sizeof(RunSample);
  for (const RunSample& s : samples)
    if (s.record.capacity() > kInline) bytes += (s.record.capacity() + 1 + 8 + 15) / 16 * 16;
  return bytes;
}

void SampleBudget::trim(std::span<SpilledRun> runs) {
  std::uint64_t total = 0;
  for (const SpilledRun& r : runs) total += bytes_of(r.samples);
  while (total > limit_) {
    bool thinned = false;
    total = 0;
    for (SpilledRun& r : runs) {
      thinned |= r.samples.size() >= 2;
      keep_every_other(r.samples);
      total += bytes_of(r.samples);
    }
    if (!thinned) break;  // a sample a run at most: the least a parallel merge needs
    stride_ *= 2;
  }
}

}  // namespace corank::text
