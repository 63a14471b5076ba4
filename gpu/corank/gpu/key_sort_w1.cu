#include <cub/device/device_radix_sort.cuh>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/key_sort.cuh"

namespace corank::gpu {

template <>
int sort_key_index_pairs<1>(void* d_temp, std::size_t& temp_bytes, std::uint64_t* const keys[2],
                            std::uint32_t* const index[2], std::int64_t n, unsigned key_bits, cudaStream_t stream) {
  cub::DoubleBuffer<std::uint64_t> k(keys[0], keys[1]);
  cub::DoubleBuffer<std::uint32_t> v(index[0], index[1]);
  check_cuda(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, k, v, n, static_cast<int>(64 - key_bits), 64, stream),
             "cub::DeviceRadixSort::SortPairs");
  return k.selector;
}

int sort_words(void* d_temp, std::size_t& temp_bytes, std::uint64_t* const keys[2], std::int64_t n, unsigned key_bits,
               cudaStream_t stream) {
  cub::DoubleBuffer<std::uint64_t> k(keys[0], keys[1]);
  check_cuda(cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, k, n, static_cast<int>(64 - key_bits), 64, stream),
             "cub::DeviceRadixSort::SortKeys");
  return k.selector;
}

}  // namespace corank::gpu
