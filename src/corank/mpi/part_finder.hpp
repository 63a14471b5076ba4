#pragma once
// The part of a fixed-size record, as Partitioner::part_of finds it, at the
// cost of one key normalization: the splitters' keys are normalized once,
// here, and a record's key once per record, then compared word by word
// (BinaryOrder::compare normalizes both keys at every comparison). For the
// passes that test every record of the inputs (node_inputs.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "corank/mpi/partition.hpp"

namespace corank::mpi {

class PartFinder {
public:
  // The order and the partitioner, its splitters chosen, must outlive this.
  PartFinder(const BinaryOrder& order, const Partitioner& partitioner);

  // The part of the record at `record` (its position: its byte offset in
  // the concatenated inputs).
  unsigned part_of(const std::byte* record, std::uint64_t position) const noexcept;
  unsigned parts() const noexcept { return static_cast<unsigned>(positions_.size()) + 1; }

private:
  // Whether the record (its key's words at `key`) comes before splitter s.
  bool precedes(const std::uint64_t* key, std::uint64_t position, std::size_t s) const noexcept;

  const KeyNormalizer& keys_;
  bool reverse_, by_position_;
  std::uint32_t words_;
  std::vector<std::uint64_t> splitter_words_;  // splitter s's at [s * words_, (s + 1) * words_)
  std::vector<std::uint64_t> positions_;
};

}  // namespace corank::mpi
