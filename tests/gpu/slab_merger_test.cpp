// The GPU slab merger against the CPU k-way merge: random, duplicate-heavy and
// all-equal entries, 1- and 2-word keys, k = 1, 2, 3, 7 and 16 segments with
// empty ones among them, two slabs in flight. Skips with a reason without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/slab_merger.cuh"
#include "corank/key_entry.hpp"
#include "corank/kway_merge.hpp"

#include "gpu_skip.hpp"

namespace corank {
namespace {

enum class Keys { random, duplicates, equal };

// k sorted runs of entries, pos = global index in run order, as the in-memory
// merge sees them. Every third segment is empty when `holes`.
template <unsigned W>
std::vector<std::vector<KeyEntry<W>>> make_runs(std::size_t k, std::uint64_t max_len, Keys keys, bool holes,
                                                std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<KeyEntry<W>>> runs(k);
  std::uint64_t pos = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::uint64_t len = holes && i % 3 == 1 ? 0 : rng() % (max_len + 1);
    for (std::uint64_t j = 0; j < len; ++j) {
      KeyEntry<W> e{};
      for (unsigned w = 0; w < W; ++w) {
        const std::uint64_t r = rng();
        e.key[w] = keys == Keys::random ? r : keys == Keys::duplicates ? r % (w == 0 ? 4 : 3) : 7;
      }
      e.pos = pos++;
      runs[i].push_back(e);
    }
    std::sort(runs[i].begin(), runs[i].end());
  }
  return runs;
}

template <unsigned W>
void submit(gpu::SlabMerger& m, const std::vector<std::vector<KeyEntry<W>>>& runs) {
  std::vector<const std::uint64_t*> segs;
  std::vector<std::uint64_t> lens;
  for (const auto& r : runs) {
    segs.push_back(reinterpret_cast<const std::uint64_t*>(r.data()));
    lens.push_back(r.size());
  }
  m.submit(segs.data(), lens.data(), segs.size());
}

template <unsigned W>
std::vector<KeyEntry<W>> cpu_merge(const std::vector<std::vector<KeyEntry<W>>>& runs) {
  std::vector<std::span<const KeyEntry<W>>> spans(runs.begin(), runs.end());
  std::size_t n = 0;
  for (const auto& r : runs) n += r.size();
  std::vector<KeyEntry<W>> out(n);
  merge_kway(std::span<const std::span<const KeyEntry<W>>>(spans), out.data());
  return out;
}

template <unsigned W>
void expect_equal(const std::uint64_t* got, std::uint64_t count, const std::vector<KeyEntry<W>>& want) {
  ASSERT_EQ(count, want.size());
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t* g = got + i * (W + 1);
    for (unsigned w = 0; w < W; ++w) ASSERT_EQ(g[w], want[i].key[w]) << "entry " << i << " word " << w;
    ASSERT_EQ(g[W], want[i].pos) << "entry " << i;
  }
}

template <unsigned W>
void check_all(std::uint64_t max_len) {
  gpu::SlabMerger m(W, 16 * max_len, 0);
  ASSERT_GE(m.slab_records(), 16 * max_len);
  std::uint64_t seed = 1;
  for (Keys keys : {Keys::random, Keys::duplicates, Keys::equal})
    for (std::size_t k : {1, 2, 3, 7, 16})
      for (bool holes : {false, true}) {
        SCOPED_TRACE("W=" + std::to_string(W) + " keys=" + std::to_string(int(keys)) + " k=" + std::to_string(k) +
                     " holes=" + std::to_string(holes));
        // Two slabs in flight, taken in order.
        const auto a = make_runs<W>(k, max_len, keys, holes, seed++);
        const auto b = make_runs<W>(k, max_len / 3 + 1, keys, holes, seed++);
        submit<W>(m, a);
        submit<W>(m, b);
        std::uint64_t count = 0;
        const std::uint64_t* got = m.take(count);
        expect_equal<W>(got, count, cpu_merge<W>(a));
        got = m.take(count);
        expect_equal<W>(got, count, cpu_merge<W>(b));
      }
  const auto t = m.times();
  EXPECT_GT(t.merge_ms + t.h2d_ms + t.d2h_ms, 0.0);
}

TEST(GpuSlabMerger, OneWordKeysEqualTheCpuMerge) {
  CORANK_SKIP_WITHOUT_GPU();
  check_all<1>(5000);
}

TEST(GpuSlabMerger, TwoWordKeysEqualTheCpuMerge) {
  CORANK_SKIP_WITHOUT_GPU();
  check_all<2>(5000);
}

TEST(GpuSlabMerger, LargeSlabs) {
  CORANK_SKIP_WITHOUT_GPU();
  gpu::SlabMerger m(1, 1 << 22, 0);
  const auto runs = make_runs<1>(13, 300000, Keys::duplicates, false, 99);
  submit<1>(m, runs);
  std::uint64_t count = 0;
  const std::uint64_t* got = m.take(count);
  expect_equal<1>(got, count, cpu_merge<1>(runs));
}

TEST(GpuSlabMerger, EmptySlabs) {
  CORANK_SKIP_WITHOUT_GPU();
  gpu::SlabMerger m(2, 100, 0);
  const std::vector<std::vector<KeyEntry<2>>> none(3);
  submit<2>(m, none);
  std::uint64_t count = 1;
  m.take(count);
  EXPECT_EQ(count, 0u);
}

TEST(GpuSlabMerger, SmallBudgetMeansSmallSlabs) {
  CORANK_SKIP_WITHOUT_GPU();
  gpu::SlabMerger m(2, 1 << 20, 1 << 20);
  EXPECT_LT(m.slab_records(), std::uint64_t{1} << 20);
  EXPECT_GT(m.slab_records(), 0u);
  EXPECT_LE(m.device_bytes(), std::uint64_t{1} << 20);
  const auto runs = make_runs<2>(7, m.slab_records() / 7, Keys::random, true, 5);
  submit<2>(m, runs);
  std::uint64_t count = 0;
  const std::uint64_t* got = m.take(count);
  expect_equal<2>(got, count, cpu_merge<2>(runs));
}

TEST(GpuSlabMerger, RejectsOversizedSlabsAndWideKeys) {
  CORANK_SKIP_WITHOUT_GPU();
  EXPECT_THROW(gpu::SlabMerger(3, 100, 0), gpu::CudaError);
  gpu::SlabMerger m(1, 10, 0);
  std::vector<std::vector<KeyEntry<1>>> runs(2);
  for (std::uint64_t i = 0; i < 12; ++i) runs[i / 6].push_back(KeyEntry<1>{{i % 6}, i});
  EXPECT_THROW(submit<1>(m, runs), gpu::CudaError);
  std::uint64_t count = 0;
  EXPECT_THROW(m.take(count), gpu::CudaError);
}

}  // namespace
}  // namespace corank
