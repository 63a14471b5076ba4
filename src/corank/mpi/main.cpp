// corank-mpi: corank's sort across the ranks of an MPI job,
//   mpirun -np N corank-mpi [corank's options] [--part-files] -o OUT INPUT...
// The command line is corank's (cli/args.hpp) plus --part-files and
// --exchange, parsed with it (prefixes, separate arguments, getopt's
// messages); each rank parses it alike, and rank 0 alone speaks.
#include <mpi.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "corank/cli/args.hpp"
#include "corank/cli/gnu_arguments.hpp"
#include "corank/cli/program_signals.hpp"
#include "corank/cli/unread_keys.hpp"
#include "corank/io/diagnostics.hpp"
#include "corank/mpi/cleanup.hpp"
#include "corank/mpi/distributed_sort.hpp"
#include "corank/mpi/launch_environment.hpp"
#include "corank/request_options.hpp"
#include "corank/version.hpp"

namespace {

constexpr const char* kUsage =
    "Usage: mpirun -np N corank-mpi [OPTION]... [--part-files] -o OUT FILE...\n"
    "Sort FILEs (regular files on a path every rank can read) across N ranks:\n"
    "each rank reads 1/N of the input, the ranks agree on N-1 sampled\n"
    "splitters, exchange records with MPI_Alltoallv and sort their part out of\n"
    "core on their own GPU (local rank mod device count) or CPU.\n"
    "\n"
    "  -o FILE           the sorted output: one file, each rank writing its part at\n"
    "                    its offset, renamed onto FILE once every rank succeeded\n"
    "                    (copied into FILE where it has other hard links)\n"
    "  --part-files      instead, FILE.part-00000 ... one per rank, that concatenate\n"
    "                    to the sorted whole: all of them replaced, or none\n"
    "  --exchange=HOW    how ranks that all share one node, sorting fixed-size\n"
    "                    records from files in its memory (page cache, /dev/shm),\n"
    "                    come by them. auto (the default): where they would all\n"
    "                    drive one GPU, or all sort on the CPU and may run on the\n"
    "                    same cores (mpirun --bind-to none), rank 0 sorts every\n"
    "                    record where it lies, on the node's cores, and the others\n"
    "                    wait; else each sorts its part where it lies, sending no\n"
    "                    records. parts: each its part, always. always: records\n"
    "                    move through MPI, as between nodes\n"
    "  -S SIZE, -T DIR, --parallel N\n"
    "                    apply to each rank (defaults: half a node's memory split\n"
    "                    among its ranks, and the cores a rank may run on split\n"
    "                    among the ranks that may run on them; -v and --stats say\n"
    "                    what each rank took)\n"
    "  --stats FILE      rank 0 writes totals, per-rank parts and times, and the\n"
    "                    partition skew (largest part / mean)\n"
    "  --verify          each rank verifies its part; rank 0 checks the parts'\n"
    "                    boundaries and that no record was lost\n"
    "  --progress        rank 0 shows its exchange and its sort (its part of the\n"
    "                    records, or all of them where it sorts for the node); by\n"
    "                    default where its standard error is a terminal, which\n"
    "                    under Open MPI's mpirun it never is (a pipe)\n"
    "Formats: gensort, fixed:R, u32 u64 i32 i64 f32 f64, lines, csv, tsv, pgtext, jsonl.\n"
    "Lines follow the locale (LC_ALL, LC_COLLATE, ..., LANG) as corank's do: give\n"
    "every rank the same one (mpirun -x LC_ALL=...).\n"
    "Where mpirun starts every rank on one node, Open MPI's cm layer (networks'\n"
    "own libraries) is left out unless OMPI_MCA_pml, mpirun's --mca pml or a\n"
    "parameter file names a layer.\n"
    "Not distributed: -c/-C, -m, --debug, --files0-from, standard input/output,\n"
    "--multiline (but with one rank and one input).\n"
    "\n"
    "corank's options, which every rank takes as corank does:\n"
    "\n";

// After corank's options (help2man takes what follows Examples: as examples).
constexpr const char* kClosing =
    "Exit status: 0 on success, 2 on any error on any rank.\n"
    "\n"
    "Examples:\n"
    "  mpirun -np 4 corank-mpi --format gensort -o sorted.dat input.dat\n"
    "  mpirun -np 8 --hostfile hosts corank-mpi --part-files -k2,2 -o out.txt a.txt b.txt\n"
    "  mpirun -np 2 corank-mpi --format csv --header --key ts:time -o out.csv in.csv\n";

// The library's notes (rank 0's -v summary), on stderr after the program's name.
class StderrDiagnostics final : public corank::io::Diagnostics {
public:
  void note(std::string_view line) override { say(line); }
  void warning(std::string_view line) override { say(line); }

private:
  static void say(std::string_view line) {
    std::fprintf(stderr, "corank-mpi: %.*s\n", static_cast<int>(line.size()), line.data());
  }
};

}  // namespace

