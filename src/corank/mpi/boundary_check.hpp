#pragma once
// --verify across ranks: each rank's sort verified its own piece; here the
// pieces in rank order are checked to be in order across their boundaries
// (strictly under -u), and no record lost: rank 0 compares every piece's
// first record with the last of the piece before it, and the bytes read
// with the bytes written.
#include <cstdint>
#include <string>
#include <utility>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/local_sort.hpp"

namespace corank::mpi {

// One record from each end of a sorted piece, bytes [begin, end) of its file
// (without a text terminator); "" for an empty piece.
std::pair<std::string, std::string> piece_ends(const std::string& path, std::uint64_t begin, std::uint64_t end,
                                               std::uint32_t record_size, char term);
// The first and last rows of a sorted piece of CSV or pgtext, bytes [from,
// end) of its file (past its header); "" when it has none. Reads the whole
// piece: rows are found from the start.
std::pair<std::string, std::string> row_piece_ends(const std::string& path, std::uint64_t from, std::uint64_t end,
                                                   const text::TextFormat& format);

// Collective, failures agreed; does nothing without --verify.
void verify_boundaries(Communicator& c, const Job& job, const SortedPiece& piece, std::uint64_t read_bytes,
                       std::uint64_t output_bytes);

}  // namespace corank::mpi
