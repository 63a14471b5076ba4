// sort_host_u64 against std::sort: random, duplicate-heavy, all-equal, sorted,
// reverse and extreme keys; n = 0, 1, 2; one pass in place and out of place;
// two passes forced by budgets of a few MiB (many runs, many slabs), at sizes
// around the one-pass limit and around chunk/slab multiples; pinned input;
// the caller's memory never page-locked; the plan's counts; misuse rejected.
// Skips with a reason without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/host_array_sort.cuh"
#include "corank/gpu/pinned_buffer.cuh"

#include "gpu_skip.hpp"

namespace corank::gpu {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

enum class Keys { random, duplicates, equal, sorted, reverse, extremes };

const char* name(Keys k) {
  switch (k) {
    case Keys::random: return "random";
    case Keys::duplicates: return "duplicates";
    case Keys::equal: return "equal";
    case Keys::sorted: return "sorted";
    case Keys::reverse: return "reverse";
    case Keys::extremes: return "extremes";
  }
  return "?";
}

constexpr Keys kAllKeys[] = {Keys::random, Keys::duplicates, Keys::equal, Keys::sorted, Keys::reverse, Keys::extremes};

std::vector<std::uint64_t> make_keys(std::uint64_t n, Keys keys, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(n);
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (std::uint64_t i = 0; i < n; ++i) {
    switch (keys) {
      case Keys::random: v[i] = rng(); break;
      case Keys::duplicates: v[i] = rng() % 5; break;
      case Keys::equal: v[i] = 42; break;
      case Keys::sorted: v[i] = i * 3; break;
      case Keys::reverse: v[i] = (n - i) * 3; break;
      case Keys::extremes: v[i] = rng() % 3 == 0 ? 0 : rng() % 2 ? max : max - rng() % 4; break;
    }
  }
  return v;
}

// Sorts a copy of `input` into a separate output (in place when `in_place`)
// and compares with std::sort; checks the returned counts against the plan.
void check_sort(const std::vector<std::uint64_t>& input, std::uint64_t budget, bool in_place = false,
                const HostSortTuning& tuning = {}) {
  const std::uint64_t n = input.size();
  std::vector<std::uint64_t> expect = input;
  std::sort(expect.begin(), expect.end());
  std::vector<std::uint64_t> data = input;
  std::vector<std::uint64_t> out(in_place ? 0 : n, 0xdeadbeef);
  std::uint64_t* dst = in_place ? data.data() : out.data();
  const HostSortPlan plan = plan_host_sort_u64(n, budget, tuning);
  const HostSortTimes t = sort_host_u64(data.data(), dst, n, budget, {}, tuning);
  EXPECT_EQ(t.runs, plan.runs);
  EXPECT_EQ(t.slabs, plan.slabs);
  EXPECT_EQ(t.round_trips, plan.round_trips);
  EXPECT_EQ(t.h2d_bytes, double(plan.round_trips) * double(n) * 8.0);
  EXPECT_EQ(t.d2h_bytes, t.h2d_bytes);
  const std::vector<std::uint64_t>& got = in_place ? data : out;
  ASSERT_EQ(got.size(), expect.size());
  for (std::uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], expect[i]) << "first difference at " << i << " of " << n << " (runs " << plan.runs
                                 << ", chunk " << plan.chunk_keys << ")";
  if (plan.one_pass && !in_place) {
    EXPECT_EQ(data, input) << "one pass must leave data as it was";
  }
}

// The largest n sorted in one pass under `budget`.
std::uint64_t one_pass_limit(std::uint64_t budget) {
  std::uint64_t lo = 1, hi = budget / 8;  // plan(lo) is one pass, plan(hi) is not
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (plan_host_sort_u64(mid, budget).one_pass ? lo : hi) = mid;
  }
  return lo;
}

TEST(HostArraySort, EmptyAndTiny) {
  CORANK_SKIP_WITHOUT_GPU();
  const HostSortTimes t = sort_host_u64(nullptr, nullptr, 0, 0);
  EXPECT_EQ(t.round_trips, 0u);
  for (const Keys k : kAllKeys)
    for (std::uint64_t n : {1, 2, 3, 1000}) {
      SCOPED_TRACE(std::string(name(k)) + " n=" + std::to_string(n));
      check_sort(make_keys(n, k, n), 0);
      check_sort(make_keys(n, k, n), 0, true);
    }
}

