#pragma once
// The planner: from the input size, the record and key widths and the host
// memory budget, it decides whether the sort runs in memory or spills runs to
// storage, and sizes runs, merge slabs and the sparse run index.
#include <cstdint>
#include <optional>
#include <string>

namespace corank {

struct SortPlan {
  enum class Mode { InMemory, External };
  Mode mode = Mode::External;
  std::uint64_t run_records = 0;   // records per sorted run
  std::uint64_t slab_records = 0;  // target records per merge slab
  std::uint64_t sample_stride = 0; // External: a spilled run keeps every this-many-th key in RAM
  unsigned threads = 1;

  std::string describe() const;
};

// entry_bytes: bytes of one sort entry (normalized key words + position).
SortPlan make_plan(std::optional<std::uint64_t> total_records, std::uint32_t record_size, std::uint32_t entry_bytes,
                   std::uint64_t memory_budget, unsigned threads);

// Half of physical memory: the default for -S.
std::uint64_t default_memory_budget();

}  // namespace corank
