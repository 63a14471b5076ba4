#pragma once
// Fixed-size records put on the sort's device before the sort begins, as
// they arrive: corank-mpi's exchange uploads each round's records to the
// rank's GPU while its later rounds are in flight (mpi/arriving_records.hpp),
// and the rank's sort, where it runs on that device and its input is exactly
// the records uploaded, orders them where they lie instead of reading every
// record again to upload it (SortRequest::prepared_device). What follows the
// exchange is then the device's sort and the output's download, as in the
// single process's sort of an input within the device's capacity.
//
// Records arrive in pieces, each from one of several groups (the senders),
// and the sort must see them in group order, a group's pieces in the order
// they came: that is the input order, which equal keys keep. The pieces go
// up one after another as they come; the sort first moves them into group
// order on the device (RecordDevice::arrange), at the device memory's speed.
// Records beyond the device's capacity leave it unused: the sort then reads
// its input as always, on a device of its own or on the CPU.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "corank/gpu_backend.hpp"
#include "corank/sort_options.hpp"

namespace corank {

class PreparedDevice {
public:
  // copy(dst, src, bytes): fills the device's staging memory (several threads may share the work).
  using Copy = std::function<void(std::byte* dst, const std::byte* src, std::size_t bytes)>;

  // The device that a sort of `options` (fixed-size records, -r applied as
  // the sort applies it) opens for `records` records, through the GPU gate
  // (gpu_gate.hpp), able to hold that many: nullptr where the gate keeps
  // such a sort on the CPU, or the device cannot be opened (the sort then
  // decides again, and reports what it must). `groups`: the senders.
  static std::unique_ptr<PreparedDevice> open(const SortOptions& options, std::uint64_t records, unsigned groups);
  // Over a device opened otherwise (tests), of records of record_size bytes.
  PreparedDevice(std::unique_ptr<RecordDevice> device, std::uint32_t record_size, unsigned groups,
                 double setup_seconds = 0);

  // Uploads the n records at src as the next piece of `group`, the staging
  // filled by copy(); false, uploading nothing, where they would pass the
  // device's capacity: the device is then of no use to the sort. Throws
  // GpuError. One caller at a time.
  bool add(unsigned group, const std::byte* src, std::uint64_t n, const Copy& copy);
  // Whether a sort of n records can take the device: n records uploaded, none left out.
  bool holds(std::uint64_t n) const noexcept { return !overflowed_ && uploaded_ == n; }
  std::uint64_t records() const noexcept { return uploaded_; }

  // For the sort: the device, and the time the gate took to open it.
  RecordDevice& device() noexcept { return *device_; }
  double setup_seconds() const noexcept { return setup_; }
  // Puts the records in group order on the device, ready for its sort of
  // them (as input records [0, records())); once, by the sort that takes it.
  // Throws GpuError.
  void arrange();
  bool taken() const noexcept { return taken_; }
  // Wall seconds spent in add().
  double upload_seconds() const noexcept { return upload_s_; }

private:
  std::unique_ptr<RecordDevice> device_;
  std::uint32_t R_;
  double setup_;
  std::vector<std::vector<RecordDevice::Piece>> pieces_;  // each group's, in the order they came
  std::uint64_t uploaded_ = 0;
  double upload_s_ = 0;
  bool overflowed_ = false, taken_ = false;
};

}  // namespace corank
