#include <cub/device/device_radix_sort.cuh>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/key_sort.cuh"

namespace corank::gpu {

template <>
void sort_key_index_pairs<1>(void* d_temp, std::size_t& temp_bytes, const std::uint64_t* d_keys_in,
                             std::uint64_t* d_keys_out, const std::uint32_t* d_index_in, std::uint32_t* d_index_out,
                             std::int64_t n, unsigned key_bits, cudaStream_t stream) {
  check_cuda(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_index_in, d_index_out, n,
                                             static_cast<int>(64 - key_bits), 64, stream),
             "cub::DeviceRadixSort::SortPairs");
}

void sort_words(void* d_temp, std::size_t& temp_bytes, const std::uint64_t* d_keys_in, std::uint64_t* d_keys_out,
                std::int64_t n, unsigned key_bits, cudaStream_t stream) {
  check_cuda(cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, n,
                                            static_cast<int>(64 - key_bits), 64, stream),
             "cub::DeviceRadixSort::SortKeys");
}

}  // namespace corank::gpu
