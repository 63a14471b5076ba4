#include <algorithm>
#include <cstring>
#include <string>

#include "corank/gpu/busy_time.hpp"
#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/key_extract.cuh"
#include "corank/gpu/key_sort.cuh"
#include "corank/gpu/pinned_buffer.cuh"
#include "corank/gpu/run_sorter.cuh"
#include "corank/gpu/stream.cuh"

namespace corank::gpu {

namespace {

// entries[j] = (keys[j], pos_base + index[j]): KeyEntry<W>'s layout.
template <unsigned W>
__global__ void assemble_entries_kernel(const std::uint64_t* keys, const std::uint32_t* index, std::int64_t n,
                                        std::uint64_t pos_base, std::uint64_t* entries) {
  const std::int64_t j = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (unsigned w = 0; w < W; ++w) entries[j * (W + 1) + w] = keys[j * W + w];
  entries[j * (W + 1) + W] = pos_base + index[j];
}

void assemble_entries(unsigned words, const std::uint64_t* keys, const std::uint32_t* index, std::int64_t n,
                      std::uint64_t pos_base, std::uint64_t* entries, cudaStream_t stream) {
  constexpr unsigned kThreads = 256;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  if (words == 1)
    assemble_entries_kernel<1><<<blocks, kThreads, 0, stream>>>(keys, index, n, pos_base, entries);
  else
    assemble_entries_kernel<2><<<blocks, kThreads, 0, stream>>>(keys, index, n, pos_base, entries);
  check_launch("assemble_entries_kernel");
}

std::size_t sort_temp_bytes(unsigned words, std::int64_t n, unsigned key_bits) {
  std::size_t bytes = 0;
  if (words == 1)
    sort_key_index_pairs<1>(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, key_bits, nullptr);
  else
    sort_key_index_pairs<2>(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, key_bits, nullptr);
  return bytes;
}

// Index values are 32-bit.
constexpr std::uint64_t kMaxChunkRecords = (std::uint64_t{1} << 31) - 1;

}  // namespace

struct RunSorter::Impl {
  struct Slot {
    Stream stream;
    PinnedBuffer<std::byte> h_records;
    PinnedBuffer<std::uint64_t> h_entries;
    DeviceBuffer<std::byte> d_records;
    DeviceBuffer<std::uint64_t> d_keys_in, d_keys_out, d_entries;
    DeviceBuffer<std::uint32_t> d_index_in, d_index_out;
    DeviceBuffer<std::byte> d_temp;
    Event start, copied_in, sorted, copied_out;
    // The chunk in flight: its entries go to `out` once copied_out completes.
    bool pending = false;
    std::uint64_t n = 0;
    std::uint64_t* out = nullptr;
  };

  KeyLayout layout;
  unsigned words = 0;
  unsigned key_bits = 0;
  std::uint64_t chunk = 0;
  std::uint64_t device_bytes = 0;
  HostCopy copy;
  Slot slots[2];
  int next = 0;  // the slot the next submit uses; the other one is the newer
  StageTimes times;
  Event origin;  // recorded once; chunk intervals are measured from it
  BusyTime busy;

  std::uint64_t entry_words() const { return words + 1; }

