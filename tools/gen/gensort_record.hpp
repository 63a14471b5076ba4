#pragma once
// The Sort Benchmark's gensort record layouts, 100 bytes each, as gensort
// writes them (binary by default, ASCII with `gensort -a`).
//
// Binary:                                ASCII (also a text line for GNU sort):
//   [ 0, 10) key, 10 arbitrary bytes       [ 0, 10) key, 10 chars ' '..'~' (95 values)
//   [10, 12) 0x00 0x11                     [10, 12) two spaces
//   [12, 44) record number, 32 uppercase   [12, 44) record number, 32 uppercase
//            hex digits (128-bit, zero-             hex digits
//            padded)                       [44, 46) two spaces
//   [44, 48) 0x88 0x99 0xAA 0xBB           [46, 98) filler: 13 groups of 4 copies
//   [48, 96) filler: 12 groups of 4                 of one hex digit
//            copies of one hex digit       [98,100) "\r\n"
//   [96,100) 0xCC 0xDD 0xEE 0xFF
//
// Records are told apart by their record number, so every ASCII line is unique
// and `LC_ALL=C sort` orders the lines by key first.
#include <cstdint>

namespace corank::tools {

inline constexpr std::uint32_t kGensortRecordSize = 100;
inline constexpr std::uint32_t kGensortKeySize = 10;
inline constexpr std::uint32_t kGensortRecnoOffset = 12;
inline constexpr std::uint32_t kGensortRecnoDigits = 32;
inline constexpr std::uint32_t kGensortBinaryFillerOffset = 48;
inline constexpr std::uint32_t kGensortBinaryFillerGroups = 12;
inline constexpr std::uint32_t kGensortAsciiFillerOffset = 46;
inline constexpr std::uint32_t kGensortAsciiFillerGroups = 13;

// Writes one binary record. `filler_bits` supplies one hex digit per filler
// group (its low 4 bits go to the first group).
void write_gensort_binary(std::uint8_t* record, const std::uint8_t* key, std::uint64_t record_number,
                          std::uint64_t filler_bits) noexcept;

// Writes one ASCII record; `key` must already be printable.
void write_gensort_ascii(std::uint8_t* record, const std::uint8_t* key, std::uint64_t record_number,
                         std::uint64_t filler_bits) noexcept;

}  // namespace corank::tools
