#pragma once
// The exchange: each rank reads its share in chunks (Job::chunk_bytes),
// bins each chunk's records by destination (binning.hpp) and sends them with
// all-to-all rounds that bring a rank at most Job::round_quota bytes from
// each sender, so counts and displacements stay ints. What a rank receives
// from rank s goes to the end of s's piece (received_pieces.hpp; fixed-size
// records kept in memory are received there directly, with no copy), so the
// pieces, taken in rank order, hold its part in input order. What stays on
// the rank skips the rounds. Where the rank's sort runs on the CPU and the
// records stay in memory, their keys are made as they land, for the sort
// (arriving_keys.hpp). A rank that fails (a bad record, a full -T)
// goes on taking part in the rounds with nothing to send until all agree to
// stop, at the end of the round: then every rank throws RankFailed.
#include <cstdint>
#include <memory>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/local_sort.hpp"
#include "corank/mpi/received_pieces.hpp"
#include "corank/mpi/arriving_keys.hpp"

namespace corank::mpi {

struct ExchangeTimes {
  // Reading the share, finding each record's part and grouping the records
  // by part, the MPI rounds, and keeping what arrives (and what stays).
  double read = 0, bin = 0, mpi = 0, keep = 0;
  // Making the keys of what arrived, in the background meanwhile (arriving_keys.hpp).
  double keys = 0;
};

struct Exchanged {
  std::unique_ptr<ReceivedPieces> received;
  std::unique_ptr<ArrivingKeys> keys;  // where keys are made as the records arrive
  std::uint64_t read_bytes = 0;       // what this rank's share gave, terminators included

  // The sort's input: the pieces where they landed with their keys, or as
  // piece_input gives them.
  PieceInput piece();
  // Whether the sort took the keys made during the exchange.
  bool keys_taken() const noexcept { return keys && keys->taken(); }
};

Exchanged exchange(Communicator& c, Job& job, ExchangeTimes& times);

}  // namespace corank::mpi
