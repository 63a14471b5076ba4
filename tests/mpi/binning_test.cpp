// A chunk binned by destination: every record in the part the partitioner
// gives it, each part in input order with its terminator, the same bytes with
// any number of threads, and the rank's own part written where it is kept.
#include "corank/mpi/binning.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "corank/text/text_format.hpp"
#include "corank/text_format_of.hpp"

namespace corank::mpi {
namespace {

struct Chunk {
  std::string bytes;
  std::vector<ShareRecord> records;
};

Chunk random_lines(unsigned n, unsigned seed) {
  std::mt19937 rng(seed);
  Chunk c;
  std::vector<std::pair<std::size_t, std::size_t>> at;
  for (unsigned i = 0; i < n; ++i) {
    const std::string line = "k" + std::to_string(rng() % 500) + std::string(rng() % 8, 'x');
    at.emplace_back(c.bytes.size(), line.size());
    c.bytes += line + '\n';
  }
  for (auto [b, len] : at) c.records.push_back({c.bytes.data() + b, len, 1000 + b});
  return c;
}

// The parts as one thread appending record by record would make them.
std::vector<std::string> reference_parts(const Chunk& c, const Partitioner& p, unsigned parts) {
  std::vector<std::string> out(parts);
  for (const auto& r : c.records) out[p.part_of(std::string_view(r.data, r.size), r.position)].append(r.data, r.size) += '\n';
  return out;
}

TEST(MpiBinning, PartsInInputOrderWithAnyThreads) {
  SortRequest request;
  TextOrder order(text_format_of(request));
  Partitioner p(order, true);
  Chunk c = random_lines(50000, 1);
  std::vector<Sample> samples;
  for (std::size_t i = 0; i < c.records.size(); i += 97)
    samples.push_back({std::string(c.records[i].data, c.records[i].size), c.records[i].position});
  const unsigned parts = 5;
  p.choose_splitters(samples, parts);
  const auto want = reference_parts(c, p, parts);
  for (unsigned threads : {1u, 3u, 8u}) {
    Binning b(parts, threads, 0, '\n');
    std::vector<ShareRecord> records = c.records;
    b.find_parts(records, p);
    // Part 2 is "this rank's", kept in a buffer of its own.
    std::string kept(b.size(2), '\0');
    b.group(2, reinterpret_cast<std::byte*>(kept.data()));
    for (unsigned d = 0; d < parts; ++d) {
      EXPECT_EQ(b.size(d), want[d].size()) << "threads " << threads;
      if (d == 2)
        EXPECT_EQ(kept, want[d]);
      else
        EXPECT_EQ(std::string(b.grouped() + b.region(d), b.size(d)), want[d]) << "threads " << threads << " part " << d;
    }
  }
}

TEST(MpiBinning, FixedSizeBlockWithAnyThreads) {
  BinaryOrder order(parse_format("u64", {}), false);
  Partitioner p(order, true);
  std::mt19937_64 rng(2);
  std::vector<std::uint64_t> keys(30000);
  for (auto& k : keys) k = rng() % 1000;
  std::vector<Sample> samples;
  for (std::size_t i = 0; i < keys.size(); i += 31)
    samples.push_back({std::string(reinterpret_cast<const char*>(&keys[i]), 8), 8 * i});
  p.choose_splitters(samples, 3);
  const PartFinder finder(order, p);
  const char* block = reinterpret_cast<const char*>(keys.data());
  const std::uint64_t position = 800;  // the block's place in the inputs: positions settle equal keys
  std::vector<std::string> want(3);
  for (std::size_t i = 0; i < keys.size(); ++i)
    want[p.part_of(std::string_view(block + 8 * i, 8), position + 8 * i)].append(block + 8 * i, 8);
  for (unsigned threads : {1u, 4u, 7u}) {
    Binning b(3, threads, 8, '\n');
    b.find_parts(block, keys.size() * 8, position, finder);
    std::string kept(b.size(1), '\0');
    b.group(1, reinterpret_cast<std::byte*>(kept.data()));
    EXPECT_EQ(b.bytes(), keys.size() * 8);
    for (unsigned d = 0; d < 3; ++d) {
      EXPECT_EQ(b.size(d), want[d].size()) << "threads " << threads;
      if (d == 1)
        EXPECT_EQ(kept, want[d]) << "threads " << threads;
      else
        EXPECT_EQ(std::string(b.grouped() + b.region(d), b.size(d)), want[d]) << "threads " << threads << " part " << d;
    }
    // The end of the share: an empty block, no parts.
    b.find_parts(nullptr, 0, position, finder);
    b.group(1, nullptr);
    EXPECT_EQ(b.bytes(), 0u);
    for (unsigned d = 0; d < 3; ++d) EXPECT_EQ(b.size(d), 0u);
  }
}

}  // namespace
}  // namespace corank::mpi
