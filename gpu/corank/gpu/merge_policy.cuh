// Tuning knobs of the merge kernels, one policy type per variant, and the
// defaults chosen per key and value width. The benchmark sweeps the tuned
// policy; kernels never hard-code these numbers.
#pragma once

#include <cstdint>
#include <type_traits>

namespace corank::gpu {

// Value type of a keys-only merge.
struct NoValue {};

// basic: every thread co-ranks its own items_per_thread outputs in global memory.
template <int BlockThreads, int ItemsPerThread>
struct BasicPolicy {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr std::int64_t block_items = std::int64_t(BlockThreads) * ItemsPerThread;
};

// tiled / circular: a block owns block_items outputs (one co-rank per block
// boundary from the partition kernel) and walks them in steps of tile_items,
// holding up to tile_items of A and of B in shared memory.
template <int BlockThreads, int TileItems, int TilesPerBlock>
struct TiledPolicy {
  static_assert(TileItems % BlockThreads == 0, "each thread merges an equal share of a tile");
  static constexpr int block_threads = BlockThreads;
  static constexpr int tile_items = TileItems;
  static constexpr int items_per_thread = TileItems / BlockThreads;
  static constexpr std::int64_t block_items = std::int64_t(TileItems) * TilesPerBlock;
};

// tuned: one tile of block_threads * items_per_thread outputs per block; the
// odd item count keeps the strided shared-memory staging free of bank
// conflicts for 4-byte words. Streaming: evict-first loads and stores.
template <int BlockThreads, int ItemsPerThread, bool Streaming = false>
struct TunedPolicy {
  static_assert(ItemsPerThread % 2 == 1, "items per thread must be odd");
  static constexpr bool streaming = Streaming;
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr std::int64_t block_items = tile_items;
};

// Default tuned policy by key and value width (0: keys only). The four
// marked rows are the winners of `corank-bench merge --sweep` on an H100 at
// 2^27 + 2^27 (BENCHMARKS.md): wider blocks and more items per thread than
// moderngpu's 128 x 15 won everywhere, evict-first hints lost everywhere.
// The other rows are extrapolated by bytes per item and shared-memory fit.
template <int KeyBytes, int ValueBytes>
struct DefaultTunedPolicy {
  using type = TunedPolicy<256, 7>;
};
template <>
struct DefaultTunedPolicy<4, 0> {  // measured
  using type = TunedPolicy<256, 31>;
};
template <>
struct DefaultTunedPolicy<8, 0> {  // measured
  using type = TunedPolicy<256, 23>;
};
template <>
struct DefaultTunedPolicy<16, 0> {  // measured
  using type = TunedPolicy<384, 7>;
};
template <>
struct DefaultTunedPolicy<4, 4> {
  using type = TunedPolicy<256, 15>;
};
template <>
struct DefaultTunedPolicy<4, 8> {
  using type = TunedPolicy<256, 11>;
};
template <>
struct DefaultTunedPolicy<8, 4> {
  using type = TunedPolicy<256, 11>;
};
template <>
struct DefaultTunedPolicy<8, 8> {  // measured
  using type = TunedPolicy<256, 11>;
};

template <class Key, class Value>
struct DefaultMergePolicies {
  static constexpr bool has_values = !std::is_same_v<Value, NoValue>;

  using basic = BasicPolicy<256, 8>;
  // 16-byte keys get half the tile so A, B and the staging tile fit in 48 KB.
  static constexpr int tile = sizeof(Key) > 8 ? 512 : 1024;
  using tiled = TiledPolicy<128, tile, 8>;
  using circular = TiledPolicy<128, tile, 8>;
  using tuned = typename DefaultTunedPolicy<int(sizeof(Key)), has_values ? int(sizeof(Value)) : 0>::type;
};

}  // namespace corank::gpu
