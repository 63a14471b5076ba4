#include <cub/device/device_select.cuh>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/key_extract.cuh"
#include "corank/gpu/key_sort.cuh"
#include "corank/gpu/pinned_buffer.cuh"
#include "corank/gpu/record_sorter.cuh"
#include "corank/gpu/segment_merge.cuh"
#include "corank/gpu/stream.cuh"

namespace corank::gpu {

namespace {

constexpr unsigned kThreads = 256;
// Record indices are 32-bit; words-only sorts have none and are bounded only
// to keep kernel grids in range.
constexpr std::uint64_t kMaxRecordCapacity = (std::uint64_t{1} << 31) - 1;
constexpr std::uint64_t kMaxWordsCapacity = std::uint64_t{1} << 36;


unsigned blocks_for(std::int64_t n) { return static_cast<unsigned>(std::max<std::int64_t>(1, (n + kThreads - 1) / kThreads)); }

// flags[i] = 1 where record i's key differs from the one before it (for i = 0:
// from prev, when has_prev; else it is kept). Keys are sorted, so the flagged
// records are the first of each key.
template <unsigned W>
__global__ void first_of_key_kernel(const std::uint64_t* keys, std::int64_t n, const std::uint64_t* prev,
                                    bool has_prev, std::uint8_t* flags) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t* before = i > 0 ? keys + (i - 1) * W : prev;
  bool same = i > 0 || has_prev;
  for (unsigned w = 0; w < W && same; ++w) same = keys[i * W + w] == before[w];
  flags[i] = same ? 0 : 1;
}

// out record j = in record index[j], moved in units U (R / sizeof(U) per record).
template <class U>
__global__ void gather_kernel(const U* in, const std::uint32_t* index, std::int64_t n, std::uint32_t units, U* out) {
  const std::int64_t total = n * units;
  for (std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t j = t / units;
    out[t] = in[std::int64_t(index[j]) * units + (t - j * units)];
  }
}

template <class U>
void gather_as(const std::byte* in, const std::uint32_t* index, std::int64_t n, std::uint32_t R, std::byte* out,
               cudaStream_t stream) {
  const std::uint32_t units = R / sizeof(U);
  const std::int64_t total = n * units;
  const unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>((total + kThreads - 1) / kThreads, 1 << 16));
  gather_kernel<U><<<std::max(blocks, 1u), kThreads, 0, stream>>>(reinterpret_cast<const U*>(in), index, n, units,
                                                                  reinterpret_cast<U*>(out));
  check_launch("gather_kernel");
}

// Widest unit that divides the record (device buffers are 256-byte aligned).
void gather(const std::byte* in, const std::uint32_t* index, std::int64_t n, std::uint32_t R, std::byte* out,
            cudaStream_t stream) {
  if (n <= 0) return;
  if (R % 16 == 0)
    gather_as<uint4>(in, index, n, R, out, stream);
  else if (R % 8 == 0)
    gather_as<uint2>(in, index, n, R, out, stream);
  else if (R % 4 == 0)
    gather_as<std::uint32_t>(in, index, n, R, out, stream);
  else
    gather_as<std::uint8_t>(in, index, n, R, out, stream);
}

bool is_words_only(const KeyLayout& layout) noexcept {
  const KeyField& f = layout.fields[0];
  return layout.field_count == 1 && f.offset == 0 && f.length == layout.record_size &&
         (layout.record_size == 4 || layout.record_size == 8);
}

std::size_t select_temp_bytes(bool words, std::int64_t n) {
  std::size_t bytes = 0;
  const int items = static_cast<int>(std::min(n, RecordSorter::kSelectPiece));
  if (words)
    check_cuda(cub::DeviceSelect::Flagged(nullptr, bytes, static_cast<const std::uint64_t*>(nullptr),
                                          static_cast<const std::uint8_t*>(nullptr), static_cast<std::uint64_t*>(nullptr),
                                          static_cast<int*>(nullptr), items),
               "cub::DeviceSelect::Flagged");
  else
    check_cuda(cub::DeviceSelect::Flagged(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                          static_cast<const std::uint8_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
                                          static_cast<int*>(nullptr), items),
               "cub::DeviceSelect::Flagged");
  return bytes;
}

