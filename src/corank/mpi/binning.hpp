#pragma once
// A chunk's records grouped by the rank each goes to: part d of the grouped
// bytes is [region(d), region(d) + size(d)), the records of part d in input
// order, each text record followed by its terminator again. Each thread takes
// a run of the chunk's records: first their parts (a search among the
// splitters, the costly step), then, once the runs' byte counts have placed
// them, their copies into the parts' regions. The runs keep their order
// within a region, so the result is what one thread would have made.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "corank/mpi/partition.hpp"
#include "corank/mpi/share_reader.hpp"

namespace corank::mpi {

class Binning {
public:
  // parts: the ranks; term: the terminator a text record gets back, none
  // for fixed-size records (record_size > 0).
  Binning(unsigned parts, unsigned threads, std::uint32_t record_size, char term);

  // Sets each record's part and places the parts. Fixed-size records may
  // come as one block instead (bytes at `position` of the inputs): they are
  // listed into `records` here, by the threads. Throws InputError when the
  // grouped chunk would exceed kMaxRoundBytes.
  void find_parts(std::vector<ShareRecord>& records, const Partitioner& partitioner);
  void find_parts(std::vector<ShareRecord>& records, const Partitioner& partitioner, const char* block,
                  std::uint64_t bytes, std::uint64_t position);
  // Copies the records into their parts' regions, those of part `self` to
  // `kept` instead where it is not null (room for size(self) bytes).
  void group(const std::vector<ShareRecord>& records, unsigned self, std::byte* kept);

  std::uint64_t region(unsigned d) const { return region_[d]; }
  std::uint64_t size(unsigned d) const { return size_[d]; }
  std::uint64_t bytes() const { return grouped_.size(); }
  const char* grouped() const { return grouped_.data(); }
  // Frees the grouped bytes.
  void release();

private:
  std::pair<std::size_t, std::size_t> slice(std::size_t records, unsigned t) const;

  unsigned parts_, threads_;
  std::uint32_t record_size_;
  char term_;
  std::uint32_t extra_;  // terminator bytes a record gets back
  unsigned slices_ = 1;
  std::vector<std::vector<std::uint64_t>> slice_bytes_;  // [slice][part]: bytes, then where the slice's start
  std::vector<std::uint64_t> region_, size_;
  std::vector<char> grouped_;
};

}  // namespace corank::mpi
