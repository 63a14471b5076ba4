// Stable radix sorts of normalized keys of W 64-bit words, compared as one
// unsigned number with word 0 most significant. Only the top `key_bits` bits
// can differ, so only those are sorted.
//
// The sorts ping-pong between two buffers the caller owns (CUB's DoubleBuffer
// form): the input is in buffer 0, the other is overwritten, and the return
// value says which buffer holds the result. This needs no temporary copy of
// the keys, so a device sort holds about 8W bytes more records' worth per
// record than the form that keeps its input.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace corank::gpu {

// (key, index) pairs. CUB's two-phase call: with d_temp == nullptr it only
// sets temp_bytes (and returns 0). One instantiation per W (1, 2) in its own
// translation unit.
template <unsigned W>
int sort_key_index_pairs(void* d_temp, std::size_t& temp_bytes, std::uint64_t* const keys[2],
                         std::uint32_t* const index[2], std::int64_t n, unsigned key_bits, cudaStream_t stream);

// Keys alone (W = 1).
int sort_words(void* d_temp, std::size_t& temp_bytes, std::uint64_t* const keys[2], std::int64_t n,
               unsigned key_bits, cudaStream_t stream);

}  // namespace corank::gpu
