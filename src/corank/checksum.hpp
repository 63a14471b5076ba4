#pragma once
// An order-independent checksum of a set of records: the sum of the CRC32 of each
// record (as the Sort Benchmark's validator computes it), plus the record count.
// Equal for a file and any permutation of its records.
#include <cstddef>
#include <cstdint>

namespace corank {

struct RecordChecksum {
  std::uint64_t records = 0;
  std::uint64_t crc_sum = 0;  // sum of per-record CRC32, modulo 2^64

  void add(const std::byte* records_begin, std::uint64_t count, std::uint32_t record_size) noexcept;
  RecordChecksum& operator+=(const RecordChecksum& o) noexcept {
    records += o.records;
    crc_sum += o.crc_sum;
    return *this;
  }
  friend bool operator==(const RecordChecksum&, const RecordChecksum&) = default;
};

// Checksums `count` records with `threads` threads.
RecordChecksum checksum_records(const std::byte* data, std::uint64_t count, std::uint32_t record_size,
                                unsigned threads);

}  // namespace corank
