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
void sort_key_index_pairs<2>(void* d_temp, std::size_t& temp_bytes, const std::uint64_t* d_keys_in,
                             std::uint64_t* d_keys_out, const std::uint32_t* d_index_in, std::uint32_t* d_index_out,
                             std::int64_t n, unsigned key_bits, cudaStream_t stream) {
  // The key arrays are cudaMalloc'd and hold whole pairs of words, so they are
  // 16-byte aligned arrays of KeyWords2.
  check_cuda(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, reinterpret_cast<const KeyWords2*>(d_keys_in),
                                             reinterpret_cast<KeyWords2*>(d_keys_out), d_index_in, d_index_out, n,
                                             KeyWords2Decomposer{}, static_cast<int>(128 - key_bits), 128, stream),
             "cub::DeviceRadixSort::SortPairs");
}

}  // namespace corank::gpu
