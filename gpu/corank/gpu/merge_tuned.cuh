// tuned merge (merge path, as in ModernGPU and CUB's DeviceMerge): one tile of
// nt * vt outputs per block.
//   1. coalesced loads of the block's A and B ranges (and their values) into
//      one shared array, A first then B;
//   2. each thread co-ranks its diagonal inside the tile and merges exactly
//      vt items in registers (fully unrolled, one shared load per item);
//   3. results go back through shared memory and leave with coalesced stores.
// Values are staged the same way and gathered by the merged source index, so
// they cost one coalesced read and one coalesced write each.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "corank/gpu/cache_hints.cuh"
#include "corank/gpu/co_rank.cuh"
#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/merge_args.cuh"
#include "corank/gpu/merge_partition.cuh"

namespace corank::gpu {

template <class Key, class Value, int Tile>
struct TunedTempStorage {
  Key keys[Tile];
  Value values[Tile];
};
template <class Key, int Tile>
struct TunedTempStorage<Key, NoValue, Tile> {
  Key keys[Tile];
};

// Register-blocked serial merge of exactly VT items from the shared tile:
// A is keys[0, a_count), B is keys[a_count, a_count + b_count); the thread
// starts at (ai, bi). Writes the keys and their tile positions (the source
// index for the value gather). Past the end of the tile the picks are
// garbage, and the caller does not store them.
template <int VT, class Key>
__device__ __forceinline__ void serial_merge_registers(const Key* keys, int a_count, int b_count, int ai,
                                                       int bi, int tile, Key (&out)[VT], int (&src)[VT]) {
  const int a_end = a_count;
  const int b_end = a_count + b_count;
  bi += a_count;
  // Reads are clamped into the tile so no lane ever reads outside shared memory.
  Key ka = keys[ai < tile ? ai : tile - 1];
  Key kb = keys[bi < tile ? bi : tile - 1];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const bool take_b = bi < b_end && (ai >= a_end || kb < ka);
    out[i] = take_b ? kb : ka;
    src[i] = take_b ? bi : ai;
    ai += take_b ? 0 : 1;
    bi += take_b ? 1 : 0;
    int next = take_b ? bi : ai;
    next = next < tile ? next : tile - 1;
    const Key k = keys[next];
    if (take_b) {
      kb = k;
    } else {
      ka = k;
    }
  }
}

template <class Policy, class Key, class Value>
struct TunedMergeAgent {
  static constexpr int nt = Policy::block_threads;
  static constexpr int vt = Policy::items_per_thread;
  static constexpr int tile = Policy::tile_items;
  static constexpr bool has_values = MergeArgs<Key, Value>::has_values;
  static constexpr bool streaming = Policy::streaming;

  using TempStorage = TunedTempStorage<Key, Value, tile>;
  static_assert(sizeof(TempStorage) <= 48 * 1024, "tuned merge tile exceeds static shared memory");

  TempStorage& smem;
  const MergeArgs<Key, Value>& args;

  // Thread t handles tile positions t, t + nt, ...: consecutive lanes touch
  // consecutive addresses, A's and B's ranges are contiguous in the tile.
  template <class T, bool Full>
  __device__ __forceinline__ void load_tile(const T* a, int a_count, const T* b, int count, T* shared) const {
    T r[vt];
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      const int idx = int(threadIdx.x) + i * nt;
      if (Full || idx < count) {
        r[i] = idx < a_count ? load_global<streaming>(a + idx) : load_global<streaming>(b + (idx - a_count));
      }
    }
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      const int idx = int(threadIdx.x) + i * nt;
      if (Full || idx < count) shared[idx] = r[i];
    }
  }

  // Thread-blocked registers -> shared -> striped coalesced global stores.
  template <class T, bool Full>
  __device__ __forceinline__ void store_tile(const T (&r)[vt], int count, T* shared, T* out) const {
#pragma unroll
    for (int i = 0; i < vt; ++i) shared[int(threadIdx.x) * vt + i] = r[i];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      const int idx = int(threadIdx.x) + i * nt;
      if (Full || idx < count) store_global<streaming>(out + idx, shared[idx]);
    }
  }

  template <bool Full>
  __device__ __forceinline__ void run_tile(std::int64_t c0, int count, std::int64_t a0, int a_count,
                                           std::int64_t b0) {
    load_tile<Key, Full>(args.a_keys + a0, a_count, args.b_keys + b0, count, smem.keys);
    if constexpr (has_values) {
      load_tile<Value, Full>(args.a_values + a0, a_count, args.b_values + b0, count, smem.values);
    }
    __syncthreads();

    const int b_count = count - a_count;
    const int diag = int(threadIdx.x) * vt < count ? int(threadIdx.x) * vt : count;
    const int ai = co_rank(diag, smem.keys, a_count, smem.keys + a_count, b_count);
    Key keys[vt];
    int src[vt];
    serial_merge_registers<vt>(smem.keys, a_count, b_count, ai, diag - ai, tile, keys, src);
    Value values[has_values ? vt : 1];
    if constexpr (has_values) {
#pragma unroll
      for (int i = 0; i < vt; ++i) {
        if (Full || diag + i < count) values[i] = smem.values[src[i]];
      }
    }
    __syncthreads();  // the staging below overwrites the input tile

    store_tile<Key, Full>(keys, count, smem.keys, args.c_keys + c0);
    if constexpr (has_values) store_tile<Value, Full>(values, count, smem.values, args.c_values + c0);
  }

  __device__ void run(std::int64_t block, const std::int64_t* partitions) {
    const std::int64_t total = args.a_size + args.b_size;
    const std::int64_t c0 = block * tile;
    const int count = total - c0 < tile ? int(total - c0) : tile;
    const std::int64_t a0 = partitions[block];
    const std::int64_t a1 = partitions[block + 1];
    const std::int64_t b0 = c0 - a0;
    // Full tiles (all but the last) drop every bounds check.
    if (count == tile) {
      run_tile<true>(c0, count, a0, int(a1 - a0), b0);
    } else {
      run_tile<false>(c0, count, a0, int(a1 - a0), b0);
    }
  }
};

template <class Policy, class Key, class Value>
__global__ void __launch_bounds__(Policy::block_threads)
    merge_tuned_kernel(MergeArgs<Key, Value> args, const std::int64_t* partitions) {
  using Agent = TunedMergeAgent<Policy, Key, Value>;
  __shared__ typename Agent::TempStorage smem;
  Agent{smem, args}.run(blockIdx.x, partitions);
}

template <class Policy, class Key, class Value>
void dispatch_merge_tuned(const MergeArgs<Key, Value>& args, void* d_temp, cudaStream_t stream) {
  const std::int64_t total = args.a_size + args.b_size;
  if (total == 0) return;
  auto* partitions = static_cast<std::int64_t*>(d_temp);
  launch_merge_partition(args.a_keys, args.a_size, args.b_keys, args.b_size, Policy::block_items,
                         partitions, stream);
  merge_tuned_kernel<Policy><<<grid_size(ceil_div(total, Policy::block_items)), Policy::block_threads, 0,
                               stream>>>(args, partitions);
  check_launch("merge_tuned_kernel");
}

}  // namespace corank::gpu
