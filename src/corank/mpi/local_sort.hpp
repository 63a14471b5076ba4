#pragma once
// Each rank's sort of what it received, with corank::sort on its GPU or CPU.
// Without -u, compression or part files, a rank's piece holds what it
// received (and rank 0's the header): the offsets are known before the
// sorts, so each sort writes straight into its region of the shared output
// (io::IoOptions::output_region), and no piece is copied. Otherwise a piece
// is sorted into a file of its own, moved into place afterwards.
#include <cstdint>
#include <string>

#include "corank/mpi/job.hpp"
#include "corank/mpi/output.hpp"
#include "corank/mpi/received_pieces.hpp"
#include "corank/sort_options.hpp"

namespace corank::mpi {

// A rank's sorted piece: its records lie in bytes [begin, end) of `file`
// (past any header): a scratch or part file, or the shared output.
struct SortedPiece {
  std::string file;
  std::uint64_t begin = 0, end = 0;
  std::uint64_t header = 0;  // header bytes at the piece's head
  std::uint64_t skip = 0;    // of them, those not in this rank's output
  std::uint64_t bytes = 0;   // what the rank puts in the output
  SortStats stats;
};

// Whether the pieces are sorted straight into the shared output.
bool sorts_in_place(const Job& job);

// Into bytes [place.offset, place.offset + place.bytes) of `shared`.
SortedPiece sort_in_place(const Job& job, ReceivedPieces& received, unsigned rank, const std::string& shared,
                          const Placement& place);
// Into a scratch file, or with --part-files into the part's temporary
// `part_temp` beside the target (headed only on rank 0).
SortedPiece sort_to_file(const Job& job, ReceivedPieces& received, unsigned rank, RemoveUnlessKept& part_temp);

}  // namespace corank::mpi
