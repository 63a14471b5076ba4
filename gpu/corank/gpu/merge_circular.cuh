// circular merge: the tiled merge with circular tiles. The A and B tiles are
// rings of tile_items slots (circular_tile.cuh); after each step only the
// consumed slots are refilled, so every input element is loaded from global
// memory once instead of about twice.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "corank/gpu/circular_tile.cuh"
#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/merge_args.cuh"
#include "corank/gpu/merge_partition.cuh"
#include "corank/gpu/merge_tiled.cuh"

namespace corank::gpu {

template <class Policy, class Key, class Value>
struct CircularMergeAgent {
  static constexpr int nt = Policy::block_threads;
  static constexpr int tile = Policy::tile_items;
  static constexpr bool has_values = MergeArgs<Key, Value>::has_values;
  using Index = CircularIndex<tile>;
  using View = CircularView<Key, tile>;

  using TempStorage = TileStorage<Key, Value, tile>;
  static_assert(sizeof(TempStorage) <= 48 * 1024, "circular merge tile exceeds static shared memory");

  TempStorage& smem;
  const MergeArgs<Key, Value>& args;

  __device__ static void refill(Key* ring, CircularWindow<tile>& w, const Key* src) {
    const int end = w.refill_end();
    for (int v = w.loaded + int(threadIdx.x); v < end; v += nt) ring[Index::slot(v)] = src[v];
    w.mark_loaded();
  }

  __device__ void run(std::int64_t block, const std::int64_t* partitions) {
    const BlockRange r =
        BlockRange::make(block, Policy::block_items, args.a_size + args.b_size, partitions);
    const Key* a = args.a_keys + r.a_begin;
    const Key* b = args.b_keys + r.b_begin;
    CircularWindow<tile> wa(r.a_count);
    CircularWindow<tile> wb(r.b_count);
    for (int c_pos = 0; c_pos < r.count;) {
      refill(smem.a, wa, a);
      refill(smem.b, wb, b);
      __syncthreads();
      const int out = r.count - c_pos < tile ? r.count - c_pos : tile;
      const Value* av = has_values ? args.a_values + r.a_begin + wa.head : nullptr;
      const Value* bv = has_values ? args.b_values + r.b_begin + wb.head : nullptr;
      Value* cv = has_values ? args.c_values + r.c_begin + c_pos : nullptr;
      const int a_used = merge_tile_step<Policy>(View{smem.a, wa.head}, wa.size(), View{smem.b, wb.head},
                                                 wb.size(), out, smem.out, smem.out_values, av, bv);
      __syncthreads();  // staging complete; the refill may overwrite the consumed slots
      store_staged<nt>(smem, out, args.c_keys + r.c_begin + c_pos, cv);
      wa.consume(a_used);
      wb.consume(out - a_used);
      c_pos += out;
    }
  }
};

template <class Policy, class Key, class Value>
__global__ void __launch_bounds__(Policy::block_threads)
    merge_circular_kernel(MergeArgs<Key, Value> args, const std::int64_t* partitions) {
  using Agent = CircularMergeAgent<Policy, Key, Value>;
  __shared__ typename Agent::TempStorage smem;
  Agent{smem, args}.run(blockIdx.x, partitions);
}

template <class Policy, class Key, class Value>
void dispatch_merge_circular(const MergeArgs<Key, Value>& args, void* d_temp, cudaStream_t stream) {
  const std::int64_t total = args.a_size + args.b_size;
  if (total == 0) return;
  auto* partitions = static_cast<std::int64_t*>(d_temp);
  launch_merge_partition(args.a_keys, args.a_size, args.b_keys, args.b_size, Policy::block_items,
                         partitions, stream);
  merge_circular_kernel<Policy><<<grid_size(ceil_div(total, Policy::block_items)), Policy::block_threads,
                                  0, stream>>>(args, partitions);
  check_launch("merge_circular_kernel");
}

}  // namespace corank::gpu
