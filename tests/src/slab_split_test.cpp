// slab_split.hpp: slabs cut between sampled keys never exceed their size, and
// the samples narrow each run's split to a stretch that holds it.
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

}  // namespace
}  // namespace corank
