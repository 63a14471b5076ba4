// BusyTime: the union of stage intervals, whatever their order, nesting or
// gaps, against a brute-force count on a fine grid.
#include "corank/gpu/busy_time.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace corank::gpu {
namespace {

TEST(BusyTimeTest, EmptyAndDegenerateIntervalsCountNothing) {
  BusyTime t;
  EXPECT_EQ(t.total_ms(), 0.0);
  t.add(5, 5);
  t.add(7, 3);
  EXPECT_EQ(t.total_ms(), 0.0);
}

TEST(BusyTimeTest, DisjointIntervalsAdd) {
  BusyTime t;
  t.add(10, 12);
  t.add(0, 1);
  t.add(4, 7);
  EXPECT_DOUBLE_EQ(t.total_ms(), 6.0);
}

TEST(BusyTimeTest, OverlappingAndNestedIntervalsCountOnce) {
  BusyTime t;
  t.add(0, 10);   // chunk 0
  t.add(6, 16);   // chunk 1, copied in while chunk 0 sorts
  t.add(7, 9);    // nested
  t.add(16, 20);  // touching
  EXPECT_DOUBLE_EQ(t.total_ms(), 20.0);
}

TEST(BusyTimeTest, MatchesAGridCountOnRandomIntervals) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    BusyTime t;
    std::vector<bool> covered(1000, false);
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      const int b = static_cast<int>(rng() % 1000);
      const int e = std::min(1000, b + static_cast<int>(rng() % 80));
      t.add(b, e);
      for (int x = b; x < e; ++x) covered[x] = true;
    }
    double expect = 0;
    for (bool c : covered) expect += c ? 1 : 0;
    EXPECT_DOUBLE_EQ(t.total_ms(), expect) << "trial " << trial;
  }
}

}  // namespace
}  // namespace corank::gpu
