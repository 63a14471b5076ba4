#pragma once
// A chunk's records grouped by the rank each goes to: part d of the grouped
// bytes is [region(d), region(d) + size(d)), the records of part d in input
// order, each text record followed by its terminator again. Each thread takes
// a run of the chunk's records: first their parts (a search among the
// splitters, the costly step), then, once the runs' byte counts have placed
// them, their copies into the parts' regions. The runs keep their order
// within a region, so the result is what one thread would have made.
//
// Text records come listed by the share's reader; fixed-size records come as
// one block of whole records, and only their parts are listed (a 4-byte
// part a record, where a listing would take 32 bytes to write and read back).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "corank/io/huge_vector.hpp"
#include "corank/mpi/part_finder.hpp"
#include "corank/mpi/partition.hpp"
#include "corank/mpi/share_reader.hpp"
#include "corank/thread_counters.hpp"

namespace corank::mpi {

class Binning {
public:
  // parts: the ranks; term: the terminator a text record gets back, none
  // for fixed-size records (record_size > 0).
  Binning(unsigned parts, unsigned threads, std::uint32_t record_size, char term);

  // Sets each text record's part and places the parts (record_size 0);
  // `records` must live until group(). Either find_parts throws InputError
  // when the grouped chunk would exceed kMaxRoundBytes.
  void find_parts(std::vector<ShareRecord>& records, const Partitioner& partitioner);
  // The same for a block of fixed-size records, `bytes` at `position` of the
  // inputs (none: bytes 0), their keys against the splitters normalized once
  // (part_finder.hpp); the block must live until group().
  void find_parts(const char* block, std::uint64_t bytes, std::uint64_t position, const PartFinder& finder);
  // Copies the records of the last find_parts into their parts' regions,
  // those of part `self` to `kept` instead where it is not null (room for
  // size(self) bytes).
  void group(unsigned self, std::byte* kept);

  std::uint64_t region(unsigned d) const { return region_[d]; }
  std::uint64_t size(unsigned d) const { return size_[d]; }
  std::uint64_t bytes() const { return grouped_.size(); }
  const char* grouped() const { return grouped_.data(); }
  // Frees the grouped bytes.
  void release();

private:
  std::pair<std::size_t, std::size_t> slice(std::size_t records, unsigned t) const;
  void split_into_slices(std::size_t records);
  // Places the parts once every slice has counted its bytes of each.
  void place_parts();

  unsigned parts_, threads_;
  std::uint32_t record_size_;
  char term_;
  std::uint32_t extra_;  // terminator bytes a record gets back
  unsigned slices_ = 1;
  std::vector<ThreadCounters> slice_bytes_;  // [slice][part]: bytes, then where the slice's start
  std::vector<std::uint64_t> region_, size_;
  io::HugeVector<char> grouped_;
  // What the last find_parts was given: text records, or a block of
  // fixed-size records and their parts.
  const std::vector<ShareRecord>* records_ = nullptr;
  const char* block_ = nullptr;
  std::size_t block_records_ = 0;
  io::HugeVector<std::uint32_t> block_parts_;
};

}  // namespace corank::mpi
