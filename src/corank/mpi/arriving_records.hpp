#pragma once
// The exchange feeding the GPU's run formation: where a rank's sort may run
// on its GPU and its fixed-size records arrive in memory
// (received_pieces.hpp), each sender's records go up to the device in the
// background as they land, while the exchange reads, bins and sends its
// later rounds (corank/prepared_device.hpp). The rank's sort then puts them
// in input order and sorts them on the device, and writes them out: the
// records are not read again after the exchange, and not moved to join the
// pieces. A rank's own records, which skip MPI, go up the same way, from
// where the binning put them. The device is the one the rank's sort would
// open (the GPU gate's), sized for the rank's expected part and a margin;
// a part that outgrows it, or a device that fails, leaves the sort to read
// the pieces as before (ReceivedSelection), on a device of its own or on
// the CPU.
#include <cstdint>
#include <memory>

#include "corank/io/thread_pool.hpp"
#include "corank/mpi/arriving_batches.hpp"
#include "corank/mpi/arriving_keys.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/local_sort.hpp"
#include "corank/mpi/received_pieces.hpp"
#include "corank/prepared_device.hpp"

namespace corank::mpi {

class ArrivingRecords {
public:
  // Where records can go to the device as they arrive: fixed-size records
  // received in memory, a sort that may run on a GPU of this rank (--gpu=on,
  // or auto with a device named), no --verify, and the gate gives the device
  // for the records the rank expects; nullptr otherwise. `received` must
  // outlive it.
  static std::unique_ptr<ArrivingRecords> make_if_useful(const Job& job, ReceivedPieces& received);
  ~ArrivingRecords();
  ArrivingRecords(const ArrivingRecords&) = delete;
  ArrivingRecords& operator=(const ArrivingRecords&) = delete;

  // After records landed in the pieces: each sender's records not sent up
  // yet go to the background, once there are enough to be worth it.
  void landed();
  // Before the pieces leave memory, or where the device failed: waits for
  // the work in flight and lets the device go; the sort reads the pieces.
  void abandon() noexcept;
  bool abandoned() const noexcept { return abandoned_; }
  // After the last round: sends up what is left and waits for all; a
  // failure, or records beyond the device's room, abandon the device.
  void finish() noexcept;

  // The sort's input: the regions, their records selected, and the device
  // holding them. Its release lets the device go too.
  PieceInput piece();
  // Whether the sort took the device (it did not read the records again).
  bool taken() const noexcept { return taken_ || (device_ && device_->taken()); }
  // Wall seconds the background spent sending records up.
  double seconds() const noexcept { return device_ ? device_->upload_seconds() : seconds_; }

private:
  ArrivingRecords(const Job& job, ReceivedPieces& received, std::unique_ptr<PreparedDevice> device);
  // Uploads sender s's record bytes [begin, end), in the background.
  void send(unsigned s, std::uint64_t begin, std::uint64_t end);
  // Lets the device go, keeping what the stats report of it.
  void drop_device() noexcept;

  ReceivedPieces& received_;
  std::uint32_t R_;
  unsigned threads_;
  std::unique_ptr<PreparedDevice> device_;
  ReceivedSelection selection_;
  double seconds_ = 0;  // of a device let go
  bool abandoned_ = false, taken_ = false;
  // The staging's copies, at idle priority: started by the background.
  std::unique_ptr<io::ThreadPool> pool_;
  ArrivingBatches batches_;               // last: ends first, its tasks drained
};

}  // namespace corank::mpi
