#include "corank/text/key_value_tally.hpp"

#include <algorithm>

#include "corank/parallel.hpp"
#include "corank/thread_counters.hpp"

namespace corank::text {

void KeyValueTally::add(const TextFormat& format, const Chunk& chunk, unsigned threads) {
  if (!started_) {
    counts_ = format.value_checks();
    started_ = true;
  }
  if (counts_.empty() || chunk.records.empty()) return;
  const std::uint64_t n = chunk.records.size();
  const unsigned parts = static_cast<unsigned>(std::clamp<std::uint64_t>(n / 4096, 1, std::max(threads, 1u)));
  std::vector<ThreadCounters> sums(parts, ThreadCounters(2 * counts_.size()));
  parallel_for(parts, [&](unsigned p) {
    std::uint64_t* c = sums[p].data();
    for (std::uint64_t i = n * p / parts; i < n * (p + 1) / parts; ++i) {
      const RecordEntry& e = chunk.records[i];
      format.count_values(chunk.record(e), e.prefix, c);
    }
  });
  for (const ThreadCounters& s : sums)
    for (std::size_t k = 0; k < counts_.size(); ++k) {
      counts_[k].unread += s[2 * k];
      counts_[k].nulls += s[2 * k + 1];
    }
}

}  // namespace corank::text
