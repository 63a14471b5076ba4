#include "corank/prepared_device.hpp"

#include <algorithm>
#include <string>

#include "corank/errors.hpp"
#include "corank/gpu_gate.hpp"
#include "corank/planner.hpp"
#include "corank/stopwatch.hpp"

namespace corank {

std::unique_ptr<PreparedDevice> PreparedDevice::open(const SortOptions& options, std::uint64_t records,
                                                     unsigned groups) {
  const RecordFormat format = in_sort_order(options.format, options.reverse);
  RecordDeviceRequest request;
  request.total_records = records;
  request.slot_bytes = staging_slot_bytes(options.memory_budget ? options.memory_budget : default_memory_budget(),
                                          format.record_size);
  double setup = 0;
  std::unique_ptr<RecordDevice> device;
  try {
    device = open_record_device(options, format, request, &setup);
  } catch (const UsageError&) {
    return nullptr;  // --gpu=on without a usable device: the sort says so
  }
  if (!device) return nullptr;
  return std::make_unique<PreparedDevice>(std::move(device), format.record_size, groups, setup);
}

PreparedDevice::PreparedDevice(std::unique_ptr<RecordDevice> device, std::uint32_t record_size, unsigned groups,
                               double setup_seconds)
    : device_(std::move(device)), R_(record_size), setup_(setup_seconds), pieces_(groups) {}

bool PreparedDevice::add(unsigned group, const std::byte* src, std::uint64_t n, const Copy& copy) {
  if (overflowed_ || n > device_->capacity() - uploaded_) {
    overflowed_ = true;
    return false;
  }
  if (n == 0) return true;
  const auto t0 = Clock::now();
  const std::uint64_t got = device_->upload(uploaded_, n, [&](std::byte* dst, std::uint64_t first, std::uint64_t max) {
    const std::uint64_t k = std::min(max, n - first);
    copy(dst, src + first * R_, k * R_);
    return k;
  });
  if (got != n) throw GpuError("uploaded " + std::to_string(got) + " records of " + std::to_string(n));
  pieces_[group].push_back({uploaded_, n});
  uploaded_ += n;
  upload_s_ += seconds_since(t0);
  return true;
}

void PreparedDevice::arrange() {
  taken_ = true;
  std::vector<RecordDevice::Piece> order;
  for (const auto& group : pieces_) order.insert(order.end(), group.begin(), group.end());
  // Pieces that came in group order already lie where the sort wants them.
  bool in_place = true;
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < order.size(); at += order[i].count, ++i) in_place = in_place && order[i].at == at;
  if (!in_place) device_->arrange(order);
}

}  // namespace corank
