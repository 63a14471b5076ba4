#include "corank/mpi/distributed_sort.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "corank/io/diagnostics.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/mpi/agreement.hpp"
#include "corank/mpi/boundary_check.hpp"
#include "corank/mpi/communicator.hpp"
#include "corank/mpi/exchange.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/local_sort.hpp"
#include "corank/mpi/node_inputs.hpp"
#include "corank/mpi/one_sort.hpp"
#include "corank/mpi/output.hpp"
#include "corank/mpi/part_files.hpp"
#include "corank/mpi/rank_report.hpp"
#include "corank/mpi/sampling.hpp"
#include "corank/mpi/share_cut.hpp"
#include "corank/mpi/whole_input.hpp"

namespace corank::mpi {

namespace {

using Clock = std::chrono::steady_clock;

// Seconds since t, and t moved on to now.
double lap(Clock::time_point& t) {
  const auto now = Clock::now();
  const double s = std::chrono::duration<double>(now - t).count();
  t = now;
  return s;
}

// Moves a piece sorted into a file of its own (under -u) to its place in the
// shared output: rank 0's becomes the output where the file systems allow it.
void move_into_shared(Communicator& c, const Job& job, const SortedPiece& piece, ScratchFile& file,
                      const Placement& place, SharedOutput& shared) {
  shared.create(c, job.request.sort.output, place.total, c.rank() == 0 ? &file : nullptr);
  phase(c, [&] {
    if (place.bytes == 0 || shared.linked()) return;
    io::FileDesc out = io::FileDesc::open(shared.name(), O_WRONLY);
    copy_into(piece.file, out.get(), job.request.sort.output, place.offset, job.local.threads);
    if (job.local.io.sync_output && ::fsync(out.get()) != 0)
      throw io::IoError("fsync failed", job.request.sort.output, errno);
  });
}

void run(Communicator& c, const DistributedRequest& request) {
  const auto start = Clock::now();
  auto t = start;
  RankReport report_of_rank;
  RankTimes& times = report_of_rank.times;
  const unsigned rank = static_cast<unsigned>(c.rank());
  // Collectives stay outside the phases' local work: a rank that fails
  // early must not leave the others waiting in one.
  const NodeShare node = node_share(c);
  // One snapshot of the inputs: rank 0's sizes, which every rank reads to.
  std::unique_ptr<Job> job;
  std::string snapshot;
  phase(c, [&] {
    job = std::make_unique<Job>(request, rank, node);
    if (rank != 0) return;
    job->open(nullptr, rank, c.ranks());
    for (std::uint64_t size : job->inputs->sizes()) put_u64(snapshot, size);
  });
  if (rank == 0 && job->local.verbose && request.sort.io.diagnostics)
    request.sort.io.diagnostics->note(node_share_note(*job));
  c.broadcast(snapshot, 0);
  phase(c, [&] {
    if (rank == 0) return;
    std::vector<std::uint64_t> sizes;
    for (const char* p = snapshot.data(); p < snapshot.data() + snapshot.size();) sizes.push_back(get_u64(p));
    job->open(&sizes, rank, c.ranks());
  });
  if (job->csv) job->share = cut_csv_share(c, *job->inputs, job->delimiter);
  times.setup = lap(t);

  // One rank whose inputs are in memory sorts them where they lie: nothing
  // to sample, nothing to exchange (whole_input.hpp).
  std::unique_ptr<WholeInput> whole;
  std::unique_ptr<NodeInputs> node_inputs;
  // Ranks that share one GPU, or sort on cores they share: rank 0 sorts the
  // node's inputs where they lie and the others sort nothing (one_sort.hpp).
  bool one_sort = false;
  OneSort why_one = OneSort::None;
  if (c.ranks() == 1) {
    phase(c, [&] { whole = WholeInput::map_if_resident(*job); });
  } else if ((why_one = ranks_leave_sort_to_rank_zero(c, *job, request.device)) != OneSort::None) {
    one_sort = map_for_one_sort(c, *job, whole);
  }
  if (c.ranks() > 1 && !one_sort) node_inputs = NodeInputs::map_if_shared(c, *job);
  Exchanged exchanged;
  PieceInput input;
  const auto say = [&](const char* line) {
    if (job->local.verbose && request.sort.io.diagnostics) request.sort.io.diagnostics->note(line);
  };
  if (whole || one_sort) {
    if (whole) input = whole->piece();  // the others' parts stay empty
    exchanged.read_bytes = input.bytes;
    if (one_sort)
      say(io::format_line("ranks of one node %s: rank 0 sorts every record where it lies, on %u thread(s) with "
                          "-S %.2f GiB; the others sort nothing",
                          why_one == OneSort::OneDevice ? "share one GPU" : "sort on the same cores",
                          job->local.threads, static_cast<double>(job->local.memory_budget) / (1 << 30))
              .c_str());
    else
      say("one rank: its inputs are sorted where they lie, without an exchange");
  } else {
    choose_splitters(c, *job);
    times.sample = lap(t);
    if (node_inputs) {
      node_inputs->count_parts(c, *job);
      input = node_inputs->piece();
      exchanged.read_bytes = node_inputs->share_bytes();
      say("ranks of one node: each sorts its part of the inputs where they lie, without an exchange");
    } else {
      exchanged = exchange(c, *job, times.exchange_parts);
      input = exchanged.piece();
    }
    times.exchange = lap(t);
  }

  SharedOutput shared;
  std::unique_ptr<PartFile> part;  // --part-files: this rank's
  ScratchFile sorted;              // -u: the piece before it is moved into place
  Placement place;
  SortedPiece piece;
  const bool in_place = sorts_in_place(*job);
  const bool idle = one_sort && rank != 0;  // rank 0 sorts for it
  report_of_rank.bytes_received = input.bytes;
  report_of_rank.received_in_memory = input.files.empty();
  report_of_rank.whole_input = whole != nullptr;
  report_of_rank.one_sort = one_sort;
  report_of_rank.node_inputs = node_inputs != nullptr;
  if (in_place) {
    place = mpi::place(c, input.bytes + (rank == 0 ? job->header.size() : 0));
    shared.create(c, request.sort.output, place.total, nullptr);
    times.write = lap(t);
    phase(c, [&] {
      piece = idle ? empty_piece(shared.name(), place.offset)
                   : sort_in_place(*job, input, rank, shared.name(), place);
    });
  } else {
    phase(c, [&] {
      if (request.part_files) {
        part = std::make_unique<PartFile>(request.sort.output, rank);
        piece = idle ? empty_piece(part->file().path()) : sort_into(*job, input, rank, part->file());
      } else {
        sorted = job->scratch->create("sorted", 0666);  // 0666 less the umask: the output's, if it becomes it
        piece = idle ? empty_piece(sorted.path()) : sort_into(*job, input, rank, sorted);
      }
    });
  }
  times.sort = lap(t);
  report_of_rank.keys_from_exchange = exchanged.keys_taken();
  report_of_rank.device_from_exchange = exchanged.device_taken();

  if (!in_place) place = mpi::place(c, piece.bytes);
  // The pieces are checked as sorted, before any is moved.
  verify_boundaries(c, *job, piece, exchanged.read_bytes, place.total);
  if (request.part_files) {
    phase(c, [&] { part->stage(); });
    commit_parts(c, request.sort.output, *part);
  } else {
    if (!in_place) move_into_shared(c, *job, piece, sorted, place, shared);
    phase(c, [&] {
      if (rank == 0) shared.commit(request.sort.output, job->local.io.sync_output, job->local.threads);
    });
  }
  times.write += lap(t);
  times.total = std::chrono::duration<double>(Clock::now() - start).count();

  report_of_rank.in_place = in_place;
  report_of_rank.bytes_out = piece.bytes;
  report_of_rank.output_offset = place.offset;
  report_of_rank.stats = piece.stats;
  report(c, *job, report_of_rank);
}

}  // namespace

int distributed_sort(MPI_Comm comm, const DistributedRequest& request, std::string* error) {
  MpiCommunicator c(comm);
  return distributed_sort(c, request, error);
}

int distributed_sort(Communicator& c, const DistributedRequest& request, std::string* error) {
  try {
    run(c, request);
    return 0;
  } catch (const RankFailed& e) {
    if (c.rank() == 0 && error) *error = e.what();
  }
  return 2;
}

}  // namespace corank::mpi
