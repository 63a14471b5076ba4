#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>

#include <algorithm>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/pinned_buffer.cuh"
#include "corank/gpu/prefix_sort.cuh"
#include "corank/gpu/stream.cuh"

namespace corank::gpu {

namespace {

struct alignas(16) KeyWords4 {
  std::uint64_t w[PrefixSorter::kWords];
};
static_assert(sizeof(KeyWords4) == 32);

// CUB's custom-key hook: the leftmost tuple element is the most significant.
struct KeyWords4Decomposer {
  __host__ __device__ ::cuda::std::tuple<std::uint64_t&, std::uint64_t&, std::uint64_t&, std::uint64_t&> operator()(
      KeyWords4& k) const {
    return {k.w[0], k.w[1], k.w[2], k.w[3]};
  }
};

__global__ void iota_kernel(std::uint32_t* index, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) index[i] = static_cast<std::uint32_t>(i);
}

// Keys per staging buffer: 32 MiB, large enough for full-speed copies.
constexpr std::int64_t kStagingKeys = std::int64_t{1} << 20;

std::size_t radix_temp_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  cub::DoubleBuffer<KeyWords4> keys(nullptr, nullptr);
  cub::DoubleBuffer<std::uint32_t> values(nullptr, nullptr);
  check_cuda(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, KeyWords4Decomposer{}, 0, 256),
             "cub::DeviceRadixSort::SortPairs (temp size)");
  return bytes;
}

}  // namespace

struct PrefixSorter::Impl {
  std::uint64_t budget = 0;
  std::uint64_t max_records = 0;
  Stream stream;
  PinnedBuffer<KeyWords4> staging[2];
  Event staged[2];  // staging[i] may be packed again
  Event t0, t1, t2, t3;
  PrefixSortTimes times;
};

PrefixSorter::PrefixSorter(std::uint64_t device_budget) {
  check_cuda(cudaFree(nullptr), "cudaFree (context start-up)");
  std::size_t free_bytes = 0, total_bytes = 0;
  check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const std::uint64_t budget = device_budget ? std::min<std::uint64_t>(device_budget, free_bytes) : free_bytes / 100 * 85;
  // Two key buffers and two index buffers (CUB's double buffers), and CUB's
  // temporary storage, which is small next to them; a 64 MiB margin covers it.
  constexpr std::uint64_t kPerRecord = 2 * sizeof(KeyWords4) + 2 * sizeof(std::uint32_t);
  constexpr std::uint64_t kMargin = std::uint64_t{64} << 20;
  if (budget <= kMargin + kPerRecord) throw CudaError(cudaErrorMemoryAllocation, "device budget too small to sort prefixes");
  impl_ = std::make_unique<Impl>();
  impl_->budget = budget;
  impl_->max_records = std::min<std::uint64_t>((budget - kMargin) / kPerRecord, UINT32_MAX);
  for (auto& s : impl_->staging) s = PinnedBuffer<KeyWords4>(kStagingKeys);
}

PrefixSorter::~PrefixSorter() = default;

std::uint64_t PrefixSorter::max_records() const noexcept { return impl_->max_records; }

PrefixSortTimes PrefixSorter::times() const noexcept { return impl_->times; }

void PrefixSorter::sort(std::uint64_t n, const Pack& pack, unsigned key_bits, std::uint32_t* order) {
  if (n > impl_->max_records) throw CudaError(cudaErrorInvalidValue, "PrefixSorter::sort: more keys than max_records()");
  if (n == 0) return;
  Impl& m = *impl_;
  const cudaStream_t s = m.stream.get();
  const auto count = static_cast<std::int64_t>(n);
  DeviceBuffer<KeyWords4> keys[2] = {DeviceBuffer<KeyWords4>(count), DeviceBuffer<KeyWords4>(count)};
  DeviceBuffer<std::uint32_t> index[2] = {DeviceBuffer<std::uint32_t>(count), DeviceBuffer<std::uint32_t>(count)};
  const std::size_t temp_bytes = radix_temp_bytes(count);
  DeviceBuffer<std::byte> temp(static_cast<std::int64_t>(temp_bytes));

  m.t0.record(s);
  for (std::int64_t first = 0, piece = 0; first < count; first += kStagingKeys, ++piece) {
    const std::int64_t k = std::min(kStagingKeys, count - first);
    const int b = static_cast<int>(piece % 2);
    if (piece >= 2) m.staged[b].synchronize();  // its copy two pieces ago is done
    pack(static_cast<std::uint64_t>(first), static_cast<std::uint64_t>(k), m.staging[b].data()->w);
    check_cuda(cudaMemcpyAsync(keys[0].data() + first, m.staging[b].data(), static_cast<std::size_t>(k) * sizeof(KeyWords4),
                               cudaMemcpyHostToDevice, s),
               "cudaMemcpyAsync (prefixes in)");
    m.staged[b].record(s);
  }
  m.t1.record(s);
  constexpr int kThreads = 256;
  iota_kernel<<<static_cast<unsigned>((count + kThreads - 1) / kThreads), kThreads, 0, s>>>(index[0].data(), count);
  check_launch("iota_kernel");
  cub::DoubleBuffer<KeyWords4> kb(keys[0].data(), keys[1].data());
  cub::DoubleBuffer<std::uint32_t> vb(index[0].data(), index[1].data());
  std::size_t temp_size = temp_bytes;
  const int end_bit = static_cast<int>(std::min(key_bits, 256u));
  if (end_bit > 0) {
    check_cuda(cub::DeviceRadixSort::SortPairs(temp.data(), temp_size, kb, vb, count, KeyWords4Decomposer{}, 0, end_bit, s),
               "cub::DeviceRadixSort::SortPairs");
  }
  m.t2.record(s);
  check_cuda(cudaMemcpyAsync(order, vb.Current(), static_cast<std::size_t>(count) * sizeof(std::uint32_t),
                             cudaMemcpyDeviceToHost, s),
             "cudaMemcpyAsync (order out)");
  m.t3.record(s);
  m.stream.synchronize();
  m.times.h2d_ms += m.t1.elapsed_ms_since(m.t0);
  m.times.sort_ms += m.t2.elapsed_ms_since(m.t1);
  m.times.d2h_ms += m.t3.elapsed_ms_since(m.t2);
  m.times.h2d_bytes += static_cast<double>(count) * sizeof(KeyWords4);
  m.times.d2h_bytes += static_cast<double>(count) * sizeof(std::uint32_t);
}

}  // namespace corank::gpu
