#include "generator.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/normalize.hpp"
#include "gensort_record.hpp"

namespace corank::tools {
namespace {

constexpr GenFormat kFormats[] = {GenFormat::Gensort, GenFormat::GensortAscii, GenFormat::U32, GenFormat::U64,
                                  GenFormat::I32,     GenFormat::I64,          GenFormat::F32, GenFormat::F64};
constexpr GenDist kDists[] = {GenDist::Uniform,  GenDist::Skewed,    GenDist::Sorted, GenDist::Reverse,
                              GenDist::AllEqual, GenDist::FewUnique, GenDist::Zipf,   GenDist::NearlySorted};

std::vector<std::uint8_t> generate(GenFormat f, GenDist d, std::uint64_t seed, std::uint64_t first,
                                   std::uint64_t count, bool nan = false) {
  GenSpec spec;
  spec.format = f;
  spec.dist = d;
  spec.seed = seed;
  spec.allow_nan = nan;
  const Generator gen(spec);
  std::vector<std::uint8_t> out(count * gen.record_size());
  gen.fill(first, count, out.data());
  return out;
}

// The sorter's view of these records: gensort-ascii sorts as gensort (key 0:10).
corank::RecordFormat sorter_format(GenFormat f) {
  const auto name = f == GenFormat::GensortAscii ? std::string("gensort") : std::string(to_string(f));
  return corank::parse_format(name, {});
}

// Signs of compare(record i, record i+1) under the sorter's key order.
std::vector<int> adjacent_order(GenFormat f, const std::vector<std::uint8_t>& data) {
  const auto fmt = sorter_format(f);
  const corank::KeyNormalizer norm(fmt);
  std::vector<int> out;
  const auto* p = reinterpret_cast<const std::byte*>(data.data());
  for (std::size_t i = 0; i + 2 * fmt.record_size <= data.size(); i += fmt.record_size)
    out.push_back(norm.compare(p + i, p + i + fmt.record_size));
  return out;
}

std::set<std::vector<std::uint64_t>> distinct_keys(GenFormat f, const std::vector<std::uint8_t>& data) {
  const auto fmt = sorter_format(f);
  const corank::KeyNormalizer norm(fmt);
  std::set<std::vector<std::uint64_t>> keys;
  for (std::size_t i = 0; i < data.size(); i += fmt.record_size) {
    std::vector<std::uint64_t> k(norm.words());
    norm.normalize(reinterpret_cast<const std::byte*>(data.data() + i), k.data());
    keys.insert(k);
  }
  return keys;
}

std::string label(GenFormat f, GenDist d) { return std::string(to_string(f)) + "/" + std::string(to_string(d)); }

TEST(Generator, SameSeedSameBytesOtherSeedOtherBytes) {
  for (auto f : kFormats) {
    for (auto d : kDists) {
      EXPECT_EQ(generate(f, d, 5, 0, 3000), generate(f, d, 5, 0, 3000)) << label(f, d);
    }
    EXPECT_NE(generate(f, GenDist::Uniform, 5, 0, 3000), generate(f, GenDist::Uniform, 6, 0, 3000))
        << to_string(f);
  }
}

TEST(Generator, PiecesConcatenateToOneRun) {
  for (auto f : kFormats) {
    for (auto d : kDists) {
      const auto whole = generate(f, d, 11, 0, 5000);
      auto joined = generate(f, d, 11, 0, 1234);
      const auto tail = generate(f, d, 11, 1234, 5000 - 1234);
      joined.insert(joined.end(), tail.begin(), tail.end());
      EXPECT_EQ(whole, joined) << label(f, d);
    }
  }
}

TEST(Generator, SortedIsSortedAndReverseIsReverse) {
  for (auto f : kFormats) {
    // Start high enough that 32-bit values saturate part-way, which must keep the order.
    const std::uint64_t start = (f == GenFormat::U32 || f == GenFormat::I32) ? (1ULL << 32) - 100 : 1000;
    for (int s : adjacent_order(f, generate(f, GenDist::Sorted, 1, start, 4000)))
      ASSERT_LE(s, 0) << to_string(f);
    for (int s : adjacent_order(f, generate(f, GenDist::Reverse, 1, start, 4000)))
      ASSERT_GE(s, 0) << to_string(f);
    // Without saturation, strictly ordered.
    for (int s : adjacent_order(f, generate(f, GenDist::Sorted, 1, 0, 4000))) ASSERT_LT(s, 0) << to_string(f);
    for (int s : adjacent_order(f, generate(f, GenDist::Reverse, 1, 0, 4000))) ASSERT_GT(s, 0) << to_string(f);
  }
}

// nearly-sorted (displacement 1000, the default): out of order, yet every
// record lies at most the displacement from its place in the sorter's order
// (ties may add as much again).
TEST(Generator, NearlySortedLiesWithinTheDisplacement) {
  constexpr std::uint64_t n = 20000, d = 1000;
  for (auto f : kFormats) {
    const auto data = generate(f, GenDist::NearlySorted, 3, 0, n);
    const auto order = adjacent_order(f, data);
    EXPECT_NE(std::count_if(order.begin(), order.end(), [](int s) { return s > 0; }), 0) << to_string(f);
    const auto fmt = sorter_format(f);
    const corank::KeyNormalizer norm(fmt);
    const auto* p = reinterpret_cast<const std::byte*>(data.data());
    std::vector<std::uint64_t> at(n);
    for (std::uint64_t i = 0; i < n; ++i) at[i] = i;
    std::stable_sort(at.begin(), at.end(), [&](std::uint64_t a, std::uint64_t b) {
      return norm.compare(p + a * fmt.record_size, p + b * fmt.record_size) < 0;
    });
    std::uint64_t farthest = 0;
    for (std::uint64_t pos = 0; pos < n; ++pos) farthest = std::max(farthest, pos > at[pos] ? pos - at[pos] : at[pos] - pos);
    EXPECT_LE(farthest, 2 * d) << to_string(f);
    EXPECT_GT(farthest, d / 2) << to_string(f);
  }
}

TEST(Generator, DuplicateHeavyDistributions) {
  for (auto f : kFormats) {
    EXPECT_EQ(distinct_keys(f, generate(f, GenDist::AllEqual, 3, 0, 2000)).size(), 1u) << to_string(f);
    const auto few = distinct_keys(f, generate(f, GenDist::FewUnique, 3, 0, 5000)).size();
    EXPECT_LE(few, 16u) << to_string(f);
    EXPECT_GE(few, 12u) << to_string(f);  // 5000 draws over 16 slots hit nearly all of them
    const auto zipf = distinct_keys(f, generate(f, GenDist::Zipf, 3, 0, 20000)).size();
    EXPECT_LT(zipf, 15000u) << to_string(f);  // heavy duplicates
    EXPECT_GT(zipf, 1000u) << to_string(f);   // but many values
    EXPECT_GT(distinct_keys(f, generate(f, GenDist::Uniform, 3, 0, 20000)).size(), 19990u) << to_string(f);
  }
}

TEST(Generator, SkewedGensortKeysShareLongPrefixes) {
  for (auto f : {GenFormat::Gensort, GenFormat::GensortAscii}) {
    const auto data = generate(f, GenDist::Skewed, 9, 0, 20000);
    std::map<std::string, int> prefixes;
    std::set<std::string> keys;
    for (std::size_t i = 0; i < data.size(); i += 100) {
      ++prefixes[std::string(reinterpret_cast<const char*>(&data[i]), 4)];
      keys.insert(std::string(reinterpret_cast<const char*>(&data[i]), 10));
    }
    int top = 0;
    for (const auto& [p, n] : prefixes) top = std::max(top, n);
    EXPECT_GT(top, 1000) << to_string(f);  // the top rank alone takes about 12%
    EXPECT_GT(keys.size(), 19900u) << to_string(f);
  }
}

TEST(Generator, GensortRecordsCarryTheirNumbers) {
  for (auto f : {GenFormat::Gensort, GenFormat::GensortAscii}) {
    const std::uint64_t start = 0xFFFFFFFFFFull;
    const auto data = generate(f, GenDist::Uniform, 2, start, 300);
    for (std::uint64_t i = 0; i < 300; ++i) {
      const char* rec = reinterpret_cast<const char*>(&data[i * 100]);
      const std::string hex(rec + kGensortRecnoOffset, kGensortRecnoDigits);
      EXPECT_EQ(std::stoull(hex.substr(16), nullptr, 16), start + i);
      EXPECT_EQ(hex.substr(0, 16), std::string(16, '0'));
      if (f == GenFormat::GensortAscii) {
        for (int b = 0; b < 98; ++b) ASSERT_TRUE(std::isprint(static_cast<unsigned char>(rec[b]))) << b;
        EXPECT_EQ(std::string(rec + 98, 2), "\r\n");
      } else {
        EXPECT_EQ(std::string(rec + 10, 2), std::string("\x00\x11", 2));
        EXPECT_EQ(std::string(rec + 96, 4), "\xCC\xDD\xEE\xFF");
      }
    }
  }
}

template <class Float, class Bits>
std::size_t count_nan(const std::vector<std::uint8_t>& data) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < data.size(); i += sizeof(Bits)) {
    Bits b;
    std::memcpy(&b, &data[i], sizeof b);
    n += std::isnan(std::bit_cast<Float>(b));
  }
  return n;
}