// The largest temporary storage any step of a sort of n records needs.
std::size_t temp_bytes_for(const KeyLayout& layout, std::int64_t n) {
  const bool words = is_words_only(layout);
  const unsigned W = layout.key_words();
  const unsigned key_bits = 8 * layout.key_bytes();
  std::size_t sort = 0;
  std::uint64_t* const no_keys[2] = {nullptr, nullptr};
  std::uint32_t* const no_index[2] = {nullptr, nullptr};
  if (words)
    sort_words(nullptr, sort, no_keys, n, key_bits, nullptr);
  else if (W == 1)
    sort_key_index_pairs<1>(nullptr, sort, no_keys, no_index, n, key_bits, nullptr);
  else
    sort_key_index_pairs<2>(nullptr, sort, no_keys, no_index, n, key_bits, nullptr);
  return std::max({sort, segment_merge_temp_bytes(W, n, !words), select_temp_bytes(words, n), std::size_t{1}});
}

// Device bytes per record, temporary storage aside.
std::uint64_t bytes_per_record(const KeyLayout& layout) {
  const std::uint64_t R = layout.record_size, W = layout.key_words();
  return 2 * R + 2 * 8 * W + (is_words_only(layout) ? 0 : 2 * 4) + 1;
}

}  // namespace

struct RecordSorter::Impl {
  KeyLayout layout;
  unsigned words = 0;
  unsigned key_bits = 0;
  bool words_only = false;
  std::uint64_t capacity = 0;
  std::uint64_t device_bytes = 0;
  TransferRing* ring = nullptr;
  DeviceBuffer<std::byte> d_in, d_out;
  DeviceBuffer<std::uint64_t> d_keys[2];
  DeviceBuffer<std::uint32_t> d_index[2];
  DeviceBuffer<std::uint8_t> d_flags;
  DeviceBuffer<std::uint64_t> d_prev;  // the last key the previous sort kept
  DeviceBuffer<int> d_selected;
  PinnedBuffer<int> h_selected;
  DeviceBuffer<std::byte> d_temp;
  bool has_prev = false;
  std::int64_t select_piece = RecordSorter::kSelectPiece;
  RecordSortTimes times;
  // presort(): its stream, the upload it waits for, and its last work, which
  // sort() waits for.
  Stream side;
  Event uploaded, presorted;
  bool presort_pending = false;

  ~Impl() {
    // Presorts may still run after an error: they end before the buffers go.
    (void)cudaStreamSynchronize(side.get());
  }

  cudaStream_t stream() const { return ring->stream(); }
  std::uint32_t R() const { return layout.record_size; }

  // Sorts keys[0] (and index[0]); returns the buffer holding the result.
  int order(std::int64_t n, const std::uint64_t* segment_ends, std::size_t k) {
    std::uint64_t* keys[2] = {d_keys[0].data(), d_keys[1].data()};
    std::uint32_t* index[2] = {d_index[0].data(), d_index[1].data()};
    if (k == 0) return radix_sort(keys, index, n, stream());
    // Empty segments add nothing to merge.
    std::vector<std::int64_t> bounds{0};
    for (std::size_t i = 0; i < k; ++i)
      if (static_cast<std::int64_t>(segment_ends[i]) > bounds.back())
        bounds.push_back(static_cast<std::int64_t>(segment_ends[i]));
    std::size_t temp = d_temp.bytes();
    std::uint32_t* no_values[2] = {nullptr, nullptr};
    return merge_segments(words, d_temp.data(), temp, keys, words_only ? no_values : index, bounds.data(),
                          bounds.size(), stream());
  }

