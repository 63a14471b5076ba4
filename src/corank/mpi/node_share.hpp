#pragma once
// How the ranks of one node share its cores and memory by default: ranks
// that mpirun left unbound (or bound to the same cores) split those cores
// between them, and every rank of the node takes an even part of half its
// memory as -S (corank's default for one process). --parallel and -S, given,
// apply to each rank as they are. The node's ranks are found by
// MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) (Communicator::gather_on_node);
// a rank's cores are its affinity mask, so a rank that mpirun bound to one
// core sorts on one thread, and at most its control group's CPU quota.
#include <sched.h>

#include <cstdint>
#include <vector>

#include "corank/mpi/communicator.hpp"

namespace corank::mpi {

struct NodeShare {
  unsigned node_ranks = 1;     // ranks on this rank's node, itself included
  unsigned cores = 1;          // the cores this rank may run on, within the CPU quota
  unsigned node_cores = 1;     // the node's (online) cores
  unsigned sharing = 1;        // ranks of the node that may run on some of them, itself included
  unsigned threads = 1;        // cores / sharing, at least 1
  bool same_cores = true;      // every rank of the node may run on exactly this rank's cores
  std::uint64_t memory = 0;    // node_memory() / 2 / node_ranks
};

// From this rank's affinity mask, every mask of the node's ranks (this one's
// among them), the node's cores, the memory the ranks may use (node_memory)
// and the cores of its control group's CPU quota (0: none), which the ranks
// in the group share as they share their masks' cores.
NodeShare share_node(const cpu_set_t& mine, const std::vector<cpu_set_t>& node, unsigned node_cores,
                     std::uint64_t memory, unsigned quota_cores = 0);

// Collective: this rank's share of its node.
NodeShare node_share(Communicator& c);

// The node's physical memory, within this process's control group's limit
// (machine_share.hpp).
std::uint64_t node_memory();

}  // namespace corank::mpi
