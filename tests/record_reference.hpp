#pragma once
// The expected output of a binary-record sort, for tests: the records of `in`
// in stable key order (KeyNormalizer::compare), only the first of equal keys
// under -u.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "corank/format.hpp"
#include "corank/normalize.hpp"

namespace corank::test {

inline std::vector<std::byte> reference_sort(const RecordFormat& format, const std::vector<std::byte>& in,
                                             bool unique) {
  const KeyNormalizer norm(format);
  const std::uint32_t R = format.record_size;
  const std::uint64_t n = in.size() / R;
  std::vector<std::uint64_t> order(n);
  for (std::uint64_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint64_t a, std::uint64_t b) { return norm.compare(&in[a * R], &in[b * R]) < 0; });
  std::vector<std::byte> out;
  for (std::uint64_t j = 0; j < n; ++j) {
    if (unique && j > 0 && norm.compare(&in[order[j] * R], &in[order[j - 1] * R]) == 0) continue;
    out.insert(out.end(), in.begin() + order[j] * R, in.begin() + (order[j] + 1) * R);
  }
  return out;
}

}  // namespace corank::test