TEST(Generator, FloatsHoldNanOnlyWhenAsked) {
  for (auto d : {GenDist::Uniform, GenDist::Zipf, GenDist::FewUnique, GenDist::Skewed}) {
    EXPECT_EQ((count_nan<float, std::uint32_t>(generate(GenFormat::F32, d, 4, 0, 50000))), 0u);
    EXPECT_EQ((count_nan<double, std::uint64_t>(generate(GenFormat::F64, d, 4, 0, 50000))), 0u);
  }
  EXPECT_GT((count_nan<float, std::uint32_t>(generate(GenFormat::F32, GenDist::Uniform, 4, 0, 50000, true))), 1000u);
  EXPECT_GT((count_nan<double, std::uint64_t>(generate(GenFormat::F64, GenDist::Uniform, 4, 0, 50000, true))),
            1000u);
}

TEST(Generator, UniformIntegersCoverTheRange) {
  const auto data = generate(GenFormat::I32, GenDist::Uniform, 8, 0, 10000);
  int negative = 0;
  for (std::size_t i = 0; i < data.size(); i += 4) {
    std::int32_t v;
    std::memcpy(&v, &data[i], 4);
    negative += v < 0;
  }
  EXPECT_GT(negative, 4500);
  EXPECT_LT(negative, 5500);
}

TEST(Generator, WriteRecordsStreamsTheSameBytesAcrossBlocks) {
  const auto path = std::filesystem::temp_directory_path() / ("corank_gen_test_" + std::to_string(::getpid()));
  GenSpec spec;
  spec.format = GenFormat::Gensort;
  spec.seed = 77;
  spec.start = 500;
  spec.count = 25000;  // 2.5 MB: several 1 MiB blocks and a partial one
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    write_records(spec, fd, path.string());
    ::close(fd);
  }
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  EXPECT_EQ(file, generate(GenFormat::Gensort, GenDist::Uniform, 77, 500, 25000));
}

}  // namespace
}  // namespace corank::tools
