// RecordWindow (sorted_stream.hpp), the window of adaptive run formation for
// fixed-size records, on key entries alone: which first chunks start a
// stream, which records come late, that a chunk merges after the window's
// records among equal keys, and what the window keeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "corank/key_entry.hpp"
#include "corank/sorted_stream.hpp"

namespace corank {
namespace {

using E = KeyEntry<1>;

// Entries of keys `keys` read at positions at, at + 1, ..., sorted by (key, pos).
std::vector<E> sorted_entries(const std::vector<std::uint64_t>& keys, std::uint64_t at) {
  std::vector<E> e(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) e[i] = E{{keys[i]}, at + i};
  std::sort(e.begin(), e.end());
  return e;
}

TEST(RecordWindow, AFirstChunkStartsAStreamWhereItsRecordsLieNearTheirPlaces) {
  std::vector<E> entries(400);
  const RecordWindow<1> window(400, entries.data());  // a window of 100 records
  ASSERT_EQ(window.capacity(), 100u);
  std::vector<std::uint64_t> keys(1000);
  std::iota(keys.begin(), keys.end(), 0);
  EXPECT_TRUE(window.starts_stream(sorted_entries(keys, 0).data(), keys.size(), 0));
  // Shuffled within blocks of 101: each record at most 100 from its place.
  std::mt19937_64 rng(3);
  auto near = keys;
  for (std::size_t b = 0; b < near.size(); b += 101)
    std::shuffle(near.begin() + b, near.begin() + std::min(near.size(), b + 101), rng);
  EXPECT_TRUE(window.starts_stream(sorted_entries(near, 7).data(), near.size(), 7));
  auto reversed = keys;
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_FALSE(window.starts_stream(sorted_entries(reversed, 0).data(), reversed.size(), 0));
  auto random = keys;
  std::shuffle(random.begin(), random.end(), rng);
  EXPECT_FALSE(window.starts_stream(sorted_entries(random, 0).data(), random.size(), 0));
  // An output that cannot take a stream never starts one.
  EXPECT_FALSE(RecordWindow<1>().starts_stream(sorted_entries(keys, 0).data(), keys.size(), 0));
}

TEST(RecordWindow, RecordsBelowTheLastTakenAreLateAndTheWindowComesFirstAmongEquals) {
  std::vector<E> entries(16);
  RecordWindow<1> window(16, entries.data());
  const E* held = entries.data() + 12;  // the window keeps its entries at the end
  ASSERT_EQ(window.capacity(), 4u);
  window.start();
  // First chunk (buffer positions 10..17): nothing taken yet, nothing late.
  const auto first = sorted_entries({5, 1, 9, 3, 7, 7, 2, 8}, 10);
  EXPECT_EQ(window.late(first.data(), first.size()), 0u);
  std::vector<E> out(16);
  std::uint64_t n = window.merge(first, out.data(), 1);
  ASSERT_EQ(n, 8u);
  // The run takes the four smallest; the window keeps 7, 7, 8, 9, copied to
  // positions [6, 10) of the next buffer.
  window.took(out.data(), 4);
  EXPECT_EQ(window.records(), 4u);
  window.keep(std::span<const E>(out.data() + 4, 4), 10);
  ASSERT_EQ(window.held(), 4u);
  EXPECT_EQ(held[0].key[0], 7u);
  EXPECT_EQ(held[0].pos, 6u);
  EXPECT_EQ(held[3].key[0], 9u);
  EXPECT_EQ(held[3].pos, 9u);
  // Next chunk (positions 10..): 4 and 2 are below 5, the last taken: late;
  // 5 is not; a 7 read now follows the window's two.
  const auto second = sorted_entries({4, 7, 2, 5, 12}, 10);
  const std::uint64_t late = window.late(second.data(), second.size());
  EXPECT_EQ(late, 2u);
  n = window.merge(std::span<const E>(second).subspan(late), out.data(), 1);
  ASSERT_EQ(n, 7u);
  const std::uint64_t keys[] = {5, 7, 7, 7, 8, 9, 12}, pos[] = {13, 6, 7, 11, 8, 9, 14};
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(out[i].key[0], keys[i]) << i;
    EXPECT_EQ(out[i].pos, pos[i]) << i;
  }
  EXPECT_EQ(window.held(), 0u);  // merged away until kept again
  EXPECT_THROW(window.keep(std::span<const E>(out.data(), 5), 10), std::logic_error);  // over its capacity
  EXPECT_THROW(window.keep(std::span<const E>(out.data(), 3), 2), std::logic_error);   // no room before 2
}

}  // namespace
}  // namespace corank
