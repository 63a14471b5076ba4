// Definitions behind merge.cuh: argument checks, temp sizing and the choice
// of variant. Included only by the instantiation units (merge_*.cu) and by
// code that instantiates its own policies (the benchmark's policy sweep).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "corank/gpu/merge.cuh"
#include "corank/gpu/merge_basic.cuh"
#include "corank/gpu/merge_circular.cuh"
#include "corank/gpu/merge_policy.cuh"
#include "corank/gpu/merge_tiled.cuh"
#include "corank/gpu/merge_tuned.cuh"

namespace corank::gpu {

template <class Policies, class Key, class Value>
void dispatch_merge(void* d_temp, std::size_t& temp_bytes, const MergeArgs<Key, Value>& args,
                    cudaStream_t stream, MergeVariant variant) {
  const std::int64_t total = args.a_size + args.b_size;
  std::size_t needed = 0;
  switch (variant) {
    case MergeVariant::basic: needed = 0; break;
    case MergeVariant::tiled: needed = merge_partitioned_temp_bytes<typename Policies::tiled>(total); break;
    case MergeVariant::circular:
      needed = merge_partitioned_temp_bytes<typename Policies::circular>(total);
      break;
    case MergeVariant::automatic:
    case MergeVariant::tuned: needed = merge_partitioned_temp_bytes<typename Policies::tuned>(total); break;
  }
  if (needed == 0) needed = 1;
  if (d_temp == nullptr) {
    temp_bytes = needed;
    return;
  }
  if (temp_bytes < needed) throw std::invalid_argument("corank::gpu::merge: temp storage too small");
  switch (variant) {
    case MergeVariant::basic: dispatch_merge_basic<typename Policies::basic>(args, d_temp, stream); break;
    case MergeVariant::tiled: dispatch_merge_tiled<typename Policies::tiled>(args, d_temp, stream); break;
    case MergeVariant::circular:
      dispatch_merge_circular<typename Policies::circular>(args, d_temp, stream);
      break;
    case MergeVariant::automatic:
    case MergeVariant::tuned: dispatch_merge_tuned<typename Policies::tuned>(args, d_temp, stream); break;
  }
}

template <class Key>
void merge(void* d_temp, std::size_t& temp_bytes, DeviceSpan<const Key> a, DeviceSpan<const Key> b,
           DeviceSpan<Key> c, cudaStream_t stream, MergeVariant variant) {
  if (a.size < 0 || b.size < 0 || c.size != a.size + b.size) {
    throw std::invalid_argument("corank::gpu::merge: output size must be the sum of the input sizes");
  }
  const MergeArgs<Key, NoValue> args{a.data, nullptr, a.size, b.data, nullptr, b.size, c.data, nullptr};
  dispatch_merge<DefaultMergePolicies<Key, NoValue>>(d_temp, temp_bytes, args, stream, variant);
}

template <class Key, class Value>
void merge(void* d_temp, std::size_t& temp_bytes, DeviceSpan<const Key> a_keys,
           DeviceSpan<const Value> a_values, DeviceSpan<const Key> b_keys, DeviceSpan<const Value> b_values,
           DeviceSpan<Key> c_keys, DeviceSpan<Value> c_values, cudaStream_t stream, MergeVariant variant) {
  if (a_keys.size < 0 || b_keys.size < 0 || c_keys.size != a_keys.size + b_keys.size ||
      a_values.size != a_keys.size || b_values.size != b_keys.size || c_values.size != c_keys.size) {
    throw std::invalid_argument(
        "corank::gpu::merge: value sizes must match key sizes and the output the sum of the inputs");
  }
  const MergeArgs<Key, Value> args{a_keys.data, a_values.data, a_keys.size, b_keys.data,
                                   b_values.data, b_keys.size, c_keys.data, c_values.data};
  dispatch_merge<DefaultMergePolicies<Key, Value>>(d_temp, temp_bytes, args, stream, variant);
}

template <class Key, class Value>
std::int64_t merge_block_items(MergeVariant variant) {
  using P = DefaultMergePolicies<Key, std::conditional_t<std::is_void_v<Value>, NoValue, Value>>;
  switch (variant) {
    case MergeVariant::basic: return P::basic::block_items;
    case MergeVariant::tiled: return P::tiled::block_items;
    case MergeVariant::circular: return P::circular::block_items;
    case MergeVariant::automatic:
    case MergeVariant::tuned: return P::tuned::block_items;
  }
  return 0;
}

// One line per key type in the instantiation units.
#define CORANK_GPU_INSTANTIATE_MERGE(Key)                                                                 \
  template void merge<Key>(void*, std::size_t&, DeviceSpan<const Key>, DeviceSpan<const Key>,              \
                           DeviceSpan<Key>, cudaStream_t, MergeVariant);                                   \
  template void merge<Key, std::uint32_t>(void*, std::size_t&, DeviceSpan<const Key>,                      \
                                          DeviceSpan<const std::uint32_t>, DeviceSpan<const Key>,          \
                                          DeviceSpan<const std::uint32_t>, DeviceSpan<Key>,                \
                                          DeviceSpan<std::uint32_t>, cudaStream_t, MergeVariant);          \
  template void merge<Key, std::uint64_t>(void*, std::size_t&, DeviceSpan<const Key>,                      \
                                          DeviceSpan<const std::uint64_t>, DeviceSpan<const Key>,          \
                                          DeviceSpan<const std::uint64_t>, DeviceSpan<Key>,                \
                                          DeviceSpan<std::uint64_t>, cudaStream_t, MergeVariant);          \
  template std::int64_t merge_block_items<Key, void>(MergeVariant);                                        \
  template std::int64_t merge_block_items<Key, std::uint32_t>(MergeVariant);                               \
  template std::int64_t merge_block_items<Key, std::uint64_t>(MergeVariant);

}  // namespace corank::gpu
