#pragma once
// Key normalization: every record's keys become a fixed-width string of 64-bit
// words whose lexicographic unsigned order is the requested order.
//
//  - unsigned integers: big-endian; signed integers: big-endian, sign bit flipped;
//  - floats: IEEE total order (sign bit flipped for positives, all bits flipped for
//    negatives), so -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN;
//  - bytes: as they are;
//  - descending keys: all bits inverted;
//  - several keys: concatenated in priority order, zero-padded to whole words.
// Word w holds bytes 8w..8w+7 of the string, the first byte most significant, so
// comparing words as unsigned integers equals memcmp on the string.
#include <cstdint>
#include <span>

#include "corank/format.hpp"

namespace corank {

class KeyNormalizer {
public:
  explicit KeyNormalizer(const RecordFormat& format);

  std::uint32_t words() const noexcept { return words_; }
  // Writes words() words for the record starting at `record`.
  void normalize(const std::byte* record, std::uint64_t* out) const noexcept;
  // Three-way comparison of two records' keys (negative, zero, positive).
  int compare(const std::byte* a, const std::byte* b) const noexcept;

private:
  RecordFormat format_;
  std::uint32_t words_;
};

}  // namespace corank
