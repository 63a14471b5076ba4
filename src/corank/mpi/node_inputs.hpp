#pragma once
// Ranks that share one node and inputs already in its memory (a memory file
// system, the page cache) need not send each other records: every rank maps
// every input, and its sort takes the records of its part where they lie
// (RecordSelection, record_selection.hpp), in input order, as the exchange
// would have delivered them. No record is binned, sent, received or kept;
// what a rank's part costs beyond corank's own sort is a test of the keys of
// its share against the splitters (part_finder.hpp), and reading its
// records out of the whole inputs. This is how ranks that each drive one GPU of a node
// sort the node's files, and what keeps N ranks on one node at one
// process's cost.
//
// Stages, after the splitters are chosen: map_if_shared (collective: every
// rank maps, and all take this way or none; the ranks share one mark a
// record, node_marks.hpp), count_parts (each rank finds the part of every
// record of its own share, marks it and counts it; the counts are summed
// over the ranks, so each rank knows its part's size, and so its place in
// the output, before it sorts), piece: the records of the rank's part, by
// their marks. Fixed-size records only; text, inputs read from a disk,
// ranks on several nodes and --exchange=always take the exchange.
#include <cstdint>
#include <memory>
#include <vector>

#include "corank/io/mapped_input.hpp"
#include "corank/mpi/communicator.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/local_sort.hpp"
#include "corank/mpi/node_marks.hpp"
#include "corank/record_selection.hpp"

namespace corank::mpi {

class NodeInputs {
public:
  // Collective. The mapped inputs where every rank is on one node and mapped
  // every input; nullptr on every rank otherwise.
  static std::unique_ptr<NodeInputs> map_if_shared(Communicator& c, const Job& job);

  // Collective, once job.partitioner has its splitters: sizes this rank's
  // part. Failures agreed.
  void count_parts(Communicator& c, const Job& job);

  // The rank's part of the mapped inputs for its sort (buffers and the
  // selection); release() unmaps them.
  PieceInput piece();
  // The bytes of this rank's share (what the exchange would have read).
  std::uint64_t share_bytes() const noexcept { return share_bytes_; }

  ~NodeInputs();

private:
  NodeInputs() = default;

  std::vector<std::unique_ptr<io::MappedInput>> maps_;
  std::vector<std::uint64_t> begins_;  // map i's byte offset in the inputs
  std::uint32_t record_size_ = 0;
  std::uint64_t share_bytes_ = 0;
  std::unique_ptr<NodeMarks> marks_;  // each record's part, where the ranks share them
  std::unique_ptr<RecordSelection> part_;
};

}  // namespace corank::mpi
