#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/key_sort.cuh"

namespace corank::gpu {

namespace {

struct alignas(16) KeyWords2 {
  std::uint64_t w[2];
};
static_assert(sizeof(KeyWords2) == 16);

// CUB's custom-key hook: the leftmost tuple element is the most significant.
struct KeyWords2Decomposer {
  __host__ __device__ ::cuda::std::tuple<std::uint64_t&, std::uint64_t&> operator()(KeyWords2& k) const {
    return {k.w[0], k.w[1]};
  }
};

}  // namespace

template <>
int sort_key_index_pairs<2>(void* d_temp, std::size_t& temp_bytes, std::uint64_t* const keys[2],
                            std::uint32_t* const index[2], std::int64_t n, unsigned key_bits, cudaStream_t stream) {
  // The key arrays are cudaMalloc'd and hold whole pairs of words, so they are
  // 16-byte aligned arrays of KeyWords2.
  cub::DoubleBuffer<KeyWords2> k(reinterpret_cast<KeyWords2*>(keys[0]), reinterpret_cast<KeyWords2*>(keys[1]));
  cub::DoubleBuffer<std::uint32_t> v(index[0], index[1]);
  check_cuda(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, k, v, n, KeyWords2Decomposer{},
                                             static_cast<int>(128 - key_bits), 128, stream),
             "cub::DeviceRadixSort::SortPairs");
  return k.selector;
}

}  // namespace corank::gpu
