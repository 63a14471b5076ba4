// Sorted segments lying back to back in device memory, merged into one sorted
// sequence: adjacent segments are merged pairwise with corank::gpu::merge
// (co-rank partitions, circular-tile kernel), ceil(log2 k) rounds ping-ponging
// two buffers. The earlier segment is always A, and merge() takes equal keys
// from A first, so the result is stable: equal keys keep segment order, then
// their order within a segment.
//
// Keys are W 64-bit words compared with word 0 most significant (W = 1 or 2);
// values, when given, are 32-bit and move with their keys.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace corank::gpu {

// Temporary bytes for merges of up to n elements.
std::size_t segment_merge_temp_bytes(unsigned words, std::int64_t n, bool with_values);

// bounds[0, count): segment boundaries, bounds[0] = 0, ascending, the last one n.
// keys[0] / values[0] hold the segments; returns which buffer (0 or 1) holds
// the merged result. values may be {nullptr, nullptr} for keys alone.
int merge_segments(unsigned words, void* d_temp, std::size_t temp_bytes, std::uint64_t* const keys[2],
                   std::uint32_t* const values[2], const std::int64_t* bounds, std::size_t count, cudaStream_t stream);

}  // namespace corank::gpu
