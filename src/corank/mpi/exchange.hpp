#pragma once
// The exchange: each rank reads its share in chunks (Job::chunk_bytes),
// bins each chunk's records by destination (binning.hpp) and sends them with
// all-to-all rounds that bring a rank at most Job::round_quota bytes from
// each sender, so counts and displacements stay ints. What a rank receives
// from rank s goes to the end of s's piece (received_pieces.hpp; fixed-size
// records kept in memory are received there directly, with no copy), so the
// pieces, taken in rank order, hold its part in input order. What stays on
// the rank skips the rounds. Where the records stay in memory, they feed the
// sort's run formation as they land: their keys are made for a sort on the
// CPU (arriving_keys.hpp), or they go up to the GPU (arriving_records.hpp).
// A rank that fails (a bad record, a full -T) goes on taking part in the
// rounds with nothing to send until all agree to stop, at the end of the
// round: then every rank throws RankFailed.
#include <cstdint>
#include <memory>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/local_sort.hpp"
#include "corank/mpi/received_pieces.hpp"
#include "corank/mpi/arriving_keys.hpp"
#include "corank/mpi/arriving_records.hpp"

namespace corank::mpi {

struct ExchangeTimes {
  // Reading the share, finding each record's part and grouping the records
  // by part, the MPI rounds, and keeping what arrives (and what stays).
  double read = 0, bin = 0, mpi = 0, keep = 0;
  // Making the keys of what arrived, or sending it to the GPU, in the
  // background meanwhile (arriving_keys.hpp, arriving_records.hpp).
  double keys = 0, uploads = 0;
};

struct Exchanged {
  std::unique_ptr<ReceivedPieces> received;
  std::unique_ptr<ArrivingKeys> keys;  // where keys are made as the records arrive
  std::unique_ptr<ArrivingRecords> device_records;  // where the records go to the GPU as they arrive
  std::uint64_t read_bytes = 0;       // what this rank's share gave, terminators included

  // The sort's input: the pieces where they landed with their keys, or as
  // piece_input gives them.
  PieceInput piece();
  // Whether the sort took the keys made during the exchange.
  bool keys_taken() const noexcept { return keys && keys->taken(); }
  // Whether the sort took the records sent to its GPU during the exchange.
  bool device_taken() const noexcept { return device_records && device_records->taken(); }
};

Exchanged exchange(Communicator& c, Job& job, ExchangeTimes& times);

}  // namespace corank::mpi
