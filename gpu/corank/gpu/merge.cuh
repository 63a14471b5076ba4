// Public entry: stable merge of two sorted device sequences, keys only or
// key-value pairs. Equal keys keep A before B and their input order.
//
// Temporary storage follows CUB's two-call pattern: call with d_temp ==
// nullptr to get temp_bytes (always >= 1, so the second call is told apart
// even for variants that need none), allocate, call again. The storage holds
// the block partitions and may be reused once the stream has consumed it.
//
// Instantiated in the library for keys std::uint32_t, std::uint64_t, Key128
// and values std::uint32_t, std::uint64_t; the kernels themselves live in
// merge_dispatch.cuh, so users of this header compile no device code.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "corank/gpu/device_span.cuh"
#include "corank/gpu/merge_variant.cuh"
#include "corank/gpu/word_key.cuh"

namespace corank::gpu {

// C = merge(A, B); c.size must equal a.size + b.size.
template <class Key>
void merge(void* d_temp, std::size_t& temp_bytes, DeviceSpan<const Key> a, DeviceSpan<const Key> b,
           DeviceSpan<Key> c, cudaStream_t stream, MergeVariant variant = MergeVariant::automatic);

// Pairs: each value moves with its key.
template <class Key, class Value>
void merge(void* d_temp, std::size_t& temp_bytes, DeviceSpan<const Key> a_keys,
           DeviceSpan<const Value> a_values, DeviceSpan<const Key> b_keys, DeviceSpan<const Value> b_values,
           DeviceSpan<Key> c_keys, DeviceSpan<Value> c_values, cudaStream_t stream,
           MergeVariant variant = MergeVariant::automatic);

// Outputs per block of a variant (its tile boundary), for tests and tuning.
template <class Key, class Value = void>
std::int64_t merge_block_items(MergeVariant variant);

}  // namespace corank::gpu