  // Radix-sorts keys[0] (and index[0]) of n records on `s`; returns the
  // buffer holding the result.
  int radix_sort(std::uint64_t* const keys[2], std::uint32_t* const index[2], std::int64_t n, cudaStream_t s) {
    std::size_t temp = d_temp.bytes();
    if (words_only) return sort_words(d_temp.data(), temp, keys, n, key_bits, s);
    if (words == 1) return sort_key_index_pairs<1>(d_temp.data(), temp, keys, index, n, key_bits, s);
    return sort_key_index_pairs<2>(d_temp.data(), temp, keys, index, n, key_bits, s);
  }

  // Keeps the first record of each key of the ordered buffer `cur`; the kept
  // words or indices land in the other buffer. Returns the count kept.
  std::uint64_t select_first_of_keys(std::int64_t n, int cur, bool after_previous) {
    const std::uint64_t* keys = d_keys[cur].data();
    if (words == 1)
      first_of_key_kernel<1><<<blocks_for(n), kThreads, 0, stream()>>>(keys, n, d_prev.data(), after_previous,
                                                                       d_flags.data());
    else
      first_of_key_kernel<2><<<blocks_for(n), kThreads, 0, stream()>>>(keys, n, d_prev.data(), after_previous,
                                                                       d_flags.data());
    check_launch("first_of_key_kernel");
    // The last key is the last one kept (it equals the first of its run of equal keys).
    check_cuda(cudaMemcpyAsync(d_prev.data(), keys + (n - 1) * words, words * sizeof(std::uint64_t),
                               cudaMemcpyDeviceToDevice, stream()),
               "cudaMemcpyAsync (last key)");
    // Piece by piece, each appended where the last one's selection ended.
    std::uint64_t kept = 0;
    for (std::int64_t at = 0; at < n; at += select_piece) {
      const int items = static_cast<int>(std::min(select_piece, n - at));
      std::size_t temp = d_temp.bytes();
      if (words_only)
        check_cuda(cub::DeviceSelect::Flagged(d_temp.data(), temp, d_keys[cur].data() + at, d_flags.data() + at,
                                              d_keys[cur ^ 1].data() + kept, d_selected.data(), items, stream()),
                   "cub::DeviceSelect::Flagged");
      else
        check_cuda(cub::DeviceSelect::Flagged(d_temp.data(), temp, d_index[cur].data() + at, d_flags.data() + at,
                                              d_index[cur ^ 1].data() + kept, d_selected.data(), items, stream()),
                   "cub::DeviceSelect::Flagged");
      check_cuda(cudaMemcpyAsync(h_selected.data(), d_selected.data(), sizeof(int), cudaMemcpyDeviceToHost, stream()),
                 "cudaMemcpyAsync (selected count)");
      ring->synchronize();
      kept += static_cast<std::uint64_t>(h_selected[0]);
    }
    return kept;
  }
};

bool RecordSorter::words_only(const KeyLayout& layout) noexcept { return is_words_only(layout); }

std::uint64_t RecordSorter::device_bytes_for(const KeyLayout& layout, std::uint64_t capacity) {
  return capacity * bytes_per_record(layout) + temp_bytes_for(layout, static_cast<std::int64_t>(capacity)) +
         8 * kMaxGpuKeyWords + sizeof(int);
}

std::uint64_t RecordSorter::capacity_for(const KeyLayout& layout, std::uint64_t device_budget) {
  if (device_budget == 0) {
    std::size_t free = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    device_budget = free / 10 * 9;
  }
  const std::uint64_t most = is_words_only(layout) ? kMaxWordsCapacity : kMaxRecordCapacity;
  std::uint64_t c = std::min(most, device_budget / bytes_per_record(layout));
  while (c > 0 && device_bytes_for(layout, c) > device_budget) c = c / 20 * 19;
  return c;
}

