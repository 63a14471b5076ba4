#include "corank/mpi/arriving_keys.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

#include "corank/request_options.hpp"

namespace corank::mpi {

namespace {

// A sender's records are handed to the background a round's quota at a time
// (Job::round_quota), or this much where that is more: a task's wake-up and
// its threads' start are then a small part of it.
constexpr std::uint64_t kBatchBytes = std::uint64_t{16} << 20;

}  // namespace

std::uint64_t ReceivedSelection::records() const { return received_.total() / R_; }

std::uint64_t ReceivedSelection::mark(const std::byte*, std::uint64_t n, std::uint64_t first,
                                      std::uint8_t* keep) const {
  std::memset(keep, 0, n);
  std::uint64_t kept = 0;
  for (unsigned s = 0; s < received_.senders(); ++s) {
    const std::uint64_t b = received_.start(s) / R_, e = b + received_.bytes(s) / R_;
    const std::uint64_t lo = std::max(b, first), hi = std::min(e, first + n);
    if (lo >= hi) continue;
    std::memset(keep + (lo - first), 1, hi - lo);
    kept += hi - lo;
  }
  return kept;
}

std::unique_ptr<ArrivingKeys> ArrivingKeys::make_if_useful(const Job& job, ReceivedPieces& received) {
  if (job.text() || !received.in_memory() || job.local.verify) return nullptr;
  // Where the sort may run on the GPU and this rank has a device, the keys
  // would go unused.
  const bool cpu = job.local.gpu == GpuMode::Off || (job.local.gpu == GpuMode::Auto && job.request.device.empty());
  if (!cpu) return nullptr;
  std::unique_ptr<PreparedKeys> keys;
  try {
    // Address space for an entry a record of the whole reservation; pages
    // only for the records that come.
    keys = PreparedKeys::make(request::binary_options(job.local), received.base(),
                              received.reservation() / job.record_size);
  } catch (const std::bad_alloc&) {
    return nullptr;  // the sort makes its keys itself
  }
  if (!keys) return nullptr;
  return std::unique_ptr<ArrivingKeys>(new ArrivingKeys(job, received, std::move(keys)));
}

ArrivingKeys::ArrivingKeys(const Job& job, ReceivedPieces& received, std::unique_ptr<PreparedKeys> keys)
    : received_(received),
      R_(job.record_size),
      threads_(std::max(job.local.threads, 1u)),
      keys_(std::move(keys)),
      selection_(received, job.record_size),
      batches_(received, std::min(job.round_quota, kBatchBytes),
               [this](unsigned s, std::uint64_t begin, std::uint64_t end) { make(s, begin, end); }) {}

ArrivingKeys::~ArrivingKeys() { abandon(); }

void ArrivingKeys::make(unsigned s, std::uint64_t begin, std::uint64_t end) {
  const std::uint64_t first = (received_.start(s) + begin) / R_, n = (end - begin) / R_;
  const auto t = std::chrono::steady_clock::now();
  if (!pool_) pool_ = idle_pool(threads_);
  const unsigned parts = threads_for(n, threads_);
  pool_->run(parts, [&](unsigned i) { keys_->make(first + n * i / parts, n * (i + 1) / parts - n * i / parts); });
  keys_->filled(first, n);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void ArrivingKeys::landed() {
  if (!abandoned_) batches_.landed();
}

void ArrivingKeys::abandon() noexcept {
  (void)batches_.wait();
  keys_.reset();
  abandoned_ = true;
}

void ArrivingKeys::finish() noexcept {
  if (!abandoned_ && !batches_.finish()) abandon();
}

PieceInput selected_piece(ReceivedPieces& received, const ReceivedSelection& selection) {
  PieceInput in;
  in.buffers = {received.regions()};
  in.selection = &selection;
  in.bytes = received.total();
  in.release = [&received] { received.release(); };
  return in;
}

PieceInput ArrivingKeys::piece() {
  PieceInput in = selected_piece(received_, selection_);
  in.prepared = keys_.get();
  return in;
}

}  // namespace corank::mpi
