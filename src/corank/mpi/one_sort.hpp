#pragma once
// Ranks of one node that gain nothing by splitting the sort between them
// leave it to rank 0, which sorts every record where the inputs lie, as
// corank does (whole_input.hpp), on the cores it may run on and with the
// node's memory where --parallel and -S do not say otherwise; the other ranks
// sort nothing and hold empty parts of the output. So they do
// - where they would all drive the same GPU (more ranks than the node has
//   devices: local rank mod device count, launch_environment.hpp): the one
//   device would sort every part in turn, after each rank paid to pick its
//   part out of the inputs (every rank touches every page; node_inputs.hpp
//   measured 1.3-1.4x the single process for two ranks on one GPU);
// - where they all sort on the CPU and may all run on the same cores (mpirun
//   --bind-to none, or a node with more ranks than cores): one sort on those
//   cores is the single process's, while parts cost a pass that marks each
//   record's part and sorts that read their records out of the whole inputs
//   (1.02-1.22x the single process for two ranks on 16 cores).
// Fixed-size records in the node's memory, at most half of rank 0's -S, and
// --exchange=auto. Ranks with GPUs or cores of their own, ranks on several
// nodes, text, --exchange=parts and --exchange=always go the ways they went.
#include <memory>
#include <string>
#include <vector>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/whole_input.hpp"

namespace corank::mpi {

// Why ranks leave their sort to rank 0: they do not, they share one GPU, or
// they sort on cores they all share.
enum class OneSort { None, OneDevice, SharedCores };

// Of ranks naming these devices (one name a rank, in rank order; "" for a
// rank that drives none) and whether they all may run on the same cores,
// why they would leave their sort to rank 0.
OneSort one_sort_of(const std::vector<std::string>& devices, bool same_cores);

// Collective: why the ranks of `c`, this one driving `device`, leave their
// sort to rank 0 (None where some rank is on another node, the records are
// text, or --exchange is not auto). The same answer on every rank.
OneSort ranks_leave_sort_to_rank_zero(Communicator& c, const Job& job, const std::string& device);

// Rank 0's share of the node where it sorts for every rank: the cores it may
// run on and half the node's memory, where --parallel and -S were not given.
void take_node(Job& job);

// Collective, once ranks_leave_sort_to_rank_zero said so: rank 0 takes the
// node (take_node) and maps the inputs into `whole`
// (WholeInput::map_if_resident). True on every rank where it did: rank 0
// sorts every record; false on every rank where it could not (an input not in
// memory, or over half of -S), rank 0's share then as it was.
bool map_for_one_sort(Communicator& c, Job& job, std::unique_ptr<WholeInput>& whole);

}  // namespace corank::mpi
