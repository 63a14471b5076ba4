#pragma once
// corank-mpi's algorithm: a sample sort across the ranks of an MPI
// communicator, each rank sorting its part out of core with corank::sort.
//
//   1. shares: rank r reads bytes [total*r/N, total*(r+1)/N) of the
//      concatenated inputs, cut at record starts (line starts; CSV row starts
//      found by composing the ranks' maps of the CSV reader's automaton,
//      partition.hpp's CsvScanner); a CSV header is read by every rank and
//      leads each rank's received data, so that it names the key columns
//      alike and heads the output once;
//   2. splitters: every rank takes a regular sample of its share, the samples
//      are gathered everywhere and cut into N even parts (partition.hpp);
//   3. exchange: the share is read in chunks of min(-S/4, 64 MiB), each
//      chunk's records grouped by destination and sent with MPI_Alltoallv in
//      rounds that bring a rank at most min(-S/4, 128 MiB), so counts and
//      displacements stay ints; a receiver appends what rank s sends to its own file for s, so
//      the files, taken in rank order, hold its part in input order;
//   4. local sort: corank::sort of those files on this rank's GPU or CPU;
//   5. output: each rank's piece lies at its offset (an exclusive prefix sum
//      of the piece sizes) of one temporary file next to the target, renamed
//      onto it when every rank succeeded. Without -u the sizes are known
//      after the exchange (what each rank received), so the file is made
//      before step 4 and each local sort writes into its region of it
//      (io::IoOptions::output_region); under -u each piece is sorted into a
//      scratch file and copied into place. Or each rank's piece becomes
//      OUT.part-NNNNN.
// At the end of every phase the ranks agree whether one failed; if so every
// rank removes its temporaries, rank 0 receives the failing rank's message to
// give and all exit with status 2. No partial output reaches the target name.
#include <mpi.h>

#include <string>

#include "corank/sort.hpp"

namespace corank::mpi {

struct DistributedRequest {
  SortRequest sort;         // sort.output: the target file (not "-")
  bool part_files = false;  // OUT.part-NNNNN, one per rank, instead of one file
  std::string stats_file;   // --stats: "" none, "-" into *stats_text (rank 0's), for the caller to print
  std::string* stats_text = nullptr;
  // sort.io.diagnostics: rank 0's -v summary (the ranks' own sorts stay quiet).
};

// Collective over comm. Returns the exit status for every rank: 0, or 2 after
// a failure, whose one-line message (the failing rank's, "rank N: " before it
// when N > 0) rank 0 receives in *error.
int distributed_sort(MPI_Comm comm, const DistributedRequest& request, std::string* error);

}  // namespace corank::mpi