  // Waits for the slot's chunk and copies its entries out of pinned staging.
  void complete(Slot& s) {
    if (!s.pending) return;
    s.pending = false;
    s.copied_out.synchronize();
    times.h2d_ms += s.copied_in.elapsed_ms_since(s.start);
    times.sort_ms += s.sorted.elapsed_ms_since(s.copied_in);
    times.d2h_ms += s.copied_out.elapsed_ms_since(s.sorted);
    busy.add(s.start.elapsed_ms_since(origin), s.copied_out.elapsed_ms_since(origin));
    times.busy_ms = busy.total_ms();
    times.h2d_bytes += static_cast<double>(s.n) * layout.record_size;
    times.d2h_bytes += static_cast<double>(s.n) * entry_words() * sizeof(std::uint64_t);
    copy(s.out, s.h_entries.data(), s.n * entry_words() * sizeof(std::uint64_t));
  }
};

RunSorter::RunSorter(const KeyLayout& layout, std::uint64_t max_chunk_records, std::uint64_t device_budget,
                     HostCopy copy)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.layout = layout;
  m.words = layout.key_words();
  m.key_bits = 8 * layout.key_bytes();
  m.copy = copy ? std::move(copy) : HostCopy([](void* d, const void* s, std::size_t b) { std::memcpy(d, s, b); });
  if (m.words < 1 || m.words > kMaxGpuKeyWords || layout.field_count > kMaxKeyFields)
    throw CudaError(cudaErrorInvalidValue, "RunSorter (key of " + std::to_string(m.words) + " words)");
  if (device_budget == 0) {
    std::size_t free = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    device_budget = free / 20 * 17;
  }
  // Device bytes a record costs in one slot: the record, keys and indices
  // double-buffered for the sort, and its entry.
  const std::uint64_t per_record = layout.record_size + 2 * 8 * m.words + 2 * 4 + 8 * m.entry_words();
  const std::uint64_t slot_budget = device_budget / 2;
  std::uint64_t chunk = std::min({std::max<std::uint64_t>(max_chunk_records, 1), kMaxChunkRecords,
                                  slot_budget / per_record});
  std::size_t temp = chunk ? sort_temp_bytes(m.words, chunk, m.key_bits) : 0;
  while (chunk > 0 && chunk * per_record + temp > slot_budget) {
    chunk = chunk * 9 / 10;
    temp = chunk ? sort_temp_bytes(m.words, chunk, m.key_bits) : 0;
  }
  if (chunk == 0)
    throw CudaError(cudaErrorMemoryAllocation,
                    "RunSorter (a GPU budget of " + std::to_string(device_budget) + " bytes holds no chunk)");
  m.chunk = chunk;
  for (auto& s : m.slots) {
    s.h_records = PinnedBuffer<std::byte>(chunk * layout.record_size);
    s.h_entries = PinnedBuffer<std::uint64_t>(chunk * m.entry_words());
    s.d_records = DeviceBuffer<std::byte>(chunk * layout.record_size);
    s.d_keys_in = DeviceBuffer<std::uint64_t>(chunk * m.words);
    s.d_keys_out = DeviceBuffer<std::uint64_t>(chunk * m.words);
    s.d_index_in = DeviceBuffer<std::uint32_t>(chunk);
    s.d_index_out = DeviceBuffer<std::uint32_t>(chunk);
    s.d_entries = DeviceBuffer<std::uint64_t>(chunk * m.entry_words());
    s.d_temp = DeviceBuffer<std::byte>(std::max<std::size_t>(temp, 1));
    m.device_bytes += chunk * per_record + temp;
  }
  m.origin.record(m.slots[0].stream.get());
}

RunSorter::~RunSorter() = default;

std::uint64_t RunSorter::chunk_records() const noexcept { return impl_->chunk; }
unsigned RunSorter::key_words() const noexcept { return impl_->words; }
std::uint64_t RunSorter::device_bytes() const noexcept { return impl_->device_bytes; }
StageTimes RunSorter::times() const noexcept { return impl_->times; }

void RunSorter::submit(const std::byte* records, std::uint64_t n, std::uint64_t pos_base, std::uint64_t* out) {
  Impl& m = *impl_;
  if (n > m.chunk)
    throw CudaError(cudaErrorInvalidValue, "RunSorter::submit (" + std::to_string(n) + " records, chunks hold " +
                                               std::to_string(m.chunk) + ")");
  if (n == 0) return;
  Impl::Slot& s = m.slots[m.next];
  m.next ^= 1;
  m.complete(s);

  const std::uint32_t R = m.layout.record_size;
  const cudaStream_t st = s.stream.get();
  const auto count = static_cast<std::int64_t>(n);
  m.copy(s.h_records.data(), records, n * R);
  s.start.record(st);
  check_cuda(cudaMemcpyAsync(s.d_records.data(), s.h_records.data(), n * R, cudaMemcpyHostToDevice, st),
             "cudaMemcpyAsync (records to device)");
  s.copied_in.record(st);
  extract_keys(m.layout, s.d_records.data(), count, s.d_keys_in.data(), s.d_index_in.data(), st);
  std::size_t temp = s.d_temp.bytes();
  if (m.words == 1)
    sort_key_index_pairs<1>(s.d_temp.data(), temp, s.d_keys_in.data(), s.d_keys_out.data(), s.d_index_in.data(),
                            s.d_index_out.data(), count, m.key_bits, st);
  else
    sort_key_index_pairs<2>(s.d_temp.data(), temp, s.d_keys_in.data(), s.d_keys_out.data(), s.d_index_in.data(),
                            s.d_index_out.data(), count, m.key_bits, st);
  assemble_entries(m.words, s.d_keys_out.data(), s.d_index_out.data(), count, pos_base, s.d_entries.data(), st);
  s.sorted.record(st);
  check_cuda(cudaMemcpyAsync(s.h_entries.data(), s.d_entries.data(), n * m.entry_words() * sizeof(std::uint64_t),
                             cudaMemcpyDeviceToHost, st),
             "cudaMemcpyAsync (entries to host)");
  s.copied_out.record(st);
  s.pending = true;
  s.n = n;
  s.out = out;
}

void RunSorter::finish() {
  Impl& m = *impl_;
  m.complete(m.slots[m.next]);  // the older chunk first
  m.complete(m.slots[m.next ^ 1]);
}

}  // namespace corank::gpu
