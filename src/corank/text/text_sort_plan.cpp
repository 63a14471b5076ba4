#include "corank/text/text_sort_plan.hpp"

#include <algorithm>

#include "corank/machine_share.hpp"

namespace corank::text {

TextSortPlan plan_text_sort(const TextSortOptions& o) {
  const std::uint64_t budget = o.memory_budget ? o.memory_budget : default_memory_budget();
  const unsigned threads = o.threads ? o.threads : machine_share().cpus;
  // The read-ahead, the output's or a run's write-behind and a merge's
  // output hold engine buffers besides the chunks.
  return corank::plan_text_sort(budget, threads, plan_memory(io_within_descriptors(o.io), budget, 3), o.batch_size,
                                o.io.compressed_runs());
}

}  // namespace corank::text
