#pragma once
// RecordFormat → gpu::KeyLayout, the plain key description gpu/ takes. Only
// for code built with CUDA (the gpu/ headers are there only then).
#include "corank/format.hpp"
#include "corank/gpu/key_layout.hpp"

namespace corank {

// Formats with more fields than gpu::kMaxKeyFields keep only the first ones:
// check format.keys.size() first.
inline gpu::KeyLayout to_key_layout(const RecordFormat& format) {
  gpu::KeyLayout layout;
  layout.record_size = format.record_size;
  for (const KeySpec& k : format.keys) {
    if (layout.field_count == gpu::kMaxKeyFields) break;
    gpu::KeyField& f = layout.fields[layout.field_count++];
    f.offset = k.offset;
    f.length = k.length;
    f.big_endian = k.endian == Endian::Big;
    f.descending = k.descending;
    switch (k.type) {
      case KeyType::Bytes: f.type = gpu::KeyFieldType::Bytes; break;
      case KeyType::UInt: f.type = gpu::KeyFieldType::UInt; break;
      case KeyType::Int: f.type = gpu::KeyFieldType::Int; break;
      case KeyType::Float32:
      case KeyType::Float64: f.type = gpu::KeyFieldType::Float; break;
    }
  }
  return layout;
}

}  // namespace corank
