#include "corank/radix_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace corank {
namespace {

// Key distributions that exercise skipped bytes, skew and equal keys.
enum class Keys { random, small_values, one_byte_varies, all_equal, few_distinct, top_heavy };

std::uint64_t draw(Keys k, std::mt19937_64& rng, std::uint64_t i) {
  switch (k) {
    case Keys::random: return rng();
    case Keys::small_values: return rng() % 100000;                         // top bytes all zero
    case Keys::one_byte_varies: return 0x1122334455667700ULL | (rng() & 0xff);
    case Keys::all_equal: return 42;
    case Keys::few_distinct: return (rng() % 3) << 40;
    case Keys::top_heavy: return i % 10 == 0 ? rng() : 0xff00000000000000ULL | (rng() >> 40);  // one huge bucket
  }
  return 0;
}

const Keys kAll[] = {Keys::random, Keys::small_values, Keys::one_byte_varies, Keys::all_equal, Keys::few_distinct,
                     Keys::top_heavy};

TEST(RadixSort, WordsMatchStdSort) {
  for (std::uint64_t n : {0ULL, 1ULL, 2ULL, 47ULL, 48ULL, 49ULL, 1000ULL, 70000ULL, 300000ULL}) {
    for (Keys k : kAll) {
      for (unsigned threads : {1u, 2u, 3u, 8u, 9u}) {
        std::mt19937_64 rng(n * 31 + static_cast<unsigned>(k));
        std::vector<std::uint64_t> v(n), scratch(n);
        for (std::uint64_t i = 0; i < n; ++i) v[i] = draw(k, rng, i);
        auto want = v;
        std::sort(want.begin(), want.end());
        auto wide = v;
        radix_sort(v.data(), scratch.data(), n, threads);
        ASSERT_EQ(v, want) << "n=" << n << " keys=" << static_cast<int>(k) << " threads=" << threads;
        // The top levels by 11-bit digits, as large inputs are sorted.
        radix_sort(wide.data(), scratch.data(), n, threads, 1 << 17);
        ASSERT_EQ(wide, want) << "wide digits, n=" << n << " keys=" << static_cast<int>(k) << " threads=" << threads;
      }
    }
  }
}

// Entries made in position order come out in (key, position) order: stable.
template <unsigned W>
void check_entries(std::uint64_t n, Keys k, unsigned threads) {
  std::mt19937_64 rng(n + 7 * static_cast<unsigned>(k) + W);
  std::vector<KeyEntry<W>> v(n), scratch(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    for (unsigned w = 0; w < W; ++w) v[i].key[w] = w + 1 == W ? draw(k, rng, i) : (rng() % 2) << 63;
    v[i].pos = i;
  }
  auto want = v;
  std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return key_less(a, b); });
  // Large inputs take 11-bit digits at the top: lowered here to reach them.
  radix_sort(v.data(), scratch.data(), n, threads, n % 2 ? 1 << 17 : radix_detail::kWideLevel);
  for (std::uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(v[i].pos, want[i].pos) << "W=" << W << " n=" << n << " keys=" << static_cast<int>(k) << " at " << i;
    for (unsigned w = 0; w < W; ++w) ASSERT_EQ(v[i].key[w], want[i].key[w]);
  }
}

TEST(RadixSort, EntriesAreStable) {
  for (std::uint64_t n : {0ULL, 5ULL, 100ULL, 5000ULL, 200000ULL, 200001ULL})
    for (Keys k : kAll)
      for (unsigned threads : {1u, 4u, 8u}) {
        check_entries<1>(n, k, threads);
        check_entries<2>(n, k, threads);
        check_entries<3>(n, k, threads);
      }
}

}  // namespace
}  // namespace corank
