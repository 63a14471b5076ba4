// tiled merge: a partition kernel fixes each block's A and B ranges; the
// block walks its outputs one tile at a time, loading the next tile_items of
// A and of B into shared memory with coalesced loads. Each step consumes
// tile_items outputs in total, so about half of what was loaded is discarded
// and loaded again next step: the cost the circular variant removes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "corank/gpu/co_rank.cuh"
#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/merge_args.cuh"
#include "corank/gpu/merge_partition.cuh"
#include "corank/gpu/serial_merge.cuh"

namespace corank::gpu {

// The tile step both tiled variants share: with `out` outputs to produce and
// windows a/b (a_len, b_len elements, indexable from 0), each thread merges
// its items_per_thread share into the shared staging tile (values gathered
// from global by source index). Returns how many of the outputs came from A.
// Every thread computes that count itself, which is cheaper than
// broadcasting it through shared memory and a barrier.
template <class Policy, class Key, class Value, class ViewA, class ViewB>
__device__ __forceinline__ int merge_tile_step(const ViewA& a, int a_len, const ViewB& b, int b_len, int out,
                                               Key* staged_keys, Value* staged_values, const Value* a_values,
                                               const Value* b_values) {
  constexpr int ipt = Policy::items_per_thread;
  const int k0 = int(threadIdx.x) * ipt < out ? int(threadIdx.x) * ipt : out;
  const int k1 = k0 + ipt < out ? k0 + ipt : out;
  const int i0 = co_rank(k0, a, a_len, b, b_len);
  const int i1 = co_rank(k1, a, a_len, b, b_len);
  serial_merge(a, i0, i1, b, k0 - i0, k1 - i1, [&](int p, const Key& key, bool from_b, int src) {
    staged_keys[k0 + p] = key;
    if constexpr (!std::is_same_v<Value, NoValue>) {
      staged_values[k0 + p] = from_b ? b_values[src] : a_values[src];
    }
  });
  return co_rank(out, a, a_len, b, b_len);
}

// Shared memory of both tiled variants: the A and B tiles and the staging
// tile that turns each thread's contiguous outputs into coalesced stores.
template <class Key, class Value, int Tile>
struct TileStorage {
  Key a[Tile];
  Key b[Tile];
  Key out[Tile];
  Value out_values[Tile];
};
template <class Key, int Tile>
struct TileStorage<Key, NoValue, Tile> {
  Key a[Tile];
  Key b[Tile];
  Key out[Tile];
  static constexpr NoValue* out_values = nullptr;  // no storage; keeps one code path
};

// Staging tile -> global, consecutive threads on consecutive addresses.
template <int NT, class Key, class Value, class Storage>
__device__ __forceinline__ void store_staged(const Storage& smem, int out, Key* c, Value* cv) {
  for (int i = threadIdx.x; i < out; i += NT) c[i] = smem.out[i];
  if constexpr (!std::is_same_v<Value, NoValue>) {
    for (int i = threadIdx.x; i < out; i += NT) cv[i] = smem.out_values[i];
  }
}

// The block's own slice of the problem, from the partition boundaries.
struct BlockRange {
  std::int64_t a_begin, b_begin, c_begin;
  int a_count, b_count, count;

  __device__ static BlockRange make(std::int64_t block, std::int64_t block_items, std::int64_t total,
                                    const std::int64_t* partitions) {
    const std::int64_t c0 = block * block_items;
    const std::int64_t c1 = c0 + block_items < total ? c0 + block_items : total;
    const std::int64_t a0 = partitions[block];
    const std::int64_t a1 = partitions[block + 1];
    return {a0, c0 - a0, c0, int(a1 - a0), int((c1 - a1) - (c0 - a0)), int(c1 - c0)};
  }
};

template <class Policy, class Key, class Value>
struct TiledMergeAgent {
  static constexpr int nt = Policy::block_threads;
  static constexpr int tile = Policy::tile_items;
  static constexpr bool has_values = MergeArgs<Key, Value>::has_values;

  using TempStorage = TileStorage<Key, Value, tile>;
  static_assert(sizeof(TempStorage) <= 48 * 1024, "tiled merge tile exceeds static shared memory");

  TempStorage& smem;
  const MergeArgs<Key, Value>& args;

  __device__ void run(std::int64_t block, const std::int64_t* partitions) {
    const BlockRange r =
        BlockRange::make(block, Policy::block_items, args.a_size + args.b_size, partitions);
    const Key* a = args.a_keys + r.a_begin;
    const Key* b = args.b_keys + r.b_begin;
    int a_pos = 0;
    int b_pos = 0;
    for (int c_pos = 0; c_pos < r.count;) {
      const int a_len = r.a_count - a_pos < tile ? r.a_count - a_pos : tile;
      const int b_len = r.b_count - b_pos < tile ? r.b_count - b_pos : tile;
      for (int i = threadIdx.x; i < a_len; i += nt) smem.a[i] = a[a_pos + i];
      for (int i = threadIdx.x; i < b_len; i += nt) smem.b[i] = b[b_pos + i];
      __syncthreads();
      const int out = r.count - c_pos < tile ? r.count - c_pos : tile;
      const Value* av = has_values ? args.a_values + r.a_begin + a_pos : nullptr;
      const Value* bv = has_values ? args.b_values + r.b_begin + b_pos : nullptr;
      Value* cv = has_values ? args.c_values + r.c_begin + c_pos : nullptr;
      const int a_used = merge_tile_step<Policy>(smem.a, a_len, smem.b, b_len, out, smem.out,
                                                 smem.out_values, av, bv);
      __syncthreads();  // staging complete; the next load may overwrite the tiles
      store_staged<nt>(smem, out, args.c_keys + r.c_begin + c_pos, cv);
      a_pos += a_used;
      b_pos += out - a_used;
      c_pos += out;
    }
  }
};

template <class Policy, class Key, class Value>
__global__ void __launch_bounds__(Policy::block_threads)
    merge_tiled_kernel(MergeArgs<Key, Value> args, const std::int64_t* partitions) {
  using Agent = TiledMergeAgent<Policy, Key, Value>;
  __shared__ typename Agent::TempStorage smem;
  Agent{smem, args}.run(blockIdx.x, partitions);
}

template <class Policy>
std::size_t merge_partitioned_temp_bytes(std::int64_t total) {
  return std::size_t(merge_partition_count(total, Policy::block_items)) * sizeof(std::int64_t);
}

template <class Policy, class Key, class Value>
void dispatch_merge_tiled(const MergeArgs<Key, Value>& args, void* d_temp, cudaStream_t stream) {
  const std::int64_t total = args.a_size + args.b_size;
  if (total == 0) return;
  auto* partitions = static_cast<std::int64_t*>(d_temp);
  launch_merge_partition(args.a_keys, args.a_size, args.b_keys, args.b_size, Policy::block_items,
                         partitions, stream);
  merge_tiled_kernel<Policy><<<grid_size(ceil_div(total, Policy::block_items)), Policy::block_threads, 0,
                               stream>>>(args, partitions);
  check_launch("merge_tiled_kernel");
}

}  // namespace corank::gpu
