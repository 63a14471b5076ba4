#pragma once
// gensort keys by distribution. Sorted and reverse keys encode the record
// number, so pieces written with --start concatenate into one sorted file.
// Skewed keys (in the spirit of `gensort -s`): the first 5 key bytes come from
// a Zipf(1.1) rank over 2^20 values, so a few prefixes are shared by a large
// share of the records; the last 5 bytes are uniform, so most keys still differ.
#include <cstdint>

#include "key_material.hpp"

namespace corank::tools {

// 10 arbitrary bytes.
void gensort_binary_key(const KeyMaterialSource& src, GenDist dist, std::uint64_t record_number,
                        std::uint8_t* key) noexcept;
// 10 printable characters ' '..'~', ordered like the binary key.
void gensort_ascii_key(const KeyMaterialSource& src, GenDist dist, std::uint64_t record_number,
                       std::uint8_t* key) noexcept;

}  // namespace corank::tools