RecordSorter::RecordSorter(const KeyLayout& layout, std::uint64_t capacity, TransferRing& ring,
                           std::int64_t select_piece)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.select_piece = std::clamp<std::int64_t>(select_piece, 1, kSelectPiece);
  m.layout = layout;
  m.words = layout.key_words();
  m.key_bits = 8 * layout.key_bytes();
  m.words_only = is_words_only(layout);
  m.ring = &ring;
  if (m.words < 1 || m.words > kMaxGpuKeyWords || layout.field_count > kMaxKeyFields)
    throw CudaError(cudaErrorInvalidValue, "RecordSorter (key of " + std::to_string(m.words) + " words)");
  if (capacity == 0 || capacity > (m.words_only ? kMaxWordsCapacity : kMaxRecordCapacity))
    throw CudaError(cudaErrorInvalidValue, "RecordSorter (capacity of " + std::to_string(capacity) + " records)");
  m.capacity = capacity;
  const auto n = static_cast<std::int64_t>(capacity);
  m.d_in = DeviceBuffer<std::byte>(n * layout.record_size);
  m.d_out = DeviceBuffer<std::byte>(n * layout.record_size);
  for (auto& k : m.d_keys) k = DeviceBuffer<std::uint64_t>(n * m.words);
  if (!m.words_only)
    for (auto& i : m.d_index) i = DeviceBuffer<std::uint32_t>(n);
  m.d_flags = DeviceBuffer<std::uint8_t>(n);
  m.d_prev = DeviceBuffer<std::uint64_t>(kMaxGpuKeyWords);
  m.d_selected = DeviceBuffer<int>(1);
  m.h_selected = PinnedBuffer<int>(1);
  m.d_temp = DeviceBuffer<std::byte>(static_cast<std::int64_t>(temp_bytes_for(layout, n)));
  m.device_bytes = device_bytes_for(layout, capacity);
}

RecordSorter::~RecordSorter() = default;

std::uint64_t RecordSorter::capacity() const noexcept { return impl_->capacity; }
std::uint64_t RecordSorter::device_bytes() const noexcept { return impl_->device_bytes; }
bool RecordSorter::words_only() const noexcept { return impl_->words_only; }
RecordSortTimes RecordSorter::times() const noexcept { return impl_->times; }

std::uint64_t RecordSorter::upload(std::uint64_t at, std::uint64_t max_records, const TransferRing::Fill& fill) {
  Impl& m = *impl_;
  if (at > m.capacity) throw CudaError(cudaErrorInvalidValue, "RecordSorter::upload (past the capacity)");
  max_records = std::min(max_records, m.capacity - at);
  return m.ring->upload(m.d_in.data() + at * m.R(), max_records * m.R(), m.R(), fill) / m.R();
}

void RecordSorter::presort(std::uint64_t at, std::uint64_t n) {
  Impl& m = *impl_;
  if (at > m.capacity || n > m.capacity - at)
    throw CudaError(cudaErrorInvalidValue, "RecordSorter::presort (past the capacity)");
  if (n == 0) return;
  const cudaStream_t side = m.side.get();
  m.uploaded.record(m.stream());
  check_cuda(cudaStreamWaitEvent(side, m.uploaded.get(), 0), "cudaStreamWaitEvent (presort)");
  m.ring->begin_mark(side);
  const auto count = static_cast<std::int64_t>(n);
  std::byte* records = m.d_in.data() + at * m.R();
  std::uint64_t* keys[2] = {m.d_keys[0].data() + at * m.words, m.d_keys[1].data() + at * m.words};
  std::uint32_t* index[2] = {nullptr, nullptr};
  if (!m.words_only) index[0] = m.d_index[0].data() + at, index[1] = m.d_index[1].data() + at;
  extract_keys(m.layout, records, count, keys[0], index[0], side);
  const int cur = m.radix_sort(keys, index, count, side);
  // Back into the input area, sorted: words turned back into records, or
  // records gathered beside it and copied back.
  if (m.words_only) {
    restore_records(m.layout, keys[cur], count, records, side);
  } else {
    std::byte* sorted = m.d_out.data() + at * m.R();
    gather(records, index[cur], count, m.R(), sorted, side);
    check_cuda(cudaMemcpyAsync(records, sorted, n * m.R(), cudaMemcpyDeviceToDevice, side),
               "cudaMemcpyAsync (presorted records)");
  }
  m.ring->end_mark(&m.times.sort_ms, side);
  m.presorted.record(side);
  m.presort_pending = true;
}

