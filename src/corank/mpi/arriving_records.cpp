#include "corank/mpi/arriving_records.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "corank/request_options.hpp"

namespace corank::mpi {

namespace {

// A sender's records go up a round's quota at a time (Job::round_quota), or
// this much where that is more: a task's wake-up is then a small part of it.
constexpr std::uint64_t kBatchBytes = std::uint64_t{64} << 20;
// Threads that copy records into a staging slot: a few keep the bus busy
// and leave the exchange its cores.
constexpr unsigned kCopyThreads = 4;

}  // namespace

std::unique_ptr<ArrivingRecords> ArrivingRecords::make_if_useful(const Job& job, ReceivedPieces& received) {
  if (job.text() || !received.in_memory() || job.local.verify) return nullptr;
  const bool gpu = job.local.gpu == GpuMode::On || (job.local.gpu == GpuMode::Auto && !job.request.device.empty());
  if (!gpu) return nullptr;
  // The part the rank expects, and a margin for the splitters' skew: a part
  // beyond it is sorted as before.
  const std::uint64_t total = received.reservation() / job.record_size, part = total / received.senders();
  const std::uint64_t room = std::min(total, part + part / 4 + 1024);
  auto device = PreparedDevice::open(request::binary_options(job.local), room, received.senders());
  if (!device) return nullptr;
  return std::unique_ptr<ArrivingRecords>(new ArrivingRecords(job, received, std::move(device)));
}

ArrivingRecords::ArrivingRecords(const Job& job, ReceivedPieces& received, std::unique_ptr<PreparedDevice> device)
    : received_(received),
      R_(job.record_size),
      threads_(std::clamp(job.local.threads, 1u, kCopyThreads)),
      device_(std::move(device)),
      selection_(received, job.record_size),
      batches_(received, std::max(job.round_quota, kBatchBytes),
               [this](unsigned s, std::uint64_t begin, std::uint64_t end) { send(s, begin, end); }) {}

ArrivingRecords::~ArrivingRecords() { abandon(); }

void ArrivingRecords::send(unsigned s, std::uint64_t begin, std::uint64_t end) {
  if (!pool_) pool_ = idle_pool(threads_);
  const auto copy = [this](std::byte* dst, const std::byte* from, std::size_t bytes) {
    pool_->run(threads_, [&](unsigned i) {
      const std::size_t b = bytes * i / threads_, e = bytes * (i + 1) / threads_;
      std::memcpy(dst + b, from + b, e - b);
    });
  };
  if (!device_->add(s, received_.base() + received_.start(s) + begin, (end - begin) / R_, copy))
    throw std::length_error("the received part outgrew the device's room");
}

void ArrivingRecords::landed() {
  if (!abandoned_) batches_.landed();
}

void ArrivingRecords::drop_device() noexcept {
  if (!device_) return;
  seconds_ = device_->upload_seconds();
  taken_ = device_->taken();
  device_.reset();
}

void ArrivingRecords::abandon() noexcept {
  (void)batches_.wait();
  drop_device();
  abandoned_ = true;
}

void ArrivingRecords::finish() noexcept {
  if (!abandoned_ && !batches_.finish()) abandon();
}

PieceInput ArrivingRecords::piece() {
  PieceInput in = selected_piece(received_, selection_);
  in.device = device_.get();
  in.release = [this] {
    received_.release();
    drop_device();  // its memory, on a device other ranks may share
  };
  return in;
}

}  // namespace corank::mpi
