#include <type_traits>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/merge.cuh"
#include "corank/gpu/segment_merge.cuh"
#include "corank/gpu/word_key.cuh"

namespace corank::gpu {

namespace {

// Key128 compares w[0] first: the order of two normalized key words.
template <unsigned W>
using KeyOf = std::conditional_t<W == 1, std::uint64_t, Key128>;

// Merges [lo, mid) and [mid, hi) of the src buffers into [lo, hi) of dst.
template <unsigned W>
void merge_range(void* temp, std::size_t temp_bytes, const std::uint64_t* src_keys, const std::uint32_t* src_values,
                 std::uint64_t* dst_keys, std::uint32_t* dst_values, std::int64_t lo, std::int64_t mid,
                 std::int64_t hi, cudaStream_t stream) {
  using Key = KeyOf<W>;
  const Key* sk = reinterpret_cast<const Key*>(src_keys);
  Key* dk = reinterpret_cast<Key*>(dst_keys);
  const DeviceSpan<const Key> a(sk + lo, mid - lo), b(sk + mid, hi - mid);
  const DeviceSpan<Key> c(dk + lo, hi - lo);
  if (src_values == nullptr) {
    merge<Key>(temp, temp_bytes, a, b, c, stream);
  } else {
    merge<Key, std::uint32_t>(temp, temp_bytes, a, DeviceSpan<const std::uint32_t>(src_values + lo, mid - lo), b,
                              DeviceSpan<const std::uint32_t>(src_values + mid, hi - mid), c,
                              DeviceSpan<std::uint32_t>(dst_values + lo, hi - lo), stream);
  }
}

template <unsigned W>
std::size_t temp_bytes_for(std::int64_t n, bool with_values) {
  using Key = KeyOf<W>;
  std::size_t bytes = 0;
  const DeviceSpan<const Key> a(nullptr, n), b(nullptr, 0);
  const DeviceSpan<Key> c(nullptr, n);
  if (with_values)
    merge<Key, std::uint32_t>(nullptr, bytes, a, DeviceSpan<const std::uint32_t>(nullptr, n), b,
                              DeviceSpan<const std::uint32_t>(nullptr, 0), c, DeviceSpan<std::uint32_t>(nullptr, n),
                              nullptr);
  else
    merge<Key>(nullptr, bytes, a, b, c, nullptr);
  return bytes;
}

}  // namespace

std::size_t segment_merge_temp_bytes(unsigned words, std::int64_t n, bool with_values) {
  return words == 1 ? temp_bytes_for<1>(n, with_values) : temp_bytes_for<2>(n, with_values);
}

int merge_segments(unsigned words, void* d_temp, std::size_t temp_bytes, std::uint64_t* const keys[2],
                   std::uint32_t* const values[2], const std::int64_t* bounds_in, std::size_t count, cudaStream_t stream) {
  if (words != 1 && words != 2) throw CudaError(cudaErrorInvalidValue, "merge_segments (key of more than 2 words)");
  std::vector<std::int64_t> bounds(bounds_in, bounds_in + count);
  int cur = 0;
  while (bounds.size() > 2) {
    std::vector<std::int64_t> next_bounds;
    const std::size_t m = bounds.size() - 1;  // segments this round
    for (std::size_t j = 0; j < m; j += 2) {
      next_bounds.push_back(bounds[j]);
      if (j + 1 < m) {
        (words == 1 ? merge_range<1> : merge_range<2>)(d_temp, temp_bytes, keys[cur], values[cur], keys[cur ^ 1],
                                                        values[cur ^ 1], bounds[j], bounds[j + 1], bounds[j + 2],
                                                        stream);
      } else {
        // The odd one out moves to the other buffer as it is.
        const auto len = static_cast<std::size_t>(bounds[j + 1] - bounds[j]);
        check_cuda(cudaMemcpyAsync(keys[cur ^ 1] + bounds[j] * words, keys[cur] + bounds[j] * words,
                                   len * words * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, stream),
                   "cudaMemcpyAsync (keys, device to device)");
        if (values[cur] != nullptr)
          check_cuda(cudaMemcpyAsync(values[cur ^ 1] + bounds[j], values[cur] + bounds[j], len * sizeof(std::uint32_t),
                                     cudaMemcpyDeviceToDevice, stream),
                     "cudaMemcpyAsync (values, device to device)");
      }
    }
    next_bounds.push_back(bounds.back());
    bounds = std::move(next_bounds);
    cur ^= 1;
  }
  return cur;
}

}  // namespace corank::gpu
