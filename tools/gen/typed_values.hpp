#pragma once
// Typed-array records (u32 u64 i32 i64 f32 f64, little-endian) by distribution:
//  - uniform: random bits, so integers cover the whole type range and floats
//    every finite value (exponents included);
//  - sorted: the record number as the type's smallest values (0, 1, ... for
//    unsigned; min, min+1, ... for signed; 0.0, 1.0, ... for floats), saturating;
//  - reverse: the mirror image (max, max-1, ...; -0.0, -1.0, ... for floats);
//  - skewed: the top 5/8 of the bits from a Zipf-drawn rank, the rest random;
//  - all-equal, few-unique (16 values), zipf (Zipf(1.1) over 2^20 random values).
// Floats never hold NaN unless allow_nan; then about 1 record in 8 of the
// random distributions is one of NaN, -NaN, +-0, +-inf, the smallest denormal
// or the largest finite value.
#include <cstdint>

#include "key_material.hpp"

namespace corank::tools {

// Writes `count` values for records first..first+count-1 to out (record_size(format) bytes each).
void fill_typed_values(const KeyMaterialSource& src, const GenSpec& spec, std::uint64_t first,
                       std::uint64_t count, std::uint8_t* out) noexcept;

}  // namespace corank::tools
