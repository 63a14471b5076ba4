// The GPU backend of a build without CUDA: no device is ever usable.
#include "corank/gpu_backend.hpp"

namespace corank::gpu_backend {

namespace {
constexpr const char* kNone = "this build of corank has no GPU backend";
}

std::string unavailable_reason() { return kNone; }
bool sorts_records_of(const RecordFormat&) { return false; }
std::unique_ptr<RecordDevice> open_record_device(const RecordFormat&, std::uint64_t, std::uint64_t, std::size_t,
                                                 unsigned) {
  throw GpuError(kNone);
}
std::unique_ptr<GpuPrefixSort> open_prefix_sort(std::uint64_t) { throw GpuError(kNone); }

}  // namespace corank::gpu_backend
