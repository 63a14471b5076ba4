#include "gensort_record.hpp"

#include <cstring>

namespace corank::tools {

namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

// Record numbers stay below 2^64 (corank-gen checks start + count), so the
// upper 16 of the 32 digits are always '0'.
void write_record_number(std::uint8_t* out, std::uint64_t n) noexcept {
  std::memset(out, '0', 16);
  for (int d = 31; d >= 16; --d) {
    out[d] = static_cast<std::uint8_t>(kHexDigits[n & 15]);
    n >>= 4;
  }
}

void write_filler(std::uint8_t* out, std::uint32_t groups, std::uint64_t bits) noexcept {
  for (std::uint32_t g = 0; g < groups; ++g) {
    const std::uint32_t quad = 0x01010101u * static_cast<std::uint8_t>(kHexDigits[(bits >> (4 * g)) & 15]);
    std::memcpy(out + 4 * g, &quad, 4);
  }
}

}  // namespace

void write_gensort_binary(std::uint8_t* record, const std::uint8_t* key, std::uint64_t record_number,
                          std::uint64_t filler_bits) noexcept {
  std::memcpy(record, key, kGensortKeySize);
  record[10] = 0x00;
  record[11] = 0x11;
  write_record_number(record + kGensortRecnoOffset, record_number);
  static constexpr std::uint8_t kBreak2[4] = {0x88, 0x99, 0xAA, 0xBB};
  std::memcpy(record + 44, kBreak2, 4);
  write_filler(record + kGensortBinaryFillerOffset, kGensortBinaryFillerGroups, filler_bits);
  static constexpr std::uint8_t kBreak3[4] = {0xCC, 0xDD, 0xEE, 0xFF};
  std::memcpy(record + 96, kBreak3, 4);
}

void write_gensort_ascii(std::uint8_t* record, const std::uint8_t* key, std::uint64_t record_number,
                         std::uint64_t filler_bits) noexcept {
  std::memcpy(record, key, kGensortKeySize);
  record[10] = ' ';
  record[11] = ' ';
  write_record_number(record + kGensortRecnoOffset, record_number);
  record[44] = ' ';
  record[45] = ' ';
  write_filler(record + kGensortAsciiFillerOffset, kGensortAsciiFillerGroups, filler_bits);
  record[98] = '\r';
  record[99] = '\n';
}

}  // namespace corank::tools
