#include "corank/checksum.hpp"

#include <zlib.h>

#include <vector>

#include "corank/parallel.hpp"

namespace corank {

void RecordChecksum::add(const std::byte* data, std::uint64_t count, std::uint32_t record_size) noexcept {
  const auto* p = reinterpret_cast<const Bytef*>(data);
  for (std::uint64_t i = 0; i < count; ++i, p += record_size) crc_sum += ::crc32(0L, p, record_size);
  records += count;
}

RecordChecksum checksum_records(const std::byte* data, std::uint64_t count, std::uint32_t record_size,
                                unsigned threads) {
  if (count < 4096) threads = 1;
  std::vector<RecordChecksum> parts(threads);
  parallel_for(threads, [&](unsigned t) {
    std::uint64_t b = count * t / threads, e = count * (t + 1) / threads;
    parts[t].add(data + b * record_size, e - b, record_size);
  });
  RecordChecksum sum;
  for (const auto& p : parts) sum += p;
  return sum;
}

}  // namespace corank
