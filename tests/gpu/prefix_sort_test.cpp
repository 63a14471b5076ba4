// PrefixSorter against std::stable_sort of the same 4-word keys: random,
// duplicate-heavy (ties keep input order), keys equal in their top bits (sorted
// on the low key_bits only), all equal (key_bits 0); n = 0, 1 and sizes across
// several staging pieces; max_records under a small budget; misuse rejected.
// Skips with a reason without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/prefix_sort.cuh"

#include "gpu_skip.hpp"

namespace corank::gpu {
namespace {

using Key = std::array<std::uint64_t, PrefixSorter::kWords>;

// The low bits in which the keys differ, as the text sorter computes it.
unsigned differing_bits(const std::vector<Key>& keys) {
  Key d{};
  for (const auto& k : keys)
    for (unsigned w = 0; w < PrefixSorter::kWords; ++w) d[w] |= k[w] ^ keys[0][w];
  for (unsigned w = 0; w < PrefixSorter::kWords; ++w)
    if (d[w]) return 64 * (PrefixSorter::kWords - w) - static_cast<unsigned>(std::countl_zero(d[w]));
  return 0;
}

std::vector<std::uint32_t> gpu_order(PrefixSorter& sorter, const std::vector<Key>& keys, unsigned key_bits) {
  std::vector<std::uint32_t> order(keys.size(), 0xdeadbeef);
  sorter.sort(
      keys.size(),
      [&](std::uint64_t first, std::uint64_t count, std::uint64_t* words) {
        for (std::uint64_t i = 0; i < count; ++i) std::copy(keys[first + i].begin(), keys[first + i].end(), words + 4 * i);
      },
      key_bits, order.data());
  return order;
}

std::vector<std::uint32_t> cpu_order(const std::vector<Key>& keys) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

enum class Shape { random, duplicates, low_bits_only, all_equal };

std::vector<Key> make_keys(std::size_t n, Shape shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> keys(n);
  for (auto& k : keys) {
    for (auto& w : k) w = rng();
    switch (shape) {
      case Shape::random: break;
      case Shape::duplicates:  // few distinct keys, differing in every word
        for (auto& w : k) w = rng() % 3 * 0x0101010101010101ULL;
        break;
      case Shape::low_bits_only:  // like lines that share their first 20 bytes
        k[0] = 0x323032362d31312dULL;
        k[1] = 0x3233543031000000ULL | (rng() % 5);
        k[3] &= 0xffffffffffff0000ULL;
        break;
      case Shape::all_equal: k = Key{1, 2, 3, 4}; break;
    }
  }
  return keys;
}

TEST(PrefixSorter, MatchesStableSort) {
  CORANK_SKIP_WITHOUT_GPU();
  PrefixSorter sorter(0);
  for (Shape shape : {Shape::random, Shape::duplicates, Shape::low_bits_only, Shape::all_equal})
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1000}, std::size_t{1} << 20,
                          (std::size_t{5} << 19) + 7}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(shape)) + " n=" + std::to_string(n));
      const auto keys = make_keys(n, shape, n * 7 + static_cast<unsigned>(shape));
      const unsigned bits = n ? differing_bits(keys) : 0;
      if (shape == Shape::low_bits_only && n > 2) EXPECT_LT(bits, 192u);
      if (shape == Shape::all_equal) EXPECT_EQ(bits, 0u);
      EXPECT_TRUE(gpu_order(sorter, keys, bits) == cpu_order(keys));
    }
  const PrefixSortTimes t = sorter.times();
  EXPECT_GT(t.h2d_bytes, 0.0);
  EXPECT_GT(t.d2h_bytes, 0.0);
}

TEST(PrefixSorter, BudgetBoundsTheRecordsOfOneSort) {
  CORANK_SKIP_WITHOUT_GPU();
  PrefixSorter small(std::uint64_t{96} << 20);
  // 32 MiB beyond the 64 MiB margin, at 72 bytes a record.
  EXPECT_EQ(small.max_records(), (std::uint64_t{32} << 20) / 72);
  const auto keys = make_keys(small.max_records(), Shape::duplicates, 5);
  EXPECT_TRUE(gpu_order(small, keys, 256) == cpu_order(keys));
  std::vector<std::uint32_t> order(small.max_records() + 1);
  EXPECT_THROW(small.sort(
                   small.max_records() + 1, [](std::uint64_t, std::uint64_t, std::uint64_t*) {}, 256, order.data()),
               CudaError);
  EXPECT_THROW(PrefixSorter(std::uint64_t{1} << 20), CudaError);
}

}  // namespace
}  // namespace corank::gpu
