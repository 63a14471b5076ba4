#pragma once
// One byte per record of the inputs, in memory that every rank of a node
// maps: where ranks of one node each sort their part of the inputs where
// they lie (node_inputs.hpp), each rank writes the part of every record of
// its own share here, once, and every rank then reads its records' marks
// instead of testing every key of the inputs against the splitters again.
//
// A file in /dev/shm, made by rank 0 and named with its job mark
// (cleanup.hpp), opened and mapped by the others, and removed as soon as
// every rank has mapped it: no kill but one in that moment leaves it, and
// the next corank-mpi on the host sweeps what such a kill left. Where there
// is no /dev/shm, or too little room in it, or a rank cannot map it, there
// are no marks, and the ranks test the keys themselves.
#include <cstdint>
#include <memory>

#include "corank/mpi/communicator.hpp"

namespace corank::mpi {

class NodeMarks {
public:
  // Collective. Room for `records` marks on every rank, or nullptr on every rank.
  static std::unique_ptr<NodeMarks> share(Communicator& c, std::uint64_t records);
  ~NodeMarks();
  NodeMarks(const NodeMarks&) = delete;
  NodeMarks& operator=(const NodeMarks&) = delete;

  std::uint8_t* data() const noexcept { return data_; }

private:
  NodeMarks(std::uint8_t* data, std::uint64_t bytes) : data_(data), bytes_(bytes) {}
  std::uint8_t* data_;
  std::uint64_t bytes_;
};

}  // namespace corank::mpi
