// The splitter choice and binning of corank-mpi, without MPI: parts are even
// on distinct, duplicate-heavy and all-equal keys, equal keys stay together
// under -u, and every record's part follows the sort order, PartFinder's as
// the partitioner's.
#include "corank/mpi/partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "corank/mpi/part_finder.hpp"


namespace corank::mpi {
namespace {

std::string u64_record(std::uint64_t v) {
  std::string r(8, '\0');
  std::memcpy(r.data(), &v, 8);
  return r;
}

// Parts of n records whose keys come from key(i), with `samples` regular samples.
std::vector<std::uint64_t> part_sizes(std::uint64_t n, unsigned parts, bool by_position, auto key) {
  BinaryOrder order(parse_format("u64", {}), false);
  Partitioner p(order, by_position);
  std::vector<Sample> samples;
  for (std::uint64_t i : regular_sample(n, 16384)) samples.push_back({u64_record(key(i)), i * 8});
  p.choose_splitters(samples, parts);
  std::vector<std::uint64_t> sizes(parts);
  for (std::uint64_t i = 0; i < n; ++i) ++sizes[p.part_of(u64_record(key(i)), i * 8)];
  return sizes;
}

TEST(MpiPartition, EvenOnUniformKeys) {
  std::mt19937_64 rng(1);
  std::vector<std::uint64_t> keys(200000);
  for (auto& k : keys) k = rng();
  for (unsigned parts : {2u, 3u, 4u, 8u})
    EXPECT_LE(partition_skew(part_sizes(keys.size(), parts, true, [&](std::uint64_t i) { return keys[i]; })), 1.05);
}

TEST(MpiPartition, EvenOnAllEqualKeysThroughPositions) {
  const auto sizes = part_sizes(100000, 4, true, [](std::uint64_t) { return 7; });
  EXPECT_LE(partition_skew(sizes), 1.01);
}

TEST(MpiPartition, UniqueKeepsEqualKeysOnOnePart) {
  const auto sizes = part_sizes(100000, 4, false, [](std::uint64_t i) { return i % 3; });
  EXPECT_EQ(std::count(sizes.begin(), sizes.end(), 0u), 1);  // three keys, four parts
  for (auto s : sizes) EXPECT_TRUE(s == 0 || s == 33333 || s == 33334);
}

TEST(MpiPartition, PartsFollowTheOrder) {
  BinaryOrder order(parse_format("u64", {}), true);  // -r
  Partitioner p(order, true);
  std::vector<Sample> samples;
  for (std::uint64_t i = 0; i < 1000; ++i) samples.push_back({u64_record(i * 37 % 1000), i * 8});
  p.choose_splitters(samples, 5);
  ASSERT_EQ(p.splitters().size(), 4u);
  unsigned last = 0;
  for (std::uint64_t v = 1000; v-- > 0;) {  // descending: the order under -r
    const unsigned part = p.part_of(u64_record(v), 0);
    EXPECT_GE(part, last);
    last = part;
  }
  EXPECT_EQ(last, 4u);
}

// A sample of weight w cuts as w copies of it would: the splitters are the
// same, record and position.
TEST(MpiPartition, WeightsCountAsRepeatedSamples) {
  BinaryOrder order(parse_format("u64", {}), false);
  std::mt19937_64 rng(4);
  for (unsigned parts : {2u, 3u, 7u}) {
    std::vector<Sample> weighted, repeated;
    for (std::uint64_t i = 0; i < 500; ++i) {
      Sample s{u64_record(rng() % 300), i * 8, 1 + rng() % (i % 50 == 0 ? 400 : 3)};
      weighted.push_back(s);
      for (std::uint64_t k = 0; k < s.weight; ++k) repeated.push_back({s.record, s.position, 1});
    }
    Partitioner a(order, true), b(order, true);
    a.choose_splitters(weighted, parts);
    b.choose_splitters(repeated, parts);
    ASSERT_EQ(a.splitters().size(), parts - 1);
    for (unsigned i = 0; i + 1 < parts; ++i) {
      EXPECT_EQ(a.splitters()[i].record, b.splitters()[i].record);
      EXPECT_EQ(a.splitters()[i].position, b.splitters()[i].position);
    }
  }
}

TEST(MpiPartition, NoSamplesNoSplitters) {
  BinaryOrder order(parse_format("u64", {}), false);
  Partitioner p(order, true);
  p.choose_splitters({}, 4);
  EXPECT_TRUE(p.splitters().empty());
  EXPECT_EQ(p.part_of(u64_record(5), 0), 0u);
}

TEST(MpiPartition, RegularSampleAndShares) {
  EXPECT_EQ(regular_sample(3, 10), (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(regular_sample(10, 2), (std::vector<std::uint64_t>{2, 7}));
  EXPECT_TRUE(regular_sample(0, 5).empty());
  EXPECT_EQ(share_begin(1000, 0, 3, 100), 0u);
  EXPECT_EQ(share_begin(1000, 1, 3, 100), 300u);
  EXPECT_EQ(share_begin(1000, 3, 3, 100), 1000u);
  const std::uint64_t huge = std::uint64_t{1} << 62;  // no overflow in total * rank
  EXPECT_EQ(share_begin(huge, 3, 4, 100), huge / 100 * 3 / 4 * 100);
  EXPECT_DOUBLE_EQ(partition_skew({0, 0}), 1.0);
  EXPECT_DOUBLE_EQ(partition_skew({3, 1}), 1.5);
}

}  // namespace
}  // namespace corank::mpi

namespace corank::mpi {
namespace {

// PartFinder gives every record the part Partitioner::part_of gives it:
// several keys, a descending one, -r, duplicate keys cut by position (and
// not, under -u), for 2 to 5 parts.
TEST(MpiPartFinder, AgreesWithThePartitioner) {
  std::mt19937_64 rng(5);
  constexpr std::uint32_t R = 24;
  std::vector<std::string> records(20000, std::string(R, '\0'));
  for (auto& r : records)
    for (auto& c : r) c = static_cast<char>(rng() % 4);  // few distinct keys: many ties
  for (const bool reverse : {false, true})
    for (const bool by_position : {true, false})
      for (unsigned parts = 2; parts <= 5; ++parts) {
        BinaryOrder order(parse_format("fixed:24", {"0:3", "5:2:u16:desc", "10:4:i32"}), reverse);
        Partitioner p(order, by_position);
        std::vector<Sample> samples;
        for (std::uint64_t i : regular_sample(records.size(), 500)) samples.push_back({records[i], i * R});
        p.choose_splitters(samples, parts);
        const PartFinder finder(order, p);
        ASSERT_EQ(finder.parts(), parts);
        for (std::size_t i = 0; i < records.size(); ++i)
          ASSERT_EQ(finder.part_of(reinterpret_cast<const std::byte*>(records[i].data()), i * R),
                    p.part_of(records[i], i * R))
              << "record " << i << ", " << parts << " parts, reverse " << reverse << ", by position " << by_position;
      }
}

}  // namespace
}  // namespace corank::mpi
