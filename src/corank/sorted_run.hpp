#pragma once
// A sorted run of fixed-size records between run formation and the merge:
// in host memory, or in an anonymous temporary file when the -S budget is
// spent (uncompressed, so that a slab reads any range of it). Written once by
// disjoint ranges, read by ranges; both spread over a worker pool.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "corank/io/huge_vector.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/worker_pool.hpp"

namespace corank {

class SortedRun {
public:
  // count records of record_size bytes; base: records in all earlier runs, so
  // that record i's merge position is base + i. temps is used only to spill.
  SortedRun(std::uint64_t count, std::uint64_t base, std::uint32_t record_size, bool in_memory,
            io::TempDirectories& temps);

  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t base() const noexcept { return base_; }
  bool spilled() const noexcept { return file_.valid(); }
  std::uint64_t bytes() const noexcept { return count_ * R_; }
  // Host memory the run holds (0 when spilled).
  std::uint64_t allocated_bytes() const noexcept { return memory_ ? allocated_ : 0; }
  // The run ends after its first `count` records (a -u merge kept fewer).
  void truncate(std::uint64_t count) noexcept { count_ = std::min(count_, count); }

  // Stores records [first, first + n) from src.
  void write(std::uint64_t first, const std::byte* src, std::uint64_t n, io::WorkerPool& pool);
  // Copies records [first, first + n) to dst.
  void read(std::uint64_t first, std::uint64_t n, std::byte* dst, io::WorkerPool& pool) const;
  // Records [first, first + n) for the calling thread: a pointer into the run
  // in memory, or `buf` filled from the file.
  const std::byte* peek(std::uint64_t first, std::uint64_t n, std::vector<std::byte>& buf) const;

private:
  std::uint64_t count_, base_, allocated_;
  std::uint32_t R_;
  io::HugeVector<std::byte> memory_;
  io::FileDesc file_;
};

}  // namespace corank
