// Records that are one 8-byte key, sorted as their normalized words: which
// formats qualify, the round trip record -> word -> record for every key type
// and direction (specials included), and that sorting the words gives the
// records in exactly the order a stable (key, position) sort gives.
#include "corank/key_words_only.hpp"

#include "corank/normalize.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace corank {
namespace {

TEST(KeyWordsOnly, WhichFormatsQualify) {
  EXPECT_TRUE(sorts_as_key_words(parse_format("u64", {})));
  EXPECT_TRUE(sorts_as_key_words(parse_format("i64", {})));
  EXPECT_TRUE(sorts_as_key_words(parse_format("f64", {})));
  EXPECT_TRUE(sorts_as_key_words(parse_format("fixed:8", {"0:8:u64be:desc"})));
  EXPECT_TRUE(sorts_as_key_words(parse_format("fixed:8", {"0:8"})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("u32", {})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("f32", {})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("gensort", {})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("fixed:16", {"0:8:u64"})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("fixed:8", {"0:4:u32", "4:4:u32"})));
}

// Random 8-byte records with many special values: zeros of both signs,
// infinities, NaNs with payloads, integer extremes, duplicates.
std::vector<std::uint64_t> records(std::uint64_t n) {
  std::mt19937_64 rng(11);
  const std::uint64_t specials[] = {0,
                                    std::uint64_t{1} << 63,  // -0.0, INT64_MIN
                                    std::bit_cast<std::uint64_t>(std::numeric_limits<double>::infinity()),
                                    std::bit_cast<std::uint64_t>(-std::numeric_limits<double>::infinity()),
                                    0x7ff8000000000001ull,
                                    0xfff8000000000000ull,
                                    0x7fffffffffffffffull,
                                    ~std::uint64_t{0},
                                    1,
                                    42};
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = rng() % 3 == 0 ? specials[rng() % std::size(specials)] : rng();
  return v;
}

const char* const kKeys[] = {"0:8", "0:8:u64", "0:8:u64be", "0:8:i64", "0:8:i64be",
                             "0:8:f64", "0:8:f64be", "0:8:i64:desc", "0:8:f64:desc", "0:8:desc"};

TEST(KeyWordsOnly, WordsComeBackAsTheRecords) {
  for (const char* key : kKeys) {
    SCOPED_TRACE(key);
    const RecordFormat format = parse_format("fixed:8", {key});
    const KeyNormalizer norm(format);
    const auto input = records(200'003);
    auto v = input;
    auto* bytes = reinterpret_cast<std::byte*>(v.data());
    records_to_keys(bytes, v.size(), format, 3);
    for (std::size_t i = 0; i < input.size(); ++i) {
      std::uint64_t w;
      norm.normalize(reinterpret_cast<const std::byte*>(&input[i]), &w);
      ASSERT_EQ(v[i], w) << "record " << i;
    }
    keys_to_records(bytes, v.size(), format, 3);
    EXPECT_EQ(v, input);
  }
}

TEST(KeyWordsOnly, SortedWordsGiveTheStableSortOfTheRecords) {
  for (const char* key : kKeys) {
    SCOPED_TRACE(key);
    const RecordFormat format = parse_format("fixed:8", {key});
    const KeyNormalizer norm(format);
    const auto input = records(50'000);
    auto expect = input;
    std::stable_sort(expect.begin(), expect.end(), [&](std::uint64_t a, std::uint64_t b) {
      return norm.compare(reinterpret_cast<const std::byte*>(&a), reinterpret_cast<const std::byte*>(&b)) < 0;
    });
    auto v = input;
    auto* bytes = reinterpret_cast<std::byte*>(v.data());
    records_to_keys(bytes, v.size(), format, 2);
    std::sort(v.begin(), v.end());
    keys_to_records(bytes, v.size(), format, 2);
    EXPECT_EQ(v, expect);
  }
}

TEST(KeyWordsOnly, SortWordsOnSeveralThreads) {
  for (unsigned threads : {1u, 2u, 3u, 7u})
    for (std::uint64_t n : {0ull, 1ull, 65535ull, 65536ull * 3 + 17, 1'000'003ull}) {
      SCOPED_TRACE("threads=" + std::to_string(threads) + " n=" + std::to_string(n));
      auto v = records(n);
      auto expect = v;
      std::sort(expect.begin(), expect.end());
      sort_words(v.data(), n, threads);
      ASSERT_EQ(v, expect);
    }
}

TEST(KeyWordsOnly, FingerprintIgnoresOrderAndSeesChanges) {
  const RecordFormat format = parse_format("f64", {});
  auto v = records(300'001);
  const WordsSum before = records_to_keys(reinterpret_cast<std::byte*>(v.data()), v.size(), format, 4);
  EXPECT_EQ(words_sum(v.data(), v.size(), 3), before);
  std::reverse(v.begin(), v.end());
  std::sort(v.begin(), v.begin() + 1000);
  EXPECT_EQ(words_sum(v.data(), v.size(), 5), before);
  v[12345] += 1;
  EXPECT_NE(words_sum(v.data(), v.size(), 5), before);
  v[12345] -= 1;
  // One word overwritten by a copy of a different one, as a partial copy would.
  std::size_t i = 0;
  while (v[i] == v[i + 1]) ++i;
  v[i] = v[i + 1];
  EXPECT_NE(words_sum(v.data(), v.size(), 2), before);
}

TEST(KeyWordsOnly, UniqueKeepsOneOfEachWord) {
  std::vector<std::uint64_t> v = {1, 1, 2, 3, 3, 3, 7};
  EXPECT_EQ(unique_keys(v.data(), v.size()), 4u);
  EXPECT_EQ((std::vector<std::uint64_t>(v.begin(), v.begin() + 4)), (std::vector<std::uint64_t>{1, 2, 3, 7}));
  EXPECT_EQ(unique_keys(v.data(), 0), 0u);
}

}  // namespace
}  // namespace corank
