#pragma once
// --stats and --verbose on rank 0: totals, each rank's part and times, and
// the partition skew (largest part over the mean, in bytes received).
#include <cstdint>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/exchange.hpp"
#include "corank/mpi/job.hpp"
#include "corank/sort_options.hpp"

namespace corank::mpi {

struct RankTimes {
  double setup = 0, sample = 0, exchange = 0, sort = 0, write = 0, total = 0;
  ExchangeTimes exchange_parts;
};

// What one rank did.
struct RankReport {
  std::uint64_t bytes_received = 0;
  bool received_in_memory = false;  // sorted where they lie, not written to -T first
  bool whole_input = false;         // one rank: its inputs sorted where they lie, no exchange (whole_input.hpp)
  bool node_inputs = false;         // ranks of one node: its part sorted where it lies, no exchange (node_inputs.hpp)
  bool one_sort = false;            // the node's ranks left the sort to rank 0, which sorted every record (one_sort.hpp)
  bool in_place = false;            // sorted straight into the shared output, not into a file then moved
  bool keys_from_exchange = false;  // its sort took the keys made as the records arrived (arriving_keys.hpp)
  // Its sort took the records sent to its GPU as they arrived (arriving_records.hpp).
  bool device_from_exchange = false;
  std::uint64_t bytes_out = 0, output_offset = 0;
  SortStats stats;  // its own sort's
  RankTimes times;
};

// Collective, failures agreed: rank 0 gathers every rank's report and writes
// the document to --stats (or Job::request.stats_text) and -v's summary line,
// and sums the ranks' counts of unread key values into Job::request.totals.
// Each rank's entry says how it shares its node (node_share.hpp).
void report(Communicator& c, const Job& job, const RankReport& mine);

// -v, on rank 0 before the sort: how the ranks of its node share its cores
// and memory, or what --parallel and -S gave each.
std::string node_share_note(const Job& job);

}  // namespace corank::mpi