int main(int argc, char** argv) {
  using namespace corank;
  // First, before MPI_Init and CUDA start threads of their own, which inherit
  // the mask (cli/program_signals.hpp): mpirun, interrupted or killed, sends
  // its ranks SIGTERM; the thread that takes it waits for a commit under way,
  // removes what the rank named (cleanup.hpp) and ends it by the signal.
  cli::take_program_signals(&mpi::remove_registered_paths);
  // --part-files and --exchange are ours, parsed with corank's command line.
  enum : int { kPartFiles = cli::kOwnOptionCodes, kExchange };
  static const option own[] = {{"part-files", no_argument, nullptr, kPartFiles},
                               {"exchange", required_argument, nullptr, kExchange}};
  bool part_files = false;
  using Exchange = mpi::DistributedRequest::Exchange;
  auto exchange = Exchange::Auto;

  cli::Invocation inv;
  std::string error;
  bool bad_command_line = false;
  try {
    // Every rank parses; the first alone says what getopt finds wrong.
    inv = cli::parse_args(argc, argv, "corank-mpi", mpi::first_rank_or_alone(), own);
    for (const auto& [code, arg] : inv.own_options) {
      if (code == kPartFiles) {
        part_files = true;
      } else {  // kExchange
        const std::string how = cli::match_argument("--exchange", arg, {{"auto", 0}, {"parts", 1}, {"always", 2}});
        exchange = how == "parts" ? Exchange::Parts : how == "always" ? Exchange::Always : Exchange::Auto;
      }
    }
  } catch (const cli::BadCommandLine& e) {
    bad_command_line = true;
    error = e.what();
  } catch (const std::exception& e) {
    error = e.what();
  }
  // --help and --version need no MPI: they answer before MPI_Init, which
  // costs a start of its own and, under a sanitizer, reports the MPI
  // library's leaks; under mpirun the first rank alone prints.
  if (!bad_command_line && error.empty() && (inv.action == cli::Action::Help || inv.action == cli::Action::Version)) {
    if (mpi::first_rank_or_alone()) {
      if (inv.action == cli::Action::Help)
        std::printf("%s%s%s", kUsage, cli::help_options_text().c_str(), kClosing);
      else
        std::printf("corank-mpi %s\n", corank::version());
    }
    return std::fflush(stdout) == 0 ? 0 : 2;
  }
  std::string device;
  if (error.empty() && !bad_command_line && inv.request.gpu != GpuMode::Off) device = mpi::pick_device();

  mpi::leave_out_cm_on_one_node();
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 2;
  if (bad_command_line || !error.empty()) {
    if (rank == 0) {
      if (!error.empty()) std::fprintf(stderr, "corank-mpi: %s\n", error.c_str());
      if (bad_command_line) std::fprintf(stderr, "Try 'corank-mpi --help' for more information.\n");
    }
  } else if (inv.action != cli::Action::Sort) {
    if (rank == 0) std::fprintf(stderr, "corank-mpi: -c/-C is not distributed: check with corank -c\n");
  } else if (inv.files0_from) {
    if (rank == 0) std::fprintf(stderr, "corank-mpi: --files0-from is not distributed: name the files\n");
  } else {
    static StderrDiagnostics diagnostics;
    mpi::DistributedRequest r;
    r.sort = inv.request;
    // Rank 0 shows its exchange's and its sort's progress, as corank does:
    // --progress, or by default where its standard error is a terminal.
    r.sort.progress = inv.progress.value_or(::isatty(STDERR_FILENO) == 1);
    // Lines follow LC_ALL, LC_COLLATE, ..., LANG as corank's do: each rank
    // reads its own environment (mpirun passes it to the ranks it starts;
    // -x LC_ALL to other hosts), and its splitters compare as its sort does.
    r.sort.locale = "";
    r.sort.io.diagnostics = rank == 0 ? &diagnostics : nullptr;
    if (rank == 0)
      for (const std::string& w : corank::request::zone_pattern_warnings(r.sort)) diagnostics.warning(w);
    r.part_files = part_files;
    r.exchange = exchange;
    r.device = device;
    r.stats_file = inv.stats_file;
    std::string why, stats;
    r.stats_text = &stats;
    SortStats totals;
    r.totals = rank == 0 ? &totals : nullptr;
    status = mpi::distributed_sort(MPI_COMM_WORLD, r, &why);
    if (status != 0 && rank == 0) std::fprintf(stderr, "corank-mpi: %s\n", why.c_str());
    // As corank ends: how many key values did not read or were NULL, over every rank's records.
    if (status == 0 && rank == 0)
      if (const std::string unread = cli::unread_keys_line(totals, r.sort); !unread.empty())
        std::fprintf(stderr, "corank-mpi: %s\n", unread.c_str());
    if (status == 0 && !stats.empty() &&
        (std::fwrite(stats.data(), 1, stats.size(), stdout) != stats.size() || std::fflush(stdout) != 0)) {
      std::fprintf(stderr, "corank-mpi: write failed: standard output: %s\n", std::strerror(errno));
      status = 2;
    }
  }
  std::fflush(stdout);
  MPI_Finalize();
  return status;
}
