#pragma once
// The background work on records as they land in the received pieces, which
// both ways of feeding the sort's run formation share (arriving_keys.hpp,
// arriving_records.hpp): each sender's records not handed over yet go to
// one task thread in batches of at least a given size, so that a task's
// wake-up is a small part of it, and the wait for them all tells whether
// every batch succeeded.
#include <sched.h>

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <vector>

#include "corank/io/task_thread.hpp"
#include "corank/io/thread_pool.hpp"
#include "corank/mpi/received_pieces.hpp"

namespace corank::mpi {

// The background's own threads, started on its task thread: at the lowest
// priority (SCHED_IDLE, which the pool's threads inherit from the thread
// that starts them), they take the cores the exchange leaves idle (while
// its MPI rounds copy, or wait on a network) and yield them to its reading
// and binning, which are bound by the same memory. Once the exchange waits
// for them, every core is idle. Where the policy is refused, they run at
// the normal one.
inline std::unique_ptr<io::ThreadPool> idle_pool(unsigned threads) {
  const sched_param none{};
  ::sched_setscheduler(0, SCHED_IDLE, &none);
  return std::make_unique<io::ThreadPool>(threads - 1);
}

class ArrivingBatches {
public:
  // work(s, begin, end): sender s's record bytes [begin, end) of its piece,
  // on the task thread.
  using Work = std::function<void(unsigned s, std::uint64_t begin, std::uint64_t end)>;

  ArrivingBatches(const ReceivedPieces& received, std::uint64_t batch_bytes, Work work)
      : received_(received), batch_bytes_(batch_bytes), work_(std::move(work)), handed_(received.senders(), 0) {}
  ~ArrivingBatches() { (void)wait(); }
  ArrivingBatches(const ArrivingBatches&) = delete;
  ArrivingBatches& operator=(const ArrivingBatches&) = delete;

  // Hands each sender's records landed since the last batch to the task
  // thread, where they are at least a batch (all: any at all).
  void landed(bool all = false) {
    for (unsigned s = 0; s < received_.senders(); ++s) {
      const std::uint64_t begin = handed_[s], end = received_.bytes(s);
      if (end == begin || (!all && end - begin < batch_bytes_)) continue;
      handed_[s] = end;
      ++batches_;
      pending_.push_back(background_.run([this, s, begin, end] { work_(s, begin, end); }));
    }
  }
  // Waits for every batch handed over: whether all of them succeeded.
  bool wait() noexcept {
    background_.drain();
    bool ok = true;
    for (auto& f : pending_) try {
        f.get();
      } catch (...) {
        ok = false;
      }
    pending_.clear();
    return ok;
  }
  // After the last round: hands over what is left and waits for all;
  // whether every batch succeeded.
  bool finish() noexcept {
    try {
      landed(true);
    } catch (...) {
      (void)wait();
      return false;
    }
    return wait();
  }
  std::size_t batches() const noexcept { return batches_; }

private:
  const ReceivedPieces& received_;
  std::uint64_t batch_bytes_;
  Work work_;
  std::vector<std::uint64_t> handed_;  // of sender s's bytes, those handed over
  std::vector<std::future<void>> pending_;
  std::size_t batches_ = 0;
  io::TaskThread background_;  // last: ends first, its tasks drained
};

}  // namespace corank::mpi
