// slab_split.hpp: slabs cut between sampled keys never exceed their size, the
// samples narrow each run's split to a stretch that holds it, and SlabCut
// walks the slabs in order over every record once.
#include "corank/slab_split.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace corank {
namespace {

using Entry = std::pair<std::uint32_t, std::uint64_t>;  // (key, position): distinct, like KeyEntry

struct SortedRun {
  std::vector<Entry> records;
  std::vector<Entry> samples;  // every stride-th record
};

std::vector<SortedRun> make_runs(std::size_t k, std::uint64_t stride, std::uint32_t keys, std::mt19937& rng) {
  std::vector<SortedRun> runs(k);
  std::uint64_t pos = 0;
  for (auto& r : runs) {
    const std::size_t n = rng() % 5000;
    for (std::size_t i = 0; i < n; ++i) r.records.push_back({static_cast<std::uint32_t>(rng() % keys), pos++});
    std::sort(r.records.begin(), r.records.end());
    for (std::size_t i = 0; i < n; i += stride) r.samples.push_back(r.records[i]);
  }
  return runs;
}

TEST(SlabSplit, SlabsStayWithinTheirSizeAndStretchesHoldTheSplit) {
  std::mt19937 rng(7);
  for (int round = 0; round < 60; ++round) {
    const std::size_t k = 1 + rng() % 12;
    const std::uint64_t stride = 1 + rng() % 64;
    const std::uint64_t slab_records = stride * (k + 1 + rng() % 40);
    const auto runs = make_runs(k, stride, round % 2 ? 20 : 1u << 30, rng);  // many ties, or few
    const auto boundaries = slab_boundaries<Entry>(
        std::span<const SortedRun>(runs), [](const SortedRun& r) -> const std::vector<Entry>& { return r.samples; }, slab_records,
        stride);
    ASSERT_TRUE(std::is_sorted(boundaries.begin(), boundaries.end()));
    std::vector<std::uint64_t> lo(k, 0);
    for (std::size_t s = 0; s <= boundaries.size(); ++s) {
      std::uint64_t slab = 0;
      for (std::size_t i = 0; i < k; ++i) {
        const auto& rec = runs[i].records;
        std::uint64_t hi = rec.size();
        if (s < boundaries.size()) {
          const Entry& v = boundaries[s];
          hi = static_cast<std::uint64_t>(std::lower_bound(rec.begin(), rec.end(), v) - rec.begin());
          const Stretch st = split_stretch(runs[i].samples, v, stride, rec.size(), lo[i]);
          if (st.first >= st.last) {
            EXPECT_EQ(hi, st.first);
          } else {
            EXPECT_GE(hi, st.first);
            EXPECT_LE(hi, st.last);
            EXPECT_LT(st.last - st.first, stride);
          }
        }
        slab += hi - lo[i];
        lo[i] = hi;
      }
      EXPECT_LE(slab, slab_records) << "round " << round << " slab " << s;
    }
  }
}

// SlabCut walks the slabs in order: each run's [lo, hi) of a slab starts
// where the last one ended, split() is asked from there, the last slab runs
// to every run's end, and the slabs cover every record once.
TEST(SlabSplit, SlabCutWalksEverySlabInOrder) {
  std::mt19937 rng(9);
  for (int round = 0; round < 30; ++round) {
    const std::size_t k = 1 + rng() % 8;
    const std::uint64_t stride = 1 + rng() % 32;
    const std::uint64_t slab_records = stride * (k + 1 + rng() % 20);
    const auto runs = make_runs(k, stride, round % 2 ? 20 : 1u << 30, rng);
    std::vector<std::uint64_t> counts;
    std::uint64_t total = 0;
    for (const auto& r : runs) {
      counts.push_back(r.records.size());
      total += r.records.size();
    }
    SlabCut<Entry> cut(slab_boundaries<Entry>(std::span<const SortedRun>(runs),
                                              [](const SortedRun& r) -> const std::vector<Entry>& { return r.samples; },
                                              slab_records, stride),
                       counts);
    std::vector<std::uint64_t> ends(k, 0);
    std::uint64_t covered = 0;
    std::size_t slabs = 0;
    Entry previous{0, 0};
    while (!cut.done()) {
      const std::uint64_t n = cut.next([&](std::size_t i, const Entry& v, std::uint64_t lo) {
        EXPECT_EQ(lo, ends[i]) << "run " << i << " asked from elsewhere than its last split";
        EXPECT_FALSE(v < previous) << "boundaries out of order";
        previous = v;
        const auto& rec = runs[i].records;
        return static_cast<std::uint64_t>(std::lower_bound(rec.begin() + static_cast<std::ptrdiff_t>(lo), rec.end(), v) -
                                          rec.begin());
      });
      ++slabs;
      std::uint64_t sum = 0;
      for (std::size_t i = 0; i < k; ++i) {
        EXPECT_EQ(cut.lo()[i], ends[i]);
        EXPECT_GE(cut.hi()[i], cut.lo()[i]);
        sum += cut.hi()[i] - cut.lo()[i];
        ends[i] = cut.hi()[i];
      }
      EXPECT_EQ(n, sum);
      EXPECT_LE(n, slab_records);
      covered += n;
    }
    EXPECT_EQ(slabs, cut.slabs());
    EXPECT_EQ(ends, counts) << "the last slab ends at every run's end";
    EXPECT_EQ(covered, total);
  }
}

}  // namespace
}  // namespace corank
