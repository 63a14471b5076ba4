#pragma once
// Record formats and key specifications: what a record is and which bytes order it.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "corank/errors.hpp"

namespace corank {

enum class KeyType : std::uint8_t {
  Bytes,    // unsigned bytes, memcmp order
  UInt,     // unsigned integer of 1, 2, 4 or 8 bytes
  Int,      // two's-complement signed integer of 1, 2, 4 or 8 bytes
  Float32,  // IEEE 754 binary32
  Float64,  // IEEE 754 binary64
};

enum class Endian : std::uint8_t { Little, Big };

struct KeySpec {
  std::uint32_t offset = 0;
  std::uint32_t length = 0;  // bytes in the record
  KeyType type = KeyType::Bytes;
  Endian endian = Endian::Little;  // for UInt/Int/Float
  bool descending = false;

  // Bytes this key takes in the normalized key string.
  std::uint32_t normalized_length() const noexcept { return length; }
};

struct RecordFormat {
  std::string name;          // "gensort", "fixed:64", "u64", ...
  std::uint32_t record_size = 0;
  std::vector<KeySpec> keys;  // in priority order; never empty

  // Sum of the keys' normalized lengths.
  std::uint32_t key_bytes() const noexcept;
  // Normalized key width in 64-bit words (key_bytes rounded up).
  std::uint32_t key_words() const noexcept { return (key_bytes() + 7) / 8; }
};

// Parses a key spec "OFFSET:LENGTH[:TYPE][:desc]". TYPE is one of
//   bytes (default), u8 u16 u32 u64 i8 i16 i32 i64 (little-endian),
//   u16be u32be u64be i16be i32be i64be (big-endian), f32 f64 (f32be, f64be).
// For integer and float types LENGTH must match the type's width.
KeySpec parse_key_spec(std::string_view spec);

// Parses --format: "gensort", "fixed:R", "u32", "u64", "i32", "i64", "f32", "f64".
// `keys` applies to fixed:R (required there) and may override gensort's default key.
RecordFormat parse_format(std::string_view format, const std::vector<std::string>& keys);

// The format a sort orders by: under -r (`reverse`) every key's direction
// turned, so that one normalization gives the whole order.
RecordFormat in_sort_order(RecordFormat format, bool reverse);

// Parses a size with an optional K, M, G, T, P, E (powers of 1024) or b suffix, GNU sort style
// (a bare number means KiB, as in GNU sort's -S); "N%" is a percentage of physical memory;
// Z and Y, and anything past 64 bits, are too large (UsageError).
std::uint64_t parse_size(std::string_view text, bool bare_is_kib = true);

}  // namespace corank
