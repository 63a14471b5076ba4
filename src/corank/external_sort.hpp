#pragma once
// Fixed-size records sorted on the CPU threads (external_sort.cpp): runs
// formed and merged in memory when records and their entries fit the -S
// budget, else spilled to temporary files with a sparse index and merged slab
// by slab. A model of drive_sort (sort_driver.hpp); planner.hpp has the sizes.
#include "corank/checksum.hpp"
#include "corank/io/output_file.hpp"
#include "corank/normalize.hpp"
#include "corank/progress.hpp"
#include "corank/record_input.hpp"
#include "corank/sort_options.hpp"

namespace corank {

struct CpuSortJob {
  const SortOptions& options;
  const RecordFormat& format;  // -r already applied
  const KeyNormalizer& norm;
  RecordInput& input;
  io::OutputFile& output;  // written through its sink, or gathered into in place where it maps (tmpfs)
  SortStats& stats;  // threads and memory_budget set; filled with the rest
  Progress& progress;
  RecordChecksum* input_checksum;  // non-null: sum every record read (--verify)
  std::uint64_t array_budget;      // -S less the I/O buffers and the process's own memory (plan_memory)
};

void sort_on_cpu(const CpuSortJob& job);

}  // namespace corank
