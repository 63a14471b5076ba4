#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "corank/gpu/busy_time.hpp"
#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/merge.cuh"
#include "corank/gpu/pinned_buffer.cuh"
#include "corank/gpu/slab_merger.cuh"
#include "corank/gpu/stream.cuh"
#include "corank/gpu/word_key.cuh"

namespace corank::gpu {

namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::int64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// keys[j] = entries[j].key, values[j] = entries[j].pos.
template <unsigned W>
__global__ void split_entries_kernel(const std::uint64_t* entries, std::int64_t n, std::uint64_t* keys,
                                     std::uint64_t* values) {
  const std::int64_t j = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (unsigned w = 0; w < W; ++w) keys[j * W + w] = entries[j * (W + 1) + w];
  values[j] = entries[j * (W + 1) + W];
}

template <unsigned W>
__global__ void join_entries_kernel(const std::uint64_t* keys, const std::uint64_t* values, std::int64_t n,
                                    std::uint64_t* entries) {
  const std::int64_t j = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (unsigned w = 0; w < W; ++w) entries[j * (W + 1) + w] = keys[j * W + w];
  entries[j * (W + 1) + W] = values[j];
}

// Key128 compares w[0] first: the order of KeyEntry<2>'s key[0], key[1].
template <unsigned W>
using KeyOf = std::conditional_t<W == 1, std::uint64_t, Key128>;

template <unsigned W>
std::size_t merge_temp_bytes(std::int64_t n) {
  using Key = KeyOf<W>;
  std::size_t bytes = 0;
  merge<Key, std::uint64_t>(nullptr, bytes, DeviceSpan<const Key>(nullptr, n), DeviceSpan<const std::uint64_t>(nullptr, n),
                            DeviceSpan<const Key>(nullptr, 0), DeviceSpan<const std::uint64_t>(nullptr, 0),
                            DeviceSpan<Key>(nullptr, n), DeviceSpan<std::uint64_t>(nullptr, n), nullptr);
  return bytes;
}

// Merges [lo, mid) and [mid, hi) of src into [lo, hi) of dst.
template <unsigned W>
void merge_range(void* temp, std::size_t temp_bytes, const std::uint64_t* src_keys, const std::uint64_t* src_values,
                 std::uint64_t* dst_keys, std::uint64_t* dst_values, std::int64_t lo, std::int64_t mid,
                 std::int64_t hi, cudaStream_t stream) {
  using Key = KeyOf<W>;
  const Key* sk = reinterpret_cast<const Key*>(src_keys);
  Key* dk = reinterpret_cast<Key*>(dst_keys);
  merge<Key, std::uint64_t>(temp, temp_bytes, DeviceSpan<const Key>(sk + lo, mid - lo),
                            DeviceSpan<const std::uint64_t>(src_values + lo, mid - lo),
                            DeviceSpan<const Key>(sk + mid, hi - mid),
                            DeviceSpan<const std::uint64_t>(src_values + mid, hi - mid), DeviceSpan<Key>(dk + lo, hi - lo),
                            DeviceSpan<std::uint64_t>(dst_values + lo, hi - lo), stream);
}

}  // namespace

struct SlabMerger::Impl {
  struct Slot {
    Stream stream;
    PinnedBuffer<std::uint64_t> h_entries;  // staged in, then merged out
    DeviceBuffer<std::uint64_t> d_entries;
    DeviceBuffer<std::uint64_t> d_keys[2], d_values[2];
    DeviceBuffer<std::byte> d_temp;
    Event start, copied_in, merged, copied_out;
    bool pending = false;  // submitted, not yet taken
    bool copied = false;   // went to the device (a single segment does not)
    std::uint64_t seq = 0, n = 0;
  };

  unsigned words = 0;
  std::uint64_t slab = 0;
  std::uint64_t device_bytes = 0;
  std::size_t temp_bytes = 0;
  HostCopy copy;
  Slot slots[2];
  int next = 0;
  std::uint64_t submitted = 0;
  SlabMergeTimes times;
  Event origin;  // recorded once; slab intervals are measured from it
  BusyTime busy;

  std::uint64_t entry_words() const { return words + 1; }

  std::size_t temp_for(std::int64_t n) const { return words == 1 ? merge_temp_bytes<1>(n) : merge_temp_bytes<2>(n); }

  void split(Slot& s, std::int64_t n) {
    const cudaStream_t st = s.stream.get();
    if (words == 1)
      split_entries_kernel<1><<<blocks_for(n), kThreads, 0, st>>>(s.d_entries.data(), n, s.d_keys[0].data(),
                                                                    s.d_values[0].data());
    else
      split_entries_kernel<2><<<blocks_for(n), kThreads, 0, st>>>(s.d_entries.data(), n, s.d_keys[0].data(),
                                                                    s.d_values[0].data());
    check_launch("split_entries_kernel");
  }

