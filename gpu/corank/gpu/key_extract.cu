#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/key_extract.cuh"

namespace corank::gpu {

namespace {

// The normalized key of one record, built byte by byte into W words.
template <unsigned W>
struct KeyWordsBuilder {
  std::uint64_t word[W] = {};
  unsigned pos = 0;
  __device__ void put(std::uint32_t byte) {
    word[pos / 8] |= std::uint64_t(byte & 0xFF) << (56 - 8 * (pos % 8));
    ++pos;
  }
};

template <unsigned W>
__device__ void normalize_field(const KeyField& f, const unsigned char* rec, KeyWordsBuilder<W>& out) {
  const unsigned char* p = rec + f.offset;
  const std::uint32_t flip = f.descending ? 0xFF : 0;
  if (f.type == KeyFieldType::Bytes) {
    for (std::uint32_t i = 0; i < f.length; ++i) out.put(__ldg(p + i) ^ flip);
    return;
  }
  const std::uint32_t w = f.length;  // 1, 2, 4 or 8
  std::uint64_t v = 0;
  if (f.big_endian) {
    for (std::uint32_t i = 0; i < w; ++i) v = (v << 8) | __ldg(p + i);
  } else {
    for (std::uint32_t i = 0; i < w; ++i) v |= std::uint64_t(__ldg(p + i)) << (8 * i);
  }
  const std::uint64_t sign = std::uint64_t{1} << (8 * w - 1);
  if (f.type == KeyFieldType::Int) {
    v ^= sign;  // two's complement onto offset binary
  } else if (f.type == KeyFieldType::Float) {
    v = (v & sign) ? ~v : (v | sign);  // IEEE total order
    if (w < 8) v &= (std::uint64_t{1} << (8 * w)) - 1;
  }
  for (std::uint32_t i = 0; i < w; ++i) out.put(static_cast<std::uint32_t>(v >> (8 * (w - 1 - i))) ^ flip);
}

template <unsigned W>
__global__ void extract_keys_kernel(KeyLayout layout, const unsigned char* records, std::int64_t n,
                                    std::uint64_t* keys, std::uint32_t* index) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned char* rec = records + i * layout.record_size;
  KeyWordsBuilder<W> key;
  for (std::uint32_t f = 0; f < layout.field_count; ++f) normalize_field(layout.fields[f], rec, key);
  for (unsigned w = 0; w < W; ++w) keys[i * W + w] = key.word[w];
  if (index != nullptr) index[i] = static_cast<std::uint32_t>(i);
}

// The inverse of normalize_field for a record that is one 4- or 8-byte field:
// the top `length` bytes of the word become the record again.
__global__ void restore_records_kernel(KeyField f, const std::uint64_t* words, std::int64_t n, unsigned char* records) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t w = f.length;  // 4 or 8
  const std::uint64_t mask = w == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * w)) - 1;
  std::uint64_t v = words[i] >> (64 - 8 * w);
  if (f.descending) v = ~v & mask;
  const std::uint64_t sign = std::uint64_t{1} << (8 * w - 1);
  if (f.type == KeyFieldType::Int) {
    v ^= sign;
  } else if (f.type == KeyFieldType::Float) {
    v = (v & sign) ? (v ^ sign) : (~v & mask);  // positives had the sign bit set, negatives every bit flipped
  }
  unsigned char* rec = records + i * w;
  const bool big = f.type == KeyFieldType::Bytes || f.big_endian;
  for (std::uint32_t b = 0; b < w; ++b)
    rec[b] = static_cast<unsigned char>(v >> (8 * (big ? w - 1 - b : b)));
}

}  // namespace

void extract_keys(const KeyLayout& layout, const std::byte* d_records, std::int64_t n, std::uint64_t* d_keys,
                  std::uint32_t* d_index, cudaStream_t stream) {
  if (n <= 0) return;
  constexpr unsigned kThreads = 256;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  const auto* records = reinterpret_cast<const unsigned char*>(d_records);
  switch (layout.key_words()) {
    case 1:
      extract_keys_kernel<1><<<blocks, kThreads, 0, stream>>>(layout, records, n, d_keys, d_index);
      break;
    case 2:
      extract_keys_kernel<2><<<blocks, kThreads, 0, stream>>>(layout, records, n, d_keys, d_index);
      break;
    default:
      throw CudaError(cudaErrorInvalidValue, "extract_keys (key wider than 2 words)");
  }
  check_launch("extract_keys_kernel");
}

void restore_records(const KeyLayout& layout, const std::uint64_t* d_words, std::int64_t n, std::byte* d_records,
                     cudaStream_t stream) {
  if (n <= 0) return;
  const KeyField& f = layout.fields[0];
  if (layout.field_count != 1 || f.offset != 0 || f.length != layout.record_size || (f.length != 4 && f.length != 8))
    throw CudaError(cudaErrorInvalidValue, "restore_records (records are not one 4- or 8-byte key)");
  constexpr unsigned kThreads = 256;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  restore_records_kernel<<<blocks, kThreads, 0, stream>>>(f, d_words, n, reinterpret_cast<unsigned char*>(d_records));
  check_launch("restore_records_kernel");
}

}  // namespace corank::gpu
