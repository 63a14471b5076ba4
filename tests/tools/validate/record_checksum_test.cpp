#include "record_checksum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

namespace corank::tools {
namespace {

std::vector<std::uint8_t> random_records(std::size_t count, std::uint32_t size, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> v(count * size);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

RecordChecksum sum_of(const std::vector<std::uint8_t>& v, std::uint32_t size) {
  RecordChecksum c;
  c.add(v.data(), v.size() / size, size);
  return c;
}

TEST(RecordChecksum, CrcSumIsZlibCrc32) {
  const char check[] = "123456789";  // the CRC-32 check value is CBF43926
  RecordChecksum c;
  c.add(reinterpret_cast<const std::uint8_t*>(check), 1, 9);
  EXPECT_EQ(c.crc_sum_hex(), "000000000000000000000000cbf43926");
  c.add(reinterpret_cast<const std::uint8_t*>(check), 1, 9);
  EXPECT_EQ(c.crc_sum_hex(), "00000000000000000000000197e8724c");
  EXPECT_EQ(c.records, 2u);
}

TEST(RecordChecksum, IndependentOfRecordOrder) {
  constexpr std::uint32_t kSize = 100;
  auto v = random_records(5000, kSize, 1);
  const auto before = sum_of(v, kSize);
  // Shuffle whole records.
  std::vector<std::uint32_t> perm(5000);
  for (std::uint32_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), std::mt19937(2));
  std::vector<std::uint8_t> shuffled(v.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    std::memcpy(&shuffled[i * kSize], &v[perm[i] * std::size_t{kSize}], kSize);
  ASSERT_NE(shuffled, v);
  EXPECT_EQ(sum_of(shuffled, kSize), before);
}

TEST(RecordChecksum, OneChangedByteChangesBothSums) {
  constexpr std::uint32_t kSize = 100;
  auto v = random_records(1000, kSize, 3);
  const auto before = sum_of(v, kSize);
  for (std::size_t pos : {0ul, 57ul, 99ul, 50'000ul, v.size() - 1}) {
    auto w = v;
    w[pos] ^= 0x10;
    const auto after = sum_of(w, kSize);
    EXPECT_NE(after.crc_sum_lo, before.crc_sum_lo) << pos;
    EXPECT_NE(after.hash_sum, before.hash_sum) << pos;
  }
}

TEST(RecordChecksum, HashSumSeesSwapsInsideARecordThatCrcSumsCouldMiss) {
  // Moving bytes between records keeps neither sum: each record hashes as a whole.
  constexpr std::uint32_t kSize = 8;
  auto v = random_records(2, kSize, 4);
  auto w = v;
  std::swap(w[0], w[8]);
  ASSERT_NE(v, w);
  EXPECT_NE(sum_of(v, kSize), sum_of(w, kSize));
}

TEST(RecordChecksum, MergeEqualsAddingEverything) {
  constexpr std::uint32_t kSize = 12;  // not a multiple of 8: exercises the hash's tail
  const auto v = random_records(3000, kSize, 5);
  RecordChecksum a, b;
  a.add(v.data(), 1000, kSize);
  b.add(v.data() + 1000 * kSize, 2000, kSize);
  a.merge(b);
  EXPECT_EQ(a, sum_of(v, kSize));
  EXPECT_EQ(a.records, 3000u);
}

TEST(RecordChecksum, CrcSumCarriesIntoTheHighWord) {
  RecordChecksum a, b;
  a.crc_sum_lo = ~0ULL;
  b.crc_sum_lo = 2;
  a.merge(b);
  EXPECT_EQ(a.crc_sum_hi, 1u);
  EXPECT_EQ(a.crc_sum_lo, 1u);
  EXPECT_EQ(a.crc_sum_hex(), "00000000000000010000000000000001");
}

}  // namespace
}  // namespace corank::tools
