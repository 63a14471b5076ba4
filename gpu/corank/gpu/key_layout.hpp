// A plain description of a record's sort keys, as gpu/ receives it: record
// size and the key fields in priority order. src/ converts its RecordFormat to
// this; gpu/ knows nothing else of src/.
#pragma once

#include <cstdint>

namespace corank::gpu {

enum class KeyFieldType : std::uint8_t {
  Bytes,  // unsigned bytes, memcmp order
  UInt,   // unsigned integer of 1, 2, 4 or 8 bytes
  Int,    // two's-complement integer of 1, 2, 4 or 8 bytes
  Float,  // IEEE 754 binary32 or binary64 (by length)
};

struct KeyField {
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  KeyFieldType type = KeyFieldType::Bytes;
  bool big_endian = false;  // for UInt, Int, Float
  bool descending = false;
};

inline constexpr unsigned kMaxKeyFields = 16;

// Passed to kernels by value, so a fixed array rather than a vector.
struct KeyLayout {
  std::uint32_t record_size = 0;
  std::uint32_t field_count = 0;
  KeyField fields[kMaxKeyFields];

  std::uint32_t key_bytes() const noexcept {
    std::uint32_t b = 0;
    for (std::uint32_t i = 0; i < field_count; ++i) b += fields[i].length;
    return b;
  }
  std::uint32_t key_words() const noexcept { return (key_bytes() + 7) / 8; }
};

}  // namespace corank::gpu
