// Stable radix sort of (key, index) pairs whose keys are W 64-bit words,
// compared as one unsigned number with word 0 most significant. Only the top
// `key_bits` bits can differ, so only those are sorted.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace corank::gpu {

// CUB's two-phase call: with d_temp == nullptr it only sets temp_bytes.
// One instantiation per W (1, 2) in its own translation unit.
template <unsigned W>
void sort_key_index_pairs(void* d_temp, std::size_t& temp_bytes, const std::uint64_t* d_keys_in,
                          std::uint64_t* d_keys_out, const std::uint32_t* d_index_in, std::uint32_t* d_index_out,
                          std::int64_t n, unsigned key_bits, cudaStream_t stream);

// Keys alone (W = 1): a stable radix sort of n words over their top key_bits bits.
void sort_words(void* d_temp, std::size_t& temp_bytes, const std::uint64_t* d_keys_in, std::uint64_t* d_keys_out,
                std::int64_t n, unsigned key_bits, cudaStream_t stream);

}  // namespace corank::gpu