TEST(HostArraySort, OnePass) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const Keys k : kAllKeys) {
    SCOPED_TRACE(name(k));
    const auto input = make_keys(1'000'003, k, 7);
    ASSERT_TRUE(plan_host_sort_u64(input.size(), 64 * kMiB).one_pass);
    check_sort(input, 64 * kMiB);
    check_sort(input, 64 * kMiB, true);
  }
}

// A large one-pass sort: every key crosses PCIe once each way, through
// staging slots much smaller than the array; in place too, in presorted runs.
TEST(HostArraySort, LargeOnePass) {
  CORANK_SKIP_WITHOUT_GPU();
  constexpr std::uint64_t M = std::uint64_t{1} << 24;
  for (const Keys k : {Keys::random, Keys::duplicates, Keys::extremes}) {
    SCOPED_TRACE(name(k));
    const HostSortPlan plan = plan_host_sort_u64(3 * M + 5, 0);
    ASSERT_TRUE(plan.one_pass);
    EXPECT_EQ(plan.runs, 1u);
    EXPECT_EQ(plan.slabs, 0u);
    check_sort(make_keys(3 * M + 5, k, 3), 0);
    // In place, and up in 16 presorted runs of about 3 M keys.
    HostSortTuning runs;
    runs.presort_runs = 16;
    runs.min_run_keys = M / 8;
    ASSERT_EQ(plan_host_sort_u64(3 * M + 5, 0, runs).presort_runs, 16u);
    check_sort(make_keys(3 * M + 5, k, 4), 0, true, runs);
  }
}

// A one-pass sort in presorted runs (each sorted on the device while the next
// uploads, then merged there), through small staging slots; a run count that
// leaves runs under the minimum sorts the array at once.
TEST(HostArraySort, OnePassInPresortedRuns) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const unsigned runs : {2u, 3u, 8u, 9u}) {
    HostSortTuning tuning;
    tuning.slot_bytes = 4096;
    tuning.slots = runs % 2 ? 2 : 3;
    tuning.presort_runs = runs;
    tuning.min_run_keys = 1000;
    EXPECT_EQ(plan_host_sort_u64(1000 * runs - 1, 64 * kMiB, tuning).presort_runs, 1u);
    EXPECT_EQ(plan_host_sort_u64(1000 * runs, 64 * kMiB, tuning).presort_runs, runs);
    for (const Keys k : kAllKeys)
      for (const std::uint64_t n : {std::uint64_t{1000} * runs - 1, std::uint64_t{1000} * runs, std::uint64_t{300007}}) {
        SCOPED_TRACE(std::string(name(k)) + " runs=" + std::to_string(runs) + " n=" + std::to_string(n));
        const auto input = make_keys(n, k, n + runs);
        check_sort(input, 64 * kMiB, false, tuning);
        check_sort(input, 64 * kMiB, true, tuning);
      }
  }
}

TEST(HostArraySort, PlanUnderSmallBudget) {
  CORANK_SKIP_WITHOUT_GPU();
  const std::uint64_t budget = 2 * kMiB;
  const std::uint64_t limit = one_pass_limit(budget);
  const HostSortPlan one = plan_host_sort_u64(limit, budget);
  const HostSortPlan two = plan_host_sort_u64(limit + 1, budget);
  EXPECT_TRUE(one.one_pass);
  EXPECT_EQ(one.round_trips, 1u);
  EXPECT_LE(one.device_bytes, budget);
  EXPECT_FALSE(two.one_pass);
  EXPECT_EQ(two.round_trips, 2u);
  EXPECT_LE(two.device_bytes, budget);
  EXPECT_EQ(two.chunk_keys, two.slab_keys);
  EXPECT_EQ(two.chunk_keys, limit);  // runs as large as one device sort
  EXPECT_EQ(two.runs, 2u);
  EXPECT_EQ(two.runs, (limit + 1 + two.chunk_keys - 1) / two.chunk_keys);
  EXPECT_THROW(plan_host_sort_u64(100, 64), CudaError);  // no chunk fits
}

TEST(HostArraySort, AroundTheOnePassLimit) {
  CORANK_SKIP_WITHOUT_GPU();
  const std::uint64_t budget = 2 * kMiB;
  const std::uint64_t limit = one_pass_limit(budget);
  for (const Keys k : {Keys::random, Keys::duplicates, Keys::reverse})
    for (const std::uint64_t n : {limit - 1, limit, limit + 1, limit + 2}) {
      SCOPED_TRACE(std::string(name(k)) + " n=" + std::to_string(n));
      check_sort(make_keys(n, k, n), budget);
    }
}