void RecordSorter::arrange(const Piece* pieces, std::size_t k) {
  Impl& m = *impl_;
  std::uint64_t to = 0;
  for (std::size_t i = 0; i < k; ++i)
    if (pieces[i].at > m.capacity || pieces[i].count > m.capacity - pieces[i].at || pieces[i].count > m.capacity - to)
      throw CudaError(cudaErrorInvalidValue, "RecordSorter::arrange (past the capacity)");
    else
      to += pieces[i].count;
  if (m.presort_pending) {
    check_cuda(cudaStreamWaitEvent(m.stream(), m.presorted.get(), 0), "cudaStreamWaitEvent (presorted)");
    m.presort_pending = false;
  }
  m.ring->begin_mark();
  to = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (pieces[i].count == 0) continue;
    check_cuda(cudaMemcpyAsync(m.d_out.data() + to * m.R(), m.d_in.data() + pieces[i].at * m.R(),
                               pieces[i].count * m.R(), cudaMemcpyDeviceToDevice, m.stream()),
               "cudaMemcpyAsync (arranged records)");
    to += pieces[i].count;
  }
  // Both areas hold capacity records: the output area becomes the input.
  std::swap(m.d_in, m.d_out);
  m.ring->end_mark(&m.times.sort_ms);
}

std::uint64_t RecordSorter::sort(std::uint64_t n, const std::uint64_t* segment_ends, std::size_t k, Unique unique) {
  Impl& m = *impl_;
  if (n > m.capacity)
    throw CudaError(cudaErrorInvalidValue, "RecordSorter::sort (" + std::to_string(n) + " records, capacity " +
                                               std::to_string(m.capacity) + ")");
  if (n == 0) return 0;
  if (k > 0 && segment_ends[k - 1] != n)
    throw CudaError(cudaErrorInvalidValue, "RecordSorter::sort (segments do not end at the input's end)");
  double* stage = k == 0 ? &m.times.sort_ms : &m.times.merge_ms;
  const auto count = static_cast<std::int64_t>(n);
  if (m.presort_pending) {
    check_cuda(cudaStreamWaitEvent(m.stream(), m.presorted.get(), 0), "cudaStreamWaitEvent (presorted)");
    m.presort_pending = false;
  }
  m.ring->begin_mark();
  extract_keys(m.layout, m.d_in.data(), count, m.d_keys[0].data(), m.words_only ? nullptr : m.d_index[0].data(),
               m.stream());
  int cur = m.order(count, segment_ends, k);
  std::uint64_t kept = n;
  if (unique != Unique::none) {
    m.ring->end_mark(stage);
    kept = m.select_first_of_keys(count, cur, unique == Unique::continued && m.has_prev);
    m.has_prev = true;
    m.ring->begin_mark();
  }
  // The records in output order: from the kept words, or gathered by index.
  const int from = unique == Unique::none ? cur : cur ^ 1;
  if (m.words_only)
    restore_records(m.layout, m.d_keys[from].data(), static_cast<std::int64_t>(kept), m.d_out.data(), m.stream());
  else
    gather(m.d_in.data(), m.d_index[unique == Unique::none ? cur : cur ^ 1].data(), static_cast<std::int64_t>(kept),
           m.R(), m.d_out.data(), m.stream());
  m.ring->end_mark(stage);
  m.ring->synchronize();
  return kept;
}

void RecordSorter::download(std::uint64_t count, const TransferRing::Drain& drain) {
  Impl& m = *impl_;
  if (count > m.capacity) throw CudaError(cudaErrorInvalidValue, "RecordSorter::download (past the capacity)");
  m.ring->download(m.d_out.data(), count * m.R(), m.R(), drain);
}

}  // namespace corank::gpu
