// Key extraction on the GPU: the normalization of src/corank/normalize.cpp,
// one thread per record. Every key field becomes big-endian bytes (signed
// integers sign-flipped, floats in IEEE total order, descending fields
// inverted), the fields are concatenated and zero-padded to whole 64-bit words,
// and word w holds bytes 8w..8w+7 with the first byte most significant.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "corank/gpu/key_layout.hpp"

namespace corank::gpu {

// Supported widths of the normalized key on the GPU, in 64-bit words.
inline constexpr unsigned kMaxGpuKeyWords = 2;

// d_keys[i * W + w] = word w of record i's key (W = layout.key_words(), 1 or 2),
// d_index[i] = i (unless d_index is null), for the n records at d_records.
// Enqueued on `stream`.
void extract_keys(const KeyLayout& layout, const std::byte* d_records, std::int64_t n, std::uint64_t* d_keys,
                  std::uint32_t* d_index, cudaStream_t stream);

// The inverse for records that are one 4- or 8-byte key covering the record
// (words-only records): the n normalized words at d_words become records again.
void restore_records(const KeyLayout& layout, const std::uint64_t* d_words, std::int64_t n, std::byte* d_records,
                     cudaStream_t stream);

}  // namespace corank::gpu
