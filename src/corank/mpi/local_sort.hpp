#pragma once
// Each rank's sort of what it received, with corank::sort on its GPU or CPU,
// always into a region of a file that exists already (io::IoOptions::
// output_region), so that the library makes no file of its own: without -u
// or part files a rank's piece holds what it received (and rank 0's the
// header), so its offset in the shared output is known before the sorts and
// each sort writes straight into its place there; under -u the piece is
// sorted into a scratch file sized for what was received, and moved into
// place afterwards; with part files into the part's own file. Only rank 0's
// sort writes the CSV header; the others' read it to name the key columns.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "corank/mpi/job.hpp"
#include "corank/mpi/output.hpp"
#include "corank/mpi/received_pieces.hpp"
#include "corank/mpi/scratch.hpp"
#include "corank/sort_options.hpp"

namespace corank::mpi {

// What a rank's sort reads: what it received, or with one rank its whole
// input where it lies (whole_input.hpp).
struct PieceInput {
  std::vector<std::span<const std::byte>> buffers;  // in memory, in input order; or
  std::vector<std::string> files;                   // files, each headed by the CSV header where there is one
  const RecordSelection* selection = nullptr;       // buffers: only the records it keeps (node_inputs.hpp)
  PreparedKeys* prepared = nullptr;                 // with a selection: its records' keys (arriving_keys.hpp)
  PreparedDevice* device = nullptr;                 // with a selection: its records on the GPU (arriving_records.hpp)
  std::uint64_t bytes = 0;                          // their record bytes, the header not counted
  std::function<void()> release;                    // frees them once the sort has read them
};
PieceInput piece_input(ReceivedPieces& received);

// A rank's sorted piece: its records lie in bytes [begin, end) of `file`
// (past the header on rank 0), `bytes` in all.
struct SortedPiece {
  std::string file;
  std::uint64_t begin = 0, end = 0, bytes = 0;
  SortStats stats;
};

// The piece of a rank that sorts nothing (one_sort.hpp): no bytes, at
// offset `at` of `file`.
SortedPiece empty_piece(const std::string& file, std::uint64_t at = 0);

// Whether the pieces are sorted straight into the shared output.
bool sorts_in_place(const Job& job);

// Into bytes [place.offset, place.offset + place.bytes) of `shared`.
SortedPiece sort_in_place(const Job& job, const PieceInput& in, unsigned rank, const std::string& shared,
                          const Placement& place);
// Into `into` (empty, read-write), which ends up exactly as long as the piece.
SortedPiece sort_into(const Job& job, const PieceInput& in, unsigned rank, const ScratchFile& into);

}  // namespace corank::mpi