  void join(Slot& s, int from, std::int64_t n) {
    const cudaStream_t st = s.stream.get();
    if (words == 1)
      join_entries_kernel<1><<<blocks_for(n), kThreads, 0, st>>>(s.d_keys[from].data(), s.d_values[from].data(), n,
                                                                   s.d_entries.data());
    else
      join_entries_kernel<2><<<blocks_for(n), kThreads, 0, st>>>(s.d_keys[from].data(), s.d_values[from].data(), n,
                                                                   s.d_entries.data());
    check_launch("join_entries_kernel");
  }

  // Pairwise rounds over the segment bounds; returns the buffer holding the result.
  int merge_rounds(Slot& s, std::vector<std::int64_t> bounds) {
    const cudaStream_t st = s.stream.get();
    int cur = 0;
    while (bounds.size() > 2) {
      std::vector<std::int64_t> next_bounds;
      const std::size_t m = bounds.size() - 1;  // segments this round
      for (std::size_t j = 0; j < m; j += 2) {
        next_bounds.push_back(bounds[j]);
        if (j + 1 < m) {
          if (words == 1)
            merge_range<1>(s.d_temp.data(), s.d_temp.bytes(), s.d_keys[cur].data(), s.d_values[cur].data(),
                           s.d_keys[cur ^ 1].data(), s.d_values[cur ^ 1].data(), bounds[j], bounds[j + 1],
                           bounds[j + 2], st);
          else
            merge_range<2>(s.d_temp.data(), s.d_temp.bytes(), s.d_keys[cur].data(), s.d_values[cur].data(),
                           s.d_keys[cur ^ 1].data(), s.d_values[cur ^ 1].data(), bounds[j], bounds[j + 1],
                           bounds[j + 2], st);
        } else {
          // The odd one out moves to the other buffer as it is.
          const std::size_t len = static_cast<std::size_t>(bounds[j + 1] - bounds[j]);
          check_cuda(cudaMemcpyAsync(s.d_keys[cur ^ 1].data() + bounds[j] * words, s.d_keys[cur].data() + bounds[j] * words,
                                     len * words * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, st),
                     "cudaMemcpyAsync (keys, device to device)");
          check_cuda(cudaMemcpyAsync(s.d_values[cur ^ 1].data() + bounds[j], s.d_values[cur].data() + bounds[j],
                                     len * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, st),
                     "cudaMemcpyAsync (values, device to device)");
        }
      }
      next_bounds.push_back(bounds.back());
      bounds = std::move(next_bounds);
      cur ^= 1;
    }
    return cur;
  }
};

SlabMerger::SlabMerger(unsigned key_words, std::uint64_t max_slab_records, std::uint64_t device_budget,
                       HostCopy copy)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.words = key_words;
  m.copy = copy ? std::move(copy) : HostCopy([](void* d, const void* s, std::size_t b) { std::memcpy(d, s, b); });
  if (m.words < 1 || m.words > 2)
    throw CudaError(cudaErrorInvalidValue, "SlabMerger (key of " + std::to_string(m.words) + " words)");
  if (device_budget == 0) {
    std::size_t free = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    device_budget = free / 20 * 17;
  }
  // Device bytes an entry costs in one slot: the entry, and its key and value
  // in both ping-pong buffers.
  const std::uint64_t per_entry = 8 * m.entry_words() + 2 * 8 * m.words + 2 * 8;
  const std::uint64_t slot_budget = device_budget / 2;
  // Merge sizes are 64-bit, but keep a slab's kernel grid in range.
  constexpr std::uint64_t kMaxSlab = std::uint64_t{1} << 36;
  std::uint64_t slab = std::min({std::max<std::uint64_t>(max_slab_records, 1), kMaxSlab, slot_budget / per_entry});
  std::size_t temp = slab ? m.temp_for(static_cast<std::int64_t>(slab)) : 0;
  while (slab > 0 && slab * per_entry + temp > slot_budget) {
    slab = slab * 9 / 10;
    temp = slab ? m.temp_for(static_cast<std::int64_t>(slab)) : 0;
  }
  if (slab == 0)
    throw CudaError(cudaErrorMemoryAllocation,
                    "SlabMerger (a GPU budget of " + std::to_string(device_budget) + " bytes holds no slab)");
  m.slab = slab;
  m.temp_bytes = temp;
  for (auto& s : m.slots) {
    s.h_entries = PinnedBuffer<std::uint64_t>(static_cast<std::int64_t>(slab * m.entry_words()));
    s.d_entries = DeviceBuffer<std::uint64_t>(static_cast<std::int64_t>(slab * m.entry_words()));
    for (int b = 0; b < 2; ++b) {
      s.d_keys[b] = DeviceBuffer<std::uint64_t>(static_cast<std::int64_t>(slab * m.words));
      s.d_values[b] = DeviceBuffer<std::uint64_t>(static_cast<std::int64_t>(slab));
    }
    s.d_temp = DeviceBuffer<std::byte>(static_cast<std::int64_t>(std::max<std::size_t>(temp, 1)));
    m.device_bytes += slab * per_entry + temp;
  }
  m.origin.record(m.slots[0].stream.get());
}

