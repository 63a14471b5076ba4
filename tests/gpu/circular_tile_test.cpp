// The circular tile's index arithmetic, and a host model of the circular
// kernel's block loop (same window, view, co_rank and serial_merge the
// kernel uses) checked against std::merge.
#include "corank/gpu/circular_tile.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "corank/gpu/co_rank.cuh"
#include "corank/gpu/serial_merge.cuh"

namespace corank::gpu {
namespace {

TEST(CircularTile, SlotsWrapAtCapacity) {
  using I = CircularIndex<8>;
  EXPECT_EQ(I::slot(0), 0);
  EXPECT_EQ(I::slot(7), 7);
  EXPECT_EQ(I::slot(8), 0);
  EXPECT_EQ(I::slot(13), 5);
  EXPECT_EQ(I::slot(1 << 30), 0);
}

// Random consumption: after every refill the view shows exactly the next
// unconsumed input elements, and a refill never overwrites one of them.
TEST(CircularTile, WindowTracksInputUnderRandomConsumption) {
  constexpr int cap = 16;
  std::mt19937 rng(4);
  for (int trial = 0; trial < 200; ++trial) {
    const int count = int(rng() % 200);
    std::vector<int> input(count);
    for (int i = 0; i < count; ++i) input[i] = i * 3 + 1;
    std::vector<int> ring(cap, -1);
    CircularWindow<cap> w(count);
    while (w.head < count) {
      for (int v = w.loaded; v < w.refill_end(); ++v) {
        ASSERT_TRUE(v - w.head < cap) << "refill would overwrite an unconsumed slot";
        ring[CircularIndex<cap>::slot(v)] = input[v];
      }
      w.mark_loaded();
      ASSERT_EQ(w.size(), std::min(cap, count - w.head));
      const CircularView<int, cap> view{ring.data(), w.head};
      for (int i = 0; i < w.size(); ++i) ASSERT_EQ(view[i], input[w.head + i]);
      w.consume(1 + int(rng() % w.size()));
    }
    EXPECT_EQ(w.head, count);
  }
}

// One block of the circular merge, run sequentially: each step merges up to
// `cap` outputs from the two windows, then refills what was consumed.
std::vector<std::uint32_t> circular_block_merge(const std::vector<std::uint32_t>& a,
                                                const std::vector<std::uint32_t>& b) {
  constexpr int cap = 8;
  std::vector<std::uint32_t> ra(cap), rb(cap), out;
  CircularWindow<cap> wa(int(a.size())), wb(int(b.size()));
  const int total = int(a.size() + b.size());
  for (int c = 0; c < total;) {
    for (int v = wa.loaded; v < wa.refill_end(); ++v) ra[CircularIndex<cap>::slot(v)] = a[v];
    wa.mark_loaded();
    for (int v = wb.loaded; v < wb.refill_end(); ++v) rb[CircularIndex<cap>::slot(v)] = b[v];
    wb.mark_loaded();
    const CircularView<std::uint32_t, cap> va{ra.data(), wa.head}, vb{rb.data(), wb.head};
    const int step = std::min(cap, total - c);
    // Merge the step in sub-ranges of 3 outputs, as threads of a block would.
    for (int k0 = 0; k0 < step; k0 += 3) {
      const int k1 = std::min(k0 + 3, step);
      const int i0 = co_rank(k0, va, wa.size(), vb, wb.size());
      const int i1 = co_rank(k1, va, wa.size(), vb, wb.size());
      serial_merge(va, i0, i1, vb, k0 - i0, k1 - i1,
                   [&](int, std::uint32_t key, bool, int) { out.push_back(key); });
    }
    const int a_used = co_rank(step, va, wa.size(), vb, wb.size());
    wa.consume(a_used);
    wb.consume(step - a_used);
    c += step;
  }
  return out;
}

TEST(CircularTile, HostModelOfBlockLoopMatchesStdMerge) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint32_t range = trial % 3 == 0 ? 1 : trial % 3 == 1 ? 4 : 1000;
    std::vector<std::uint32_t> a(rng() % 100), b(rng() % 100);
    for (auto& x : a) x = std::uint32_t(rng() % range);
    for (auto& x : b) x = std::uint32_t(rng() % range);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<std::uint32_t> expected;
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(expected));
    ASSERT_EQ(circular_block_merge(a, b), expected) << "trial " << trial;
  }
}

}  // namespace
}  // namespace corank::gpu
