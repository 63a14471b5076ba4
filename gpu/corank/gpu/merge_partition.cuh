// Partition step shared by the tiled, circular and tuned merges: the co-rank
// of every block boundary, so each block knows its A and B ranges.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>

#include "corank/gpu/co_rank.cuh"
#include "corank/gpu/cuda_error.cuh"

namespace corank::gpu {

// partitions[p] = co_rank(min(p * block_items, m + n)) for p in [0, num_partitions).
template <class Key>
__global__ void merge_partition_kernel(const Key* a, std::int64_t m, const Key* b, std::int64_t n,
                                       std::int64_t block_items, std::int64_t num_partitions,
                                       std::int64_t* partitions) {
  const std::int64_t p = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= num_partitions) return;
  const std::int64_t diag = p * block_items < m + n ? p * block_items : m + n;
  partitions[p] = co_rank(diag, a, m, b, n);
}

inline std::int64_t ceil_div(std::int64_t x, std::int64_t y) { return (x + y - 1) / y; }

// Grids are 1-D; 2^31-1 blocks of >= 1024 items covers any input that fits in memory.
inline unsigned grid_size(std::int64_t blocks) {
  if (blocks > 0x7fffffff) throw std::length_error("corank::gpu::merge: input too large for one grid");
  return static_cast<unsigned>(blocks);
}

inline std::int64_t merge_partition_count(std::int64_t total, std::int64_t block_items) {
  return ceil_div(total, block_items) + 1;
}

template <class Key>
void launch_merge_partition(const Key* a, std::int64_t m, const Key* b, std::int64_t n,
                            std::int64_t block_items, std::int64_t* partitions, cudaStream_t stream) {
  constexpr int threads = 256;
  const std::int64_t count = merge_partition_count(m + n, block_items);
  merge_partition_kernel<<<grid_size(ceil_div(count, threads)), threads, 0, stream>>>(
      a, m, b, n, block_items, count, partitions);
  check_launch("merge_partition_kernel");
}

}  // namespace corank::gpu