TEST(HostArraySort, TwoPassesAroundChunkAndSlabMultiples) {
  CORANK_SKIP_WITHOUT_GPU();
  const std::uint64_t budget = 2 * kMiB;
  const std::uint64_t limit = one_pass_limit(budget);
  const std::uint64_t L = plan_host_sort_u64(limit + 1, budget).chunk_keys;
  for (const Keys k : kAllKeys)
    for (const std::uint64_t runs : {4, 5, 9})
      for (const std::int64_t delta : {-1, 0, 1}) {
        const std::uint64_t n = runs * L + delta;
        if (n <= limit) continue;
        SCOPED_TRACE(std::string(name(k)) + " n=" + std::to_string(n) + " L=" + std::to_string(L));
        check_sort(make_keys(n, k, n + 11), budget);
      }
}

TEST(HostArraySort, ManyRunsAndSlabs) {
  CORANK_SKIP_WITHOUT_GPU();
  // 512 KiB: runs of about 15000 keys, so k is in the hundreds and a slab
  // gathers hundreds of (often empty or one-key) segments.
  const std::uint64_t budget = kMiB / 2;
  for (const Keys k : kAllKeys) {
    const std::uint64_t n = 3'000'017;
    const HostSortPlan plan = plan_host_sort_u64(n, budget);
    ASSERT_FALSE(plan.one_pass);
    ASSERT_GE(plan.runs, 100u);
    SCOPED_TRACE(std::string(name(k)) + " runs=" + std::to_string(plan.runs));
    check_sort(make_keys(n, k, 99), budget);
  }
}

TEST(HostArraySort, LargerTwoPass) {
  CORANK_SKIP_WITHOUT_GPU();
  const std::uint64_t budget = 64 * kMiB;
  const auto input = make_keys(24'000'000, Keys::random, 5);
  const HostSortPlan plan = plan_host_sort_u64(input.size(), budget);
  ASSERT_FALSE(plan.one_pass);
  SCOPED_TRACE("runs=" + std::to_string(plan.runs));
  check_sort(input, budget);
}

TEST(HostArraySort, PinnedInput) {
  CORANK_SKIP_WITHOUT_GPU();
  const std::uint64_t budget = 2 * kMiB;
  const std::uint64_t n = 400'000;
  ASSERT_FALSE(plan_host_sort_u64(n, budget).one_pass);
  const auto input = make_keys(n, Keys::duplicates, 3);
  PinnedBuffer<std::uint64_t> data(static_cast<std::int64_t>(n)), out(static_cast<std::int64_t>(n));
  std::copy(input.begin(), input.end(), data.begin());
  sort_host_u64(data.data(), out.data(), n, budget);
  auto expect = input;
  std::sort(expect.begin(), expect.end());
  EXPECT_TRUE(std::equal(expect.begin(), expect.end(), out.begin()));
}

// The caller's arrays are only copied through staging, never page-locked.
TEST(HostArraySort, CallerMemoryIsNeverPageLocked) {
  CORANK_SKIP_WITHOUT_GPU();
  auto data = make_keys(400'000, Keys::random, 8);
  std::vector<std::uint64_t> out(data.size());
  sort_host_u64(data.data(), out.data(), data.size(), 2 * kMiB);
  for (const std::uint64_t* p : {data.data(), out.data()}) {
    cudaPointerAttributes attr{};
    ASSERT_EQ(cudaPointerGetAttributes(&attr, p), cudaSuccess);
    EXPECT_EQ(attr.type, cudaMemoryTypeUnregistered);
  }
}

TEST(HostArraySort, MisuseIsRejected) {
  CORANK_SKIP_WITHOUT_GPU();
  const std::uint64_t budget = 2 * kMiB;
  auto data = make_keys(400'000, Keys::random, 9);
  ASSERT_FALSE(plan_host_sort_u64(data.size(), budget).one_pass);
  // In place needs one pass; partial overlap never works.
  EXPECT_THROW(sort_host_u64(data.data(), data.data(), data.size(), budget), CudaError);
  std::vector<std::uint64_t> both(2 * data.size());
  EXPECT_THROW(sort_host_u64(both.data(), both.data() + 1, data.size(), budget), CudaError);
  // Nothing was page-locked by a rejected call.
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, data.data()), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeUnregistered);
}

}  // namespace
}  // namespace corank::gpu
