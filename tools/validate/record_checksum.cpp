#include "record_checksum.hpp"

#include <zlib.h>

#include <cstdio>
#include <cstring>

namespace corank::tools {

namespace {

// 64x64 -> 128-bit multiply folded to 64 bits: a strong, fast mixing step.
inline std::uint64_t mum(std::uint64_t a, std::uint64_t b) noexcept {
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(p) ^ static_cast<std::uint64_t>(p >> 64);
}

constexpr std::uint64_t kP0 = 0xA0761D6478BD642FULL;
constexpr std::uint64_t kP1 = 0xE7037ED1A0B428DBULL;
constexpr std::uint64_t kP2 = 0x8EBC6AF09C88C6E3ULL;

}  // namespace

std::uint64_t record_hash64(const std::uint8_t* p, std::uint32_t size) noexcept {
  std::uint64_t h = kP0 ^ (static_cast<std::uint64_t>(size) * kP1);
  std::uint32_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = mum(h ^ w, kP1);
  }
  if (i < size) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + i, size - i);
    h = mum(h ^ w ^ kP2, kP1);
  }
  return mum(h ^ kP2, kP0 ^ h);
}

void RecordChecksum::add(const std::uint8_t* data, std::uint64_t count, std::uint32_t record_size) noexcept {
  unsigned __int128 crc = (static_cast<unsigned __int128>(crc_sum_hi) << 64) | crc_sum_lo;
  for (std::uint64_t r = 0; r < count; ++r, data += record_size) {
    crc += ::crc32(0L, data, record_size);
    hash_sum += record_hash64(data, record_size);
  }
  records += count;
  crc_sum_hi = static_cast<std::uint64_t>(crc >> 64);
  crc_sum_lo = static_cast<std::uint64_t>(crc);
}

void RecordChecksum::merge(const RecordChecksum& o) noexcept {
  records += o.records;
  crc_sum_lo += o.crc_sum_lo;
  crc_sum_hi += o.crc_sum_hi + (crc_sum_lo < o.crc_sum_lo ? 1 : 0);
  hash_sum += o.hash_sum;
}

std::string RecordChecksum::crc_sum_hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(crc_sum_hi),
                static_cast<unsigned long long>(crc_sum_lo));
  return buf;
}

std::string RecordChecksum::hash_sum_hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash_sum));
  return buf;
}

}  // namespace corank::tools
