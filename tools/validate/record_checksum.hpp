#pragma once
// Order-independent checksums of a set of records, like the Sort Benchmark's
// valsort: the sum of every record's CRC32 (in 128 bits, so it never wraps),
// plus a second, independent sum of a 64-bit hash per record. Equal sums on an
// input and an output mean the same multiset of records; two unrelated hash
// families make an accidental match implausible.
#include <cstdint>
#include <string>

namespace corank::tools {

// A 64-bit hash of one record, unrelated to CRC32.
std::uint64_t record_hash64(const std::uint8_t* record, std::uint32_t size) noexcept;

struct RecordChecksum {
  std::uint64_t records = 0;
  std::uint64_t crc_sum_hi = 0;  // 128-bit sum of CRC32 values
  std::uint64_t crc_sum_lo = 0;
  std::uint64_t hash_sum = 0;    // sum of record_hash64 values, mod 2^64

  // Adds `count` contiguous records of `record_size` bytes.
  void add(const std::uint8_t* records, std::uint64_t count, std::uint32_t record_size) noexcept;
  void merge(const RecordChecksum& other) noexcept;

  std::string crc_sum_hex() const;  // 32 hex digits
  std::string hash_sum_hex() const;  // 16 hex digits

  friend bool operator==(const RecordChecksum&, const RecordChecksum&) = default;
};

}  // namespace corank::tools
