#pragma once
// Ranks of one node that would all drive the same GPU (more ranks than the
// node has devices: local rank mod device count, main.cpp) gain nothing by
// splitting the sort between them: the one device sorts every part in turn,
// and each rank pays to pick its part out of the inputs first (every rank
// touches every page; node_inputs.hpp measured 1.3-1.4x the single process
// for two ranks on one GPU). Where the inputs are fixed-size records in the
// node's memory, rank 0 instead sorts them all where they lie, as corank
// does (whole_input.hpp), on the cores it may run on and with the node's
// memory where --parallel and -S do not say otherwise; the other ranks sort
// nothing and hold empty parts of the output. Ranks with devices of their
// own (one a GPU), ranks on several nodes, text and --exchange=always go the
// ways they went.
#include <memory>
#include <string>
#include <vector>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/whole_input.hpp"

namespace corank::mpi {

// Whether ranks naming these devices (one name a rank, in rank order; ""
// for a rank that drives none) all drive the same one.
bool one_device(const std::vector<std::string>& devices);

// Collective: whether every rank of `c` is on one node, sorts fixed-size
// records without --exchange=always, and drives `device`, the same on every
// rank and not "".
bool ranks_share_one_device(Communicator& c, const Job& job, const std::string& device);

// Rank 0's share of the node where it sorts for every rank: the cores it may
// run on and half the node's memory, where --parallel and -S were not given.
void take_node(Job& job);

// Collective, once ranks_share_one_device said so: rank 0 takes the node
// (take_node) and maps the inputs into `whole` (WholeInput::map_if_resident).
// True on every rank where it did: rank 0 sorts every record; false on every
// rank where it could not (an input not in memory, or over half of -S), rank
// 0's share then as it was.
bool map_for_one_sort(Communicator& c, Job& job, std::unique_ptr<WholeInput>& whole);

}  // namespace corank::mpi
