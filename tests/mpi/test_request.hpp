#pragma once
// Requests of one test's scratch directory (test_files.hpp): sorts on the
// CPU whose temporary files go to DIR/tmp and whose output is compared, not
// kept (not fsynced).
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "corank/mpi/distributed_sort.hpp"
#include "test_files.hpp"

namespace corank::mpi::testing {

inline SortRequest scratch_sort(const TestDir& dir, std::vector<std::string> inputs, unsigned threads,
                                std::uint64_t memory_budget) {
  SortRequest r;
  r.inputs = std::move(inputs);
  r.gpu = GpuMode::Off;
  r.threads = threads;
  r.memory_budget = memory_budget;
  r.io.sync_output = false;
  std::filesystem::create_directories(dir / "tmp");
  r.temp_dirs = {dir / "tmp"};
  return r;
}

// DIR/in sorted as `format` into DIR/out.
inline DistributedRequest scratch_job(const TestDir& dir, const std::string& format, unsigned threads,
                                      std::uint64_t memory_budget) {
  DistributedRequest d;
  d.sort = scratch_sort(dir, {dir / "in"}, threads, memory_budget);
  d.sort.format = format;
  d.sort.output = dir / "out";
  return d;
}

}  // namespace corank::mpi::testing
