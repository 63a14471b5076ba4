#pragma once
// The exchange feeding the sort's arrays: where a rank's sort will run on
// the CPU and its fixed-size records arrive in memory (received_pieces.hpp),
// the keys of each sender's records are normalized into the sort's key
// entries in the background as they land, while the exchange reads, bins and
// sends its later rounds (corank/prepared_keys.hpp). The rank's sort then
// radix sorts the entries and gathers the records from where they landed:
// the records are not read again to make keys after the exchange, and not
// moved to join the pieces. A rank's own records, which skip MPI, are taken
// the same way, from where the binning put them. The background's threads
// run at idle priority: they take the cores the exchange leaves idle.
//
// The sort reads the regions of the received pieces as one buffer, keeping
// only each sender's records (ReceivedSelection), so that a sort which
// ignores the keys (it chose the GPU, or a plan beyond memory) reads the
// same records in the same order. Where the pieces leave memory for files,
// the keys are abandoned before the memory goes, and the sort reads the files.
#include <cstdint>
#include <memory>

#include "corank/io/thread_pool.hpp"
#include "corank/mpi/arriving_batches.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/local_sort.hpp"
#include "corank/mpi/received_pieces.hpp"
#include "corank/prepared_keys.hpp"
#include "corank/record_selection.hpp"

namespace corank::mpi {

// Of the regions of received pieces in memory, the senders' records.
class ReceivedSelection final : public RecordSelection {
public:
  ReceivedSelection(const ReceivedPieces& received, std::uint32_t record_size) : received_(received), R_(record_size) {}
  std::uint64_t records() const override;
  std::uint64_t mark(const std::byte* records, std::uint64_t n, std::uint64_t first,
                     std::uint8_t* keep) const override;

private:
  const ReceivedPieces& received_;
  std::uint32_t R_;
};

// The regions of the received pieces in memory as the sort's input, each
// sender's records selected; its release frees them.
PieceInput selected_piece(ReceivedPieces& received, const ReceivedSelection& selection);

class ArrivingKeys {
public:
  // Where keys can be made as records arrive: fixed-size records received
  // in memory, a sort on the CPU (--gpu=off, or no device for this rank), no
  // --verify of the sort; nullptr otherwise. `received` must outlive it.
  // Throws std::bad_alloc.
  static std::unique_ptr<ArrivingKeys> make_if_useful(const Job& job, ReceivedPieces& received);
  ~ArrivingKeys();
  ArrivingKeys(const ArrivingKeys&) = delete;
  ArrivingKeys& operator=(const ArrivingKeys&) = delete;

  // After records landed in the pieces: each sender's records whose keys are
  // not made yet go to the background, once there are enough to be worth it.
  void landed();
  // Before the pieces leave memory: waits for the work in flight and drops
  // the keys; the sort reads the pieces instead.
  void abandon() noexcept;
  bool abandoned() const noexcept { return abandoned_; }
  // After the last round: makes the keys left and waits for all. Keys that
  // could not be made (memory ran out) are abandoned: the sort then makes its
  // own, or reports that it cannot.
  void finish() noexcept;

  // The sort's input: the regions, their records selected, and the keys.
  PieceInput piece();
  // Whether the sort took the keys (it did not make its own).
  bool taken() const noexcept { return keys_ && keys_->taken(); }
  // Wall seconds the background spent making keys, in how many batches.
  double seconds() const noexcept { return seconds_; }
  std::size_t batches() const noexcept { return batches_.batches(); }

private:
  ArrivingKeys(const Job& job, ReceivedPieces& received, std::unique_ptr<PreparedKeys> keys);
  // Makes the keys of sender s's record bytes [begin, end), in the background.
  void make(unsigned s, std::uint64_t begin, std::uint64_t end);

  ReceivedPieces& received_;
  std::uint32_t R_;
  unsigned threads_;
  std::unique_ptr<PreparedKeys> keys_;
  ReceivedSelection selection_;
  double seconds_ = 0;  // written by the background, read after it drained
  bool abandoned_ = false;
  std::unique_ptr<io::ThreadPool> pool_;  // the background's threads, at idle priority: started by it
  ArrivingBatches batches_;               // last: ends first, its tasks drained
};

}  // namespace corank::mpi
