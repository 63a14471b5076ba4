#pragma once
// What every stage of the distributed sort reads: the request checked and
// completed as each rank's own sort runs it, the inputs and the record
// format, the order the splitters compare by, this rank's share, and the
// sizes the exchange reads and sends in. Built by every rank alike from the
// same command line (the share aside).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "corank/mpi/distributed_sort.hpp"
#include "corank/mpi/inputs.hpp"
#include "corank/mpi/node_share.hpp"
#include "corank/mpi/partition.hpp"
#include "corank/mpi/scratch.hpp"
#include "corank/mpi/share_cut.hpp"
#include "corank/mpi/share_reader.hpp"

namespace corank::mpi {

struct Job {
  // Checks the request (throws UsageError for what is not distributed) and
  // completes it for this rank: threads and -S, where not given, its share
  // of its node's (node_share.hpp).
  Job(const DistributedRequest& request, unsigned rank, const NodeShare& node);
  // Opens the inputs: on rank 0 as they are (its sizes are the snapshot the
  // others get), elsewhere held to `snapshot` (inputs.hpp). Reads a CSV
  // header (and checks every later input's against it), sets the record format and order, cuts this rank's share (but a
  // CSV one: cut_csv_share) and opens the rank's scratch space. Removes what
  // dead corank-mpi processes of this host left beside the target and in -T
  // (cleanup.hpp).
  void open(const std::vector<std::uint64_t>* snapshot, unsigned rank, unsigned ranks);

  const DistributedRequest& request;
  SortRequest local;     // what this rank's sort runs: quiet, progress on rank 0 alone, threads and -S set
  bool verify = false;   // --verify (the boundaries between the ranks' pieces)
  NodeShare node;        // this rank's share of its node
  bool threads_given = false, memory_given = false;  // --parallel, -S: as given, not the node's share
  std::unique_ptr<Inputs> inputs;
  std::uint32_t record_size = 0;  // 0: text
  char term = '\n';
  const text::TextFormat* text_format = nullptr;  // text: the format order compares by
  bool csv = false;                                // CSV or TSV: rows may hold quoted newlines
  bool escaped_newlines = false;                   // pgtext: a newline after an odd run of backslashes is data
  char delimiter = ',';
  std::string header;  // CSV --header: the header row with its newline; "" without
  std::optional<std::uint64_t> fields;  // rows of fields: how many every row has (TextReading::fields)
  std::string fields_from;              // and whose count that is
  std::unique_ptr<RecordOrder> order;
  std::unique_ptr<Partitioner> partitioner;
  Share share;
  std::uint64_t chunk_bytes = 0;  // the share is read and binned this much at a time
  std::uint64_t round_quota = 0;  // the most bytes sent to one rank in one exchange round
  std::unique_ptr<ScratchSpace> scratch;

  bool text() const { return record_size == 0; }
  // Whether rows end where the format says rather than at every terminator.
  bool rows_by_format() const { return csv || escaped_newlines; }
  TextReading reading(bool check) const;
};

}  // namespace corank::mpi
