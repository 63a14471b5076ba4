// basic merge: no shared memory, no partition step. Each thread co-ranks both
// ends of its output range directly in global memory and merges sequentially.
// The baseline the other variants are measured against.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "corank/gpu/co_rank.cuh"
#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/merge_args.cuh"
#include "corank/gpu/merge_partition.cuh"
#include "corank/gpu/serial_merge.cuh"

namespace corank::gpu {

template <class Policy, class Key, class Value>
struct BasicMergeAgent {
  const MergeArgs<Key, Value>& args;

  __device__ void run(std::int64_t thread) const {
    const std::int64_t m = args.a_size;
    const std::int64_t n = args.b_size;
    const std::int64_t k0 = thread * Policy::items_per_thread;
    if (k0 >= m + n) return;
    const std::int64_t k1 = k0 + Policy::items_per_thread < m + n ? k0 + Policy::items_per_thread : m + n;
    const std::int64_t i0 = co_rank(k0, args.a_keys, m, args.b_keys, n);
    const std::int64_t i1 = co_rank(k1, args.a_keys, m, args.b_keys, n);
    Key* c = args.c_keys + k0;
    Value* cv = args.c_values + (MergeArgs<Key, Value>::has_values ? k0 : 0);
    serial_merge(args.a_keys, i0, i1, args.b_keys, k0 - i0, k1 - i1,
                 [&](std::int64_t p, const Key& key, bool from_b, std::int64_t src) {
                   c[p] = key;
                   if constexpr (MergeArgs<Key, Value>::has_values) {
                     cv[p] = from_b ? args.b_values[src] : args.a_values[src];
                   }
                 });
  }
};

template <class Policy, class Key, class Value>
__global__ void __launch_bounds__(Policy::block_threads)
    merge_basic_kernel(MergeArgs<Key, Value> args) {
  const std::int64_t thread = std::int64_t(blockIdx.x) * Policy::block_threads + threadIdx.x;
  BasicMergeAgent<Policy, Key, Value>{args}.run(thread);
}

template <class Policy, class Key, class Value>
void dispatch_merge_basic(const MergeArgs<Key, Value>& args, void* /*d_temp*/, cudaStream_t stream) {
  const std::int64_t total = args.a_size + args.b_size;
  if (total == 0) return;
  merge_basic_kernel<Policy><<<grid_size(ceil_div(total, Policy::block_items)), Policy::block_threads, 0,
                               stream>>>(args);
  check_launch("merge_basic_kernel");
}

}  // namespace corank::gpu
