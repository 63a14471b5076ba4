// Records that are one 4- or 8-byte key, sorted as their normalized words:
// which formats qualify, the round trip record -> word -> record for every key
// type, width and direction (specials included), that the words are exactly
// KeyNormalizer's, and that sorting the words gives the records in exactly the
// order a stable (key, position) sort gives.
#include "corank/key_words_only.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "corank/normalize.hpp"

namespace corank {
namespace {

TEST(KeyWordsOnly, WhichFormatsQualify) {
  for (const char* f : {"u32", "u64", "i32", "i64", "f32", "f64"}) EXPECT_TRUE(sorts_as_key_words(parse_format(f, {}))) << f;
  EXPECT_TRUE(sorts_as_key_words(parse_format("fixed:8", {"0:8:u64be:desc"})));
  EXPECT_TRUE(sorts_as_key_words(parse_format("fixed:8", {"0:8"})));
  EXPECT_TRUE(sorts_as_key_words(parse_format("fixed:4", {"0:4:f32be"})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("gensort", {})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("fixed:16", {"0:8:u64"})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("fixed:8", {"0:4:u32", "4:4:u32"})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("fixed:8", {"0:4:u32"})));
  EXPECT_FALSE(sorts_as_key_words(parse_format("fixed:2", {"0:2:u16"})));
}

// Random records of `width` bytes with many special values: zeros of both
// signs, infinities, NaNs with payloads, integer extremes, duplicates.
std::vector<std::byte> records(std::uint64_t n, unsigned width) {
  std::mt19937_64 rng(11 + width);
  const std::uint64_t specials8[] = {0,
                                     std::uint64_t{1} << 63,  // -0.0, INT64_MIN
                                     std::bit_cast<std::uint64_t>(std::numeric_limits<double>::infinity()),
                                     std::bit_cast<std::uint64_t>(-std::numeric_limits<double>::infinity()),
                                     0x7ff8000000000001ull, 0xfff8000000000000ull, 0x7fffffffffffffffull,
                                     ~std::uint64_t{0}, 1, 42};
  const std::uint32_t specials4[] = {0,
                                     std::uint32_t{1} << 31,  // -0.0f, INT32_MIN
                                     std::bit_cast<std::uint32_t>(std::numeric_limits<float>::infinity()),
                                     std::bit_cast<std::uint32_t>(-std::numeric_limits<float>::infinity()),
                                     0x7fc00001u, 0xffc00000u, 0x7fffffffu, ~std::uint32_t{0}, 1, 42};
  std::vector<std::byte> v(n * width);
  for (std::uint64_t i = 0; i < n; ++i) {
    const bool special = rng() % 3 == 0;
    if (width == 8) {
      const std::uint64_t x = special ? specials8[rng() % std::size(specials8)] : rng();
      std::memcpy(&v[i * 8], &x, 8);
    } else {
      const std::uint32_t x = special ? specials4[rng() % std::size(specials4)] : static_cast<std::uint32_t>(rng());
      std::memcpy(&v[i * 4], &x, 4);
    }
  }
  return v;
}

struct Case {
  const char* format;
  const char* key;  // nullptr: the format's own
};
const Case kCases[] = {{"fixed:8", "0:8"},         {"u64", nullptr},          {"fixed:8", "0:8:u64be"},
                       {"i64", nullptr},           {"fixed:8", "0:8:i64be"},  {"f64", nullptr},
                       {"fixed:8", "0:8:f64be"},   {"fixed:8", "0:8:i64:desc"}, {"fixed:8", "0:8:f64:desc"},
                       {"fixed:8", "0:8:desc"},    {"fixed:4", "0:4"},        {"u32", nullptr},
                       {"fixed:4", "0:4:u32be"},   {"i32", nullptr},          {"fixed:4", "0:4:i32be:desc"},
                       {"f32", nullptr},           {"fixed:4", "0:4:f32be"},  {"fixed:4", "0:4:f32:desc"}};

RecordFormat format_of(const Case& c) {
  return parse_format(c.format, c.key ? std::vector<std::string>{c.key} : std::vector<std::string>{});
}

std::string name_of(const Case& c) { return std::string(c.format) + (c.key ? std::string(" ") + c.key : ""); }

TEST(KeyWordsOnly, WordsAreTheNormalizedKeysAndComeBackAsTheRecords) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(name_of(c));
    const RecordFormat format = format_of(c);
    const KeyNormalizer norm(format);
    const unsigned R = format.record_size;
    const auto input = records(200'003, R);
    const std::uint64_t n = input.size() / R;
    std::vector<std::uint64_t> words(n);
    records_to_words(input.data(), n, format, words.data(), 3);
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t w;
      norm.normalize(input.data() + i * R, &w);
      ASSERT_EQ(words[i], w) << "record " << i;
    }
    std::vector<std::byte> back(input.size());
    words_to_records(words.data(), n, format, back.data(), 3);
    EXPECT_TRUE(back == input);
    if (R == 8) {  // in place
      auto v = input;
      auto* w = reinterpret_cast<std::uint64_t*>(v.data());
      records_to_words(v.data(), n, format, w, 2);
      EXPECT_TRUE(std::equal(words.begin(), words.end(), w));
      words_to_records(w, n, format, v.data(), 2);
      EXPECT_TRUE(v == input);
    }
  }
}

