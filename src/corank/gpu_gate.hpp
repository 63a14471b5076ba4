#pragma once
// The GPU gate: the one place that decides whether work goes to the GPU, and
// what happens when the GPU fails.
//   --gpu=off   never;
//   --gpu=on    always: a device that cannot be used is a UsageError naming
//               why ("--gpu=on: no usable GPU (...)"), a failure mid-sort an
//               error;
//   --gpu=auto  when a device is usable and the work is large enough to pay
//               for opening it (about 0.45 s on the H100 machine); a failure
//               mid-sort moves the work to the CPU, with one line on stderr.
// --verbose says which way each decision went and why.
#include <cstdint>
#include <memory>
#include <optional>

#include "corank/format.hpp"
#include "corank/gpu_backend.hpp"
#include "corank/sort_options.hpp"

namespace corank {

// Under auto, fewer records than this stay on the CPU (measured 2026-11-22:
// 10^7 gensort records 0.7x with the GPU, 10^8 u64 1.5x; see BENCHMARKS.md).
inline constexpr std::uint64_t kAutoGpuMinRecords = std::uint64_t{1} << 25;
// Under auto, text inputs known to be smaller than this stay on the CPU.
inline constexpr std::uint64_t kAutoGpuMinTextBytes = std::uint64_t{1} << 30;

struct RecordDeviceRequest {
  std::optional<std::uint64_t> total_records;  // nullopt: unknown until read (a pipe, compressed input)
  bool rereadable = true;                      // the inputs can be read again (files, not a pipe)
  std::size_t slot_bytes = 0;                  // staging slot size
  unsigned slots = 4;
};

// The device for a sort of fixed-size records, or nullptr to sort on the CPU.
// Under auto, an input that cannot be read twice stays on the CPU, since a GPU
// failure could not be redone there. Sets *setup_seconds to the time opening took.
std::unique_ptr<RecordDevice> open_record_device(const CommonSortOptions& options, const RecordFormat& format,
                                                 const RecordDeviceRequest& request, double* setup_seconds);

// Staging for a record device: four slots of a sixteenth of the -S budget
// each, at most 16 MiB (16 threads reading 1 MiB each fill one; small slots
// are quick to page-lock and stay in the host's caches until the DMA has
// read them: see BENCHMARKS.md, "Staging slots of 16 MiB"), at least one
// record of R bytes.
std::size_t staging_slot_bytes(std::uint64_t budget, std::uint32_t R);

// The device for text prefixes, or nullptr; total_bytes nullopt for a pipe.
std::unique_ptr<GpuPrefixSort> open_gpu_prefix_sort(const CommonSortOptions& options,
                                                    std::optional<std::uint64_t> total_bytes);

// After the GPU failed at `what` ("sort", "GPU merge", ...): under --gpu=on
// throws GpuError("GPU <what> failed: ..."); otherwise prints
// "corank: GPU <what> failed (...); sorting on the CPU" and returns.
void gpu_fail_over(const CommonSortOptions& options, const char* what, const GpuError& e);

}  // namespace corank
