#include "corank/gpu_gate.hpp"
#include "corank/stopwatch.hpp"
#include "corank/io/diagnostics.hpp"
#include "corank/notes.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace corank {

namespace {

void note(const CommonSortOptions& options, const std::string& line) { corank::note(options.verbose, options.io, line); }

// Under --gpu=on a refusal is an error (UsageError naming why); otherwise the
// work stays on the CPU, with a --verbose line.
void refuse(const CommonSortOptions& options, const char* what, const std::string& why) {
  if (options.gpu == GpuMode::On) throw UsageError("--gpu=on: no usable GPU (" + why + ")");
  note(options, std::string(what) + " on the CPU (" + why + ")");
}

// Whether to try the device at all; `small` is why auto keeps it on the CPU, if so.
bool wanted(const CommonSortOptions& options, const char* what, const std::string& small) {
  if (options.gpu == GpuMode::Off) return false;
  if (options.gpu == GpuMode::Auto && !small.empty()) {
    note(options, std::string(what) + " on the CPU (" + small + ")");
    return false;
  }
  if (std::string why = gpu_backend::unavailable_reason(); !why.empty()) {
    refuse(options, what, why);
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<RecordDevice> open_record_device(const CommonSortOptions& options, const RecordFormat& format,
                                                 const RecordDeviceRequest& request, double* setup_seconds) {
  *setup_seconds = 0;
  std::string small;
  if (request.total_records && *request.total_records < kAutoGpuMinRecords)
    small = std::to_string(*request.total_records) + " records: too few for the GPU to pay for its start-up";
  else if (!request.rereadable)
    small = "an input read once, which a GPU failure could not read again";
  if (!wanted(options, "sort", small)) return nullptr;
  if (!gpu_backend::sorts_records_of(format)) {
    // Not a missing GPU: the data sorts fine on the CPU under --gpu=on too.
    note(options, io::format_line("sort on the CPU (the GPU sorts keys of up to 16 bytes, this one has %u)",
                                  format.key_bytes()));
    return nullptr;
  }
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const std::uint64_t records = request.total_records ? std::max<std::uint64_t>(*request.total_records, 1) : 0;
    auto device = gpu_backend::open_record_device(format, options.gpu_memory, records,
                                                  request.slot_bytes, request.slots);
    *setup_seconds = seconds_since(t0);
    note(options, "sort on the GPU (" + device->describe() + ")");
    return device;
  } catch (const GpuError& e) {
    refuse(options, "sort", e.what());
    return nullptr;
  }
}

std::unique_ptr<GpuPrefixSort> open_gpu_prefix_sort(const CommonSortOptions& options,
                                                    std::optional<std::uint64_t> total_bytes) {
  std::string small;
  if (total_bytes && *total_bytes < kAutoGpuMinTextBytes)
    small = std::to_string(*total_bytes) + " bytes: too few for the GPU to pay for its start-up";
  if (!wanted(options, "sort", small)) return nullptr;
  try {
    auto backend = gpu_backend::open_prefix_sort(options.gpu_memory);
    note(options, "sort on the GPU (" + backend->describe() + ")");
    return backend;
  } catch (const GpuError& e) {
    refuse(options, "sort", e.what());
    return nullptr;
  }
}

std::size_t staging_slot_bytes(std::uint64_t budget, std::uint32_t R) {
  const std::uint64_t slot = std::clamp<std::uint64_t>(budget / 16, std::uint64_t{64} << 10, std::uint64_t{16} << 20);
  return static_cast<std::size_t>(std::max<std::uint64_t>(slot / R * R, R));
}

void gpu_fail_over(const CommonSortOptions& options, const char* what, const GpuError& e) {
  if (options.gpu == GpuMode::On) throw GpuError(std::string("GPU ") + what + " failed: " + e.what());
  if (options.io.diagnostics)
    options.io.diagnostics->warning(std::string("GPU ") + what + " failed (" + e.what() + "); sorting on the CPU");
}

}  // namespace corank
