#pragma once
// corank-mpi's algorithm: a sample sort across the ranks of an MPI
// communicator, each rank sorting its part out of core with corank::sort.
// The stages, in order, each in a file of its own:
//   job.hpp         the request checked as each rank's sort runs it; the inputs
//                   opened; a CSV header read by every rank (it leads each
//                   rank's received data, so that it names the key columns
//                   alike, and heads the output once)
//   share_cut.hpp   rank r reads bytes [total*r/N, total*(r+1)/N) of the
//                   concatenated inputs, cut at record starts (CSV row starts
//                   through the reader's automaton, csv_scanner.hpp)
//   sampling.hpp    every rank samples its share; the samples are gathered and
//                   cut into N even parts (partition.hpp)
//   exchange.hpp    the share read in chunks (share_reader.hpp), binned by
//                   destination (binning.hpp) and sent in all-to-all rounds;
//                   what arrives kept in input order (received_pieces.hpp)
//   whole_input.hpp one rank: its inputs sorted where they lie, in place of
//                   sampling and the exchange, where they are in memory
//   one_sort.hpp    ranks of one node sharing one GPU, or sorting on cores
//                   they share: rank 0 sorts the inputs where they lie, for
//                   all of them
//   node_inputs.hpp ranks of one node: each sorts its part of the inputs
//                   where they lie, in place of the exchange, where they
//                   are in memory
//   local_sort.hpp  corank::sort of what arrived, on this rank's GPU or CPU,
//                   straight into the rank's region of the output where its
//                   size is known beforehand
//   output.hpp      each piece at its offset of one temporary file beside the
//                   target, renamed onto it when every rank succeeded; or
//                   OUT.part-NNNNN, one per rank
//   boundary_check.hpp (--verify) and rank_report.hpp (--stats, -v)
// At the end of every phase the ranks agree whether one failed
// (agreement.hpp); if so every rank removes its temporaries, rank 0 receives
// the failing rank's message to give and all exit with status 2. No partial
// output reaches the target name.
#include <mpi.h>

#include <string>

#include "corank/sort.hpp"

namespace corank::mpi {

struct DistributedRequest {
  SortRequest sort;         // sort.output: the target file (not "-")
  bool part_files = false;  // OUT.part-NNNNN, one per rank, instead of one file
  // --exchange: how ranks of one node whose fixed-size records lie in its
  // memory come by them. Auto: rank 0 sorts every record where the ranks
  // gain nothing by splitting the sort (one_sort.hpp), else each rank takes
  // its part where it lies (node_inputs.hpp); Parts: each its part, always;
  // Always: records move through MPI, as between nodes.
  enum class Exchange { Auto, Parts, Always };
  Exchange exchange = Exchange::Auto;
  // The GPU this rank drives (its name among the node's devices), "" for
  // none or not known: ranks of one node that all name the same one, or all
  // none, may leave their sort to rank 0 (one_sort.hpp).
  std::string device;
  std::string stats_file;   // --stats: "" none, "-" into *stats_text (rank 0's), for the caller to print
  std::string* stats_text = nullptr;
  // Rank 0's, where not null: the records the ranks' sorts read and their
  // counts of key values that did not read or were NULL, summed over the
  // ranks (records_in and key_values), for corank's line about them
  // (cli/unread_keys.hpp).
  SortStats* totals = nullptr;
  // sort.io.diagnostics: rank 0's -v summary (the ranks' own sorts stay quiet).
};

// Collective over comm. Returns the exit status for every rank: 0, or 2 after
// a failure, whose one-line message (the failing rank's, "rank N: " before it
// when N > 0) rank 0 receives in *error.
int distributed_sort(MPI_Comm comm, const DistributedRequest& request, std::string* error);
// The same over any communicator (the unit tests' ranks as threads).
class Communicator;
int distributed_sort(Communicator& comm, const DistributedRequest& request, std::string* error);

}  // namespace corank::mpi
