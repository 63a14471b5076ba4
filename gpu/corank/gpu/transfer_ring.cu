#include <algorithm>
#include <chrono>
#include <deque>
#include <string>
#include <vector>

#include "corank/gpu/busy_time.hpp"
#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/pinned_buffer.cuh"
#include "corank/gpu/stream.cuh"
#include "corank/gpu/transfer_ring.cuh"

namespace corank::gpu {

struct TransferRing::Impl {
  enum class Direction { h2d, d2h };
  struct Slot {
    std::byte* h_data = nullptr;
    Event start, end;
    bool pending = false;  // a copy whose times are not yet counted
    Direction direction = Direction::h2d;
    std::size_t bytes = 0;
  };
  struct Mark {
    Event begin, end;
    double* into = nullptr;
  };

  std::size_t slot_bytes = 0;
  PinnedBuffer<std::byte> pinned;
  Stream stream;
  std::vector<Slot> slots;
  unsigned next = 0;  // the slot the next piece takes
  Event origin;       // intervals are measured from it
  BusyTime busy;
  TransferTimes times;
  std::vector<Mark> marks;  // recorded, not yet counted
  std::vector<Mark> spare_marks;

  double since_origin(const Event& e) const { return e.elapsed_ms_since(origin); }

  // Waits for the slot's copy, if any, and counts its time.
  void settle(Slot& s) {
    if (!s.pending) return;
    s.end.synchronize();
    s.pending = false;
    const double ms = s.end.elapsed_ms_since(s.start);
    if (s.direction == Direction::h2d) {
      times.h2d_ms += ms;
      times.h2d_bytes += static_cast<double>(s.bytes);
    } else {
      times.d2h_ms += ms;
      times.d2h_bytes += static_cast<double>(s.bytes);
    }
    busy.add(since_origin(s.start), since_origin(s.end));
    times.busy_ms = busy.total_ms();
  }

  void copy(Slot& s, Direction d, void* dst, const void* src, std::size_t bytes) {
    s.start.record(stream.get());
    check_cuda(cudaMemcpyAsync(dst, src, bytes, d == Direction::h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost,
                               stream.get()),
               d == Direction::h2d ? "cudaMemcpyAsync (to the device)" : "cudaMemcpyAsync (to the host)");
    s.end.record(stream.get());
    s.pending = true;
    s.direction = d;
    s.bytes = bytes;
  }

  Slot& take_slot() {
    Slot& s = slots[next];
    next = (next + 1) % static_cast<unsigned>(slots.size());
    return s;
  }
};

TransferRing::TransferRing(std::size_t slot_bytes, unsigned slots) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  if (slot_bytes == 0 || slots < 2)
    throw CudaError(cudaErrorInvalidValue, "TransferRing (" + std::to_string(slots) + " slots of " +
                                               std::to_string(slot_bytes) + " bytes)");
  m.slot_bytes = slot_bytes;
  const auto t0 = std::chrono::steady_clock::now();
  m.pinned = PinnedBuffer<std::byte>(static_cast<std::int64_t>(slot_bytes * slots));
  m.times.alloc_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  m.slots.resize(slots);
  for (unsigned i = 0; i < slots; ++i) m.slots[i].h_data = m.pinned.data() + std::size_t{i} * slot_bytes;
  m.origin.record(m.stream.get());
}

TransferRing::~TransferRing() {
  // Copies into or out of the slots may still be in flight after an error:
  // they must end before the slots are freed. Errors cannot be reported here.
  if (impl_) (void)cudaStreamSynchronize(impl_->stream.get());
}

std::size_t TransferRing::slot_bytes() const noexcept { return impl_->slot_bytes; }
unsigned TransferRing::slots() const noexcept { return static_cast<unsigned>(impl_->slots.size()); }
std::uint64_t TransferRing::pinned_bytes() const noexcept {
  return static_cast<std::uint64_t>(impl_->pinned.size());
}
cudaStream_t TransferRing::stream() const noexcept { return impl_->stream.get(); }

std::uint64_t TransferRing::upload(std::byte* d_dst, std::uint64_t max_bytes, std::size_t unit, const Fill& fill) {
  Impl& m = *impl_;
  const std::size_t piece = m.slot_bytes / unit * unit;
  if (piece == 0)
    throw CudaError(cudaErrorInvalidValue, "TransferRing::upload (a unit of " + std::to_string(unit) +
                                               " bytes is larger than a slot)");
  std::uint64_t done = 0;
  while (done < max_bytes) {
    Impl::Slot& s = m.take_slot();
    m.settle(s);  // its last copy has left the slot
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(piece, max_bytes - done));
    const std::size_t got = fill(s.h_data, done, want);
    if (got > 0) m.copy(s, Impl::Direction::h2d, d_dst + done, s.h_data, got);
    done += got;
    if (got < want) break;
  }
  return done;
}

std::uint64_t TransferRing::download(const std::byte* d_src, std::uint64_t bytes, std::size_t unit,
                                     const Drain& drain) {
  Impl& m = *impl_;
  const std::size_t piece = m.slot_bytes / unit * unit;
  if (piece == 0)
    throw CudaError(cudaErrorInvalidValue, "TransferRing::download (a unit of " + std::to_string(unit) +
                                               " bytes is larger than a slot)");
  struct InFlight {
    Impl::Slot* slot;
    std::uint64_t offset;
    std::size_t bytes;
  };
  std::deque<InFlight> in_flight;
  std::uint64_t issued = 0;
  auto issue = [&] {
    Impl::Slot& s = m.take_slot();
    m.settle(s);
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(piece, bytes - issued));
    m.copy(s, Impl::Direction::d2h, s.h_data, d_src + issued, len);
    in_flight.push_back({&s, issued, len});
    issued += len;
  };
  while (issued < bytes && in_flight.size() < m.slots.size()) issue();
  while (!in_flight.empty()) {
    const InFlight f = in_flight.front();
    in_flight.pop_front();
    m.settle(*f.slot);
    drain(f.slot->h_data, f.offset, f.bytes);
    if (issued < bytes) issue();  // into the slot just drained, the oldest
  }
  return bytes;
}

void TransferRing::begin_mark(cudaStream_t on) {
  Impl& m = *impl_;
  if (m.spare_marks.empty()) m.spare_marks.emplace_back();
  m.marks.push_back(std::move(m.spare_marks.back()));
  m.spare_marks.pop_back();
  m.marks.back().begin.record(on ? on : m.stream.get());
}

void TransferRing::end_mark(double* into_ms, cudaStream_t on) {
  Impl& m = *impl_;
  m.marks.back().end.record(on ? on : m.stream.get());
  m.marks.back().into = into_ms;
}

void TransferRing::synchronize() {
  Impl& m = *impl_;
  m.stream.synchronize();
  for (auto& s : m.slots) m.settle(s);
  for (auto& mark : m.marks) {
    mark.end.synchronize();  // a mark on another stream may still run
    if (mark.into) *mark.into += mark.end.elapsed_ms_since(mark.begin);
    m.busy.add(m.since_origin(mark.begin), m.since_origin(mark.end));
    mark.into = nullptr;
    m.spare_marks.push_back(std::move(mark));
  }
  m.marks.clear();
  m.times.busy_ms = m.busy.total_ms();
}

TransferTimes TransferRing::times() const noexcept { return impl_->times; }

}  // namespace corank::gpu