SlabMerger::~SlabMerger() = default;

std::uint64_t SlabMerger::slab_records() const noexcept { return impl_->slab; }
unsigned SlabMerger::key_words() const noexcept { return impl_->words; }
std::uint64_t SlabMerger::device_bytes() const noexcept { return impl_->device_bytes; }
SlabMergeTimes SlabMerger::times() const noexcept { return impl_->times; }

void SlabMerger::submit(const std::uint64_t* const* segments, const std::uint64_t* lengths, std::size_t k) {
  Impl& m = *impl_;
  Impl::Slot& s = m.slots[m.next];
  if (s.pending) throw CudaError(cudaErrorInvalidValue, "SlabMerger::submit (two slabs are waiting to be taken)");
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < k; ++i) n += lengths[i];
  if (n > m.slab)
    throw CudaError(cudaErrorInvalidValue, "SlabMerger::submit (" + std::to_string(n) + " entries, slabs hold " +
                                               std::to_string(m.slab) + ")");
  m.next ^= 1;
  // The slot's last slab was taken, so its stream is idle: stage the segments
  // back to back, remembering where the non-empty ones start.
  const std::uint64_t ew = m.entry_words();
  std::vector<std::int64_t> bounds{0};
  std::uint64_t off = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (lengths[i] == 0) continue;
    m.copy(s.h_entries.data() + off * ew, segments[i], lengths[i] * ew * sizeof(std::uint64_t));
    off += lengths[i];
    bounds.push_back(static_cast<std::int64_t>(off));
  }
  const cudaStream_t st = s.stream.get();
  const auto count = static_cast<std::int64_t>(n);
  s.start.record(st);
  const bool merging = bounds.size() > 2;  // one segment is merged as it is
  if (merging)
    check_cuda(cudaMemcpyAsync(s.d_entries.data(), s.h_entries.data(), n * ew * sizeof(std::uint64_t),
                               cudaMemcpyHostToDevice, st),
               "cudaMemcpyAsync (entries to device)");
  s.copied_in.record(st);
  if (merging) {
    m.split(s, count);
    const int result = m.merge_rounds(s, std::move(bounds));
    m.join(s, result, count);
  }
  s.merged.record(st);
  if (merging)
    check_cuda(cudaMemcpyAsync(s.h_entries.data(), s.d_entries.data(), n * ew * sizeof(std::uint64_t),
                               cudaMemcpyDeviceToHost, st),
               "cudaMemcpyAsync (entries to host)");
  s.copied_out.record(st);
  s.pending = true;
  s.copied = merging;
  s.n = n;
  s.seq = m.submitted++;
}

std::uint64_t* SlabMerger::take(std::uint64_t& count) {
  Impl& m = *impl_;
  Impl::Slot* s = nullptr;
  for (auto& slot : m.slots)
    if (slot.pending && (s == nullptr || slot.seq < s->seq)) s = &slot;
  if (s == nullptr) throw CudaError(cudaErrorInvalidValue, "SlabMerger::take (no slab submitted)");
  s->pending = false;
  s->copied_out.synchronize();
  m.times.h2d_ms += s->copied_in.elapsed_ms_since(s->start);
  m.times.merge_ms += s->merged.elapsed_ms_since(s->copied_in);
  m.times.d2h_ms += s->copied_out.elapsed_ms_since(s->merged);
  m.busy.add(s->start.elapsed_ms_since(m.origin), s->copied_out.elapsed_ms_since(m.origin));
  m.times.busy_ms = m.busy.total_ms();
  if (s->copied) {
    const double bytes = static_cast<double>(s->n) * m.entry_words() * sizeof(std::uint64_t);
    m.times.h2d_bytes += bytes;
    m.times.d2h_bytes += bytes;
  }
  count = s->n;
  return s->h_entries.data();
}

}  // namespace corank::gpu
