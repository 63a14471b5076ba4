// Library instantiations of merge() for std::uint64_t keys (keys only and with
// u32 / u64 values); one unit per key type so they build in parallel.
#include "corank/gpu/merge_dispatch.cuh"

namespace corank::gpu {
CORANK_GPU_INSTANTIATE_MERGE(std::uint64_t)
}  // namespace corank::gpu