TEST(KeyWordsOnly, SortedWordsGiveTheStableSortOfTheRecords) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(name_of(c));
    const RecordFormat format = format_of(c);
    const KeyNormalizer norm(format);
    const unsigned R = format.record_size;
    const auto input = records(50'000, R);
    const std::uint64_t n = input.size() / R;
    std::vector<std::uint64_t> order(n);
    for (std::uint64_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
      return norm.compare(input.data() + a * R, input.data() + b * R) < 0;
    });
    std::vector<std::byte> expect(input.size());
    for (std::uint64_t i = 0; i < n; ++i) std::memcpy(&expect[i * R], &input[order[i] * R], R);
    std::vector<std::uint64_t> words(n);
    records_to_words(input.data(), n, format, words.data(), 2);
    std::sort(words.begin(), words.end());
    std::vector<std::byte> got(input.size());
    words_to_records(words.data(), n, format, got.data(), 2);
    EXPECT_TRUE(got == expect);
  }
}

TEST(KeyWordsOnly, SortWordsOnSeveralThreads) {
  std::mt19937_64 rng(3);
  for (unsigned threads : {1u, 2u, 3u, 7u})
    for (std::uint64_t n : {0ull, 1ull, 65535ull, 65536ull * 3 + 17, 1'000'003ull}) {
      SCOPED_TRACE("threads=" + std::to_string(threads) + " n=" + std::to_string(n));
      std::vector<std::uint64_t> v(n), scratch(n);
      for (auto& x : v) x = rng() % 4 == 0 ? rng() % 16 : rng();
      auto expect = v;
      std::sort(expect.begin(), expect.end());
      sort_words(v.data(), scratch.data(), n, threads);
      ASSERT_EQ(v, expect);
    }
}

TEST(KeyWordsOnly, FingerprintIgnoresOrderAndSeesChanges) {
  const RecordFormat format = parse_format("f64", {});
  const auto input = records(300'001, 8);
  const std::uint64_t n = input.size() / 8;
  std::vector<std::uint64_t> v(n);
  const WordsSum before = records_to_words(input.data(), n, format, v.data(), 4);
  EXPECT_EQ(words_sum(v.data(), n, 3), before);
  std::reverse(v.begin(), v.end());
  std::sort(v.begin(), v.begin() + 1000);
  EXPECT_EQ(words_sum(v.data(), n, 5), before);
  v[12345] += 1;
  EXPECT_NE(words_sum(v.data(), n, 5), before);
  v[12345] -= 1;
  // One word overwritten by a copy of a different one, as a partial copy would.
  std::size_t i = 0;
  while (v[i] == v[i + 1]) ++i;
  v[i] = v[i + 1];
  EXPECT_NE(words_sum(v.data(), n, 2), before);
}

TEST(KeyWordsOnly, UniqueKeepsOneOfEachWord) {
  std::vector<std::uint64_t> v = {1, 1, 2, 3, 3, 3, 7};
  EXPECT_EQ(unique_words(v.data(), v.size()), 4u);
  EXPECT_EQ((std::vector<std::uint64_t>(v.begin(), v.begin() + 4)), (std::vector<std::uint64_t>{1, 2, 3, 7}));
  EXPECT_EQ(unique_words(v.data(), 0), 0u);
}

}  // namespace
}  // namespace corank
