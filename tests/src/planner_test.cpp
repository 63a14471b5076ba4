// The planner as data: for a grid of inputs, record and entry widths and
// budgets, each plan keeps the promises its sort relies on (sort_files.cpp,
// external_sort.cpp): an in-memory plan holds every record and entry within
// the budget; one sort only where scratch for every entry fits as well; an
// external plan's runs and slabs fit the budget by the footprints the phases
// hold; plan_memory leaves the arrays at least a quarter of any budget; the
// text sort's plan keeps its chunks and merge buffers within its arrays.
#include "corank/planner.hpp"
#include "corank/errors.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdio>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace corank {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20, kGiB = std::uint64_t{1} << 30;

TEST(Planner, EveryPlanFitsItsBudget) {
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{5000}, std::uint64_t{10'000'000},
                          std::uint64_t{3'000'000'000}})
    for (std::uint32_t R : {4u, 8u, 100u, 4096u})
      for (std::uint32_t E : {16u, 24u, 40u})
        for (std::uint64_t budget : {64 * 1024 * kMiB / kMiB, 4 * kMiB, 256 * kMiB, 8 * kGiB, 512 * kGiB}) {
          const std::string what = "n " + std::to_string(n) + " R " + std::to_string(R) + " E " +
                                   std::to_string(E) + " budget " + std::to_string(budget);
          const SortPlan p = make_plan(n, R, E, budget, 16);
          EXPECT_GE(p.run_records, 1u) << what;
          EXPECT_GE(p.slab_records, 1u) << what;
          EXPECT_EQ(p.threads, 16u) << what;
          if (p.mode == SortPlan::Mode::InMemory) {
            EXPECT_LE(n * (R + E), budget) << what;  // every record and its entry
            EXPECT_LE(p.run_records, std::max<std::uint64_t>(n, 1)) << what;
            EXPECT_LE(p.slab_records, std::max<std::uint64_t>(n, 1)) << what;
            if (p.single_sort) EXPECT_LE(n * (R + 2 * E), budget) << what;  // and scratch for every entry
          } else {
            EXPECT_FALSE(p.single_sort) << what;
            // Run formation holds 4R + 2E bytes a record, the merge 4R + 3E,
            // both besides the runs' index; a budget below 16 records' worth
            // still gets runs of 16.
            EXPECT_EQ(p.index_bytes, budget / kIndexShare) << what;
            if (p.run_records > 16) EXPECT_LE(p.run_records * (4 * R + 2 * E) + p.index_bytes, budget) << what;
            if (p.slab_records > 16) EXPECT_LE(p.slab_records * (4 * R + 3 * E) + p.index_bytes, budget) << what;
            EXPECT_GE(p.sample_stride, 1u) << what;
            EXPECT_LE(p.sample_stride * R, std::max<std::uint64_t>(64 * 1024, R)) << what;
            // The whole input's index within its share, or none: runs merged
            // record by record.
            EXPECT_EQ(p.streamed_merge, n / p.sample_stride * E > p.index_bytes) << what;
          }
        }
}

TEST(Planner, InMemoryWhereItFitsExternalWhereNot) {
  // 10^6 gensort records with 24-byte entries: 124 MB of records and
  // entries, with a run's entries and a slab's output buffers 202 MB, with
  // scratch for every entry instead of a run's 223 MB.
  EXPECT_EQ(make_plan(1'000'000, 100, 24, 2 * kGiB, 4).mode, SortPlan::Mode::InMemory);
  EXPECT_TRUE(make_plan(1'000'000, 100, 24, 2 * kGiB, 4).single_sort);
  const SortPlan runs = make_plan(1'000'000, 100, 24, 210'000'000, 4);
  EXPECT_EQ(runs.mode, SortPlan::Mode::InMemory);
  EXPECT_FALSE(runs.single_sort);  // sorted in runs and merged
  EXPECT_EQ(make_plan(1'000'000, 100, 24, 200'000'000, 4).mode, SortPlan::Mode::External);
  // An input of unknown size (a pipe) is planned as external whatever the budget.
  EXPECT_EQ(make_plan(std::nullopt, 100, 24, 512 * kGiB, 4).mode, SortPlan::Mode::External);
  // In memory, about eight runs of at most 64 MiB of records each.
  const SortPlan big = make_plan(100'000'000, 100, 24, 64 * kGiB, 16);
  EXPECT_TRUE(big.single_sort);
  EXPECT_LE(big.run_records * 100, 64 * kMiB);
}

TEST(Planner, ThreadsWithinTheBudget) {
  EXPECT_EQ(threads_within(64 * kGiB, 16), 16u);
  EXPECT_EQ(threads_within(8 * kMiB, 16), 2u);  // a quarter of 8 MiB: two threads' own memory
  EXPECT_EQ(threads_within(64 * 1024, 16), 1u);
  EXPECT_EQ(threads_within(64 * kGiB, 0), 1u);
}

TEST(Planner, MemoryPlanLeavesArraysAQuarterAtLeast) {
  io::IoOptions io;
  for (std::uint64_t budget : {64 * 1024 * kMiB / kMiB, kMiB, 100 * kMiB, 16 * kGiB})
    for (unsigned streams : {1u, 3u, 200u}) {
      const MemoryPlan m = plan_memory(io, budget, streams);
      const std::string what = "budget " + std::to_string(budget) + " streams " + std::to_string(streams);
      EXPECT_GE(m.arrays, budget / 4) << what;
      EXPECT_EQ(m.io.block_size % (64 * 1024), 0u) << what;
      EXPECT_GE(m.io.block_size, 64 * 1024u) << what;
      EXPECT_LE(m.io.block_size, io.block_size) << what;
      EXPECT_EQ(m.io_bytes, m.io.block_size * io.queue_depth * streams) << what;
      // The engine takes at most an eighth of a budget that affords 64 KiB blocks.
      if (budget / 8 / streams / io.queue_depth >= 64 * 1024) EXPECT_LE(m.io_bytes, budget / 8) << what;
      // What the process holds already comes off the arrays.
      if (budget > m.io_bytes + m.resident && budget - m.io_bytes - m.resident >= budget / 4)
        EXPECT_EQ(m.arrays, budget - m.io_bytes - m.resident) << what;
    }
}

// The text sort's plan: two chunks and the sort's scratch within the arrays,
// every merge input's buffer (and the output's) within half of them where the
// smallest useful buffer allows, a fan-in of 2 to 256 that --batch-size caps
// and compressed runs (a decompressor's window each) lower, and the
// thread count and engine blocks of the budget.
TEST(Planner, TextPlanFitsItsBudget) {
  io::IoOptions io;
  for (std::uint64_t budget : {64 * 1024 * kMiB / kMiB, kMiB, 100 * kMiB, 2 * kGiB, 256 * kGiB})
    for (unsigned threads : {1u, 2u, 16u})
      for (unsigned batch : {0u, 2u, 7u, 1000u})
        for (bool compressed : {false, true}) {
          const std::string what = "budget " + std::to_string(budget) + " threads " + std::to_string(threads) +
                                   " batch " + std::to_string(batch) + (compressed ? " compressed" : "");
          const MemoryPlan m = plan_memory(io, budget, 3);
          const TextSortPlan p = plan_text_sort(budget, threads, m, batch, compressed);
          EXPECT_EQ(p.budget, budget) << what;
          EXPECT_EQ(p.threads, threads_within(budget, threads)) << what;
          EXPECT_EQ(p.io.block_size, m.io.block_size) << what;
          EXPECT_EQ(p.arrays, m.arrays) << what;
          if (p.arrays >= 3 * 1024) EXPECT_LE(3 * p.chunk_bytes, p.arrays) << what;  // two chunks and scratch
          EXPECT_LE(p.gather_buffer, p.arrays / 16) << what;
          EXPECT_GE(p.fan_in, 2u) << what;
          EXPECT_LE(p.fan_in, 256u) << what;
          if (batch >= 2) EXPECT_LE(p.fan_in, batch) << what;
          const std::uint64_t per_input = compressed ? kMiB : 64 * 1024;
          if (p.arrays / per_input >= 2 && batch == 0) EXPECT_LE(p.fan_in * per_input, p.arrays) << what;
          EXPECT_GE(p.merge_buffer, 4 * 1024u) << what;
          EXPECT_LE(p.merge_buffer, 256 * 1024u) << what;
          if (p.arrays / (2 * (p.fan_in + 1)) >= 4 * 1024)
            EXPECT_LE((p.fan_in + 1) * p.merge_buffer, p.arrays / 2) << what;
          EXPECT_GE(p.sample_stride, 4 * 1024u) << what;
          EXPECT_GE(p.piece_bytes, 4 * 1024u) << what;
          EXPECT_LE(p.piece_bytes, std::max<std::uint64_t>(p.arrays / 64, 4 * 1024)) << what;
        }
  // Large budgets merge 256 runs at once; compressed runs fewer; tiny ones two.
  EXPECT_EQ(plan_text_sort(64 * kGiB, 16, plan_memory(io, 64 * kGiB, 3), 0, false).fan_in, 256u);
  EXPECT_EQ(plan_text_sort(100 * kMiB, 16, plan_memory(io, 100 * kMiB, 3), 0, true).fan_in,
            plan_memory(io, 100 * kMiB, 3).arrays / kMiB);
  EXPECT_EQ(plan_text_sort(64 * 1024, 1, plan_memory(io, 64 * 1024, 3), 0, false).fan_in, 2u);
}

// Each spilled run holds a descriptor, yet the descriptors never shape the
// memory: an input of any size gets the runs its budget affords (the runs
// held are merged early instead, sort_driver.hpp). The descriptors left are
// counted where they are: one more open file leaves one fewer.
TEST(Planner, DescriptorsNeverShapeRuns) {
  for (std::uint64_t n : {std::uint64_t{100'000}, std::uint64_t{3'000'000'000}})
    for (std::uint64_t budget : {std::uint64_t{4096}, 64 * kMiB}) {
      const SortPlan known = make_plan(n, 8, 16, budget, 4), unknown = make_plan(std::nullopt, 8, 16, budget, 4);
      if (known.mode == SortPlan::Mode::External) EXPECT_EQ(known.run_records, unknown.run_records) << n << " " << budget;
    }
  const std::uint64_t before = free_descriptors();
  {
    const FILE* f = std::fopen("/dev/null", "r");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(free_descriptors(), before - 1);
    std::fclose(const_cast<FILE*>(f));
  }
  EXPECT_EQ(free_descriptors(), before);
  EXPECT_EQ(runs_within_descriptors(before - 10), 10u - kLibraryDescriptors);
  EXPECT_EQ(runs_within_descriptors(before + 10), 2u);  // a merge of two at least
}

// Under a low limit (ulimit -n), engines give up their own descriptors and a
// sort that cannot hold two runs and their merge says which limit is too low.
TEST(Planner, LowDescriptorLimits) {
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  const std::uint64_t open = saved.rlim_cur - free_descriptors();
  io::IoOptions io;
  EXPECT_TRUE(io_within_descriptors(io).use_uring);
  EXPECT_NO_THROW(require_descriptors(3));
  rlimit low = saved;
  low.rlim_cur = open + 20;  // the soft limit only: it is raised back below
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  const io::IoOptions plain = io_within_descriptors(io);
  const std::uint64_t free = free_descriptors();
  low.rlim_cur = open + 2;
  ::setrlimit(RLIMIT_NOFILE, &low);
  bool threw = false;
  try {
    require_descriptors(3);
  } catch (const LimitError& e) {
    threw = std::string(e.what()).find("ulimit -n") != std::string::npos;
  }
  ::setrlimit(RLIMIT_NOFILE, &saved);
  EXPECT_EQ(free, 20u);
  EXPECT_FALSE(plain.use_uring);
  EXPECT_FALSE(plain.direct);
  EXPECT_TRUE(threw);
}

TEST(Planner, DeviceSlabsFitTheDevice) {
  const std::uint64_t capacities[] = {4, 5, 16, 100, 4096, 12345, std::uint64_t{1} << 20, std::uint64_t{3} << 30};
  for (const std::uint64_t C : capacities) {
    for (const std::optional<std::uint64_t> total :
         {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(0), std::optional<std::uint64_t>(1),
          std::optional<std::uint64_t>(C), std::optional<std::uint64_t>(C + 1), std::optional<std::uint64_t>(10 * C),
          std::optional<std::uint64_t>(1000 * C), std::optional<std::uint64_t>(std::uint64_t{1} << 40)}) {
      const DeviceMergePlan p = plan_device_merge(C, total);
      SCOPED_TRACE("capacity " + std::to_string(C) + " total " + (total ? std::to_string(*total) : "unknown"));
      EXPECT_GE(p.stride, 1u);
      EXPECT_LE(p.stride, 4096u);
      EXPECT_GE(p.fan_in, 2u);
      // Any merge of k <= fan_in runs cuts slabs of at most C records
      // (slab_split.hpp: every m-th sample a boundary, m = C / stride - k,
      // a slab at most (m + k) * stride records).
      for (std::uint64_t k = 1; k <= p.fan_in; k = k < 8 ? k + 1 : k * 2) {
        const std::uint64_t per_slab = C / p.stride;
        ASSERT_GT(per_slab, k);
        EXPECT_LE(per_slab * p.stride, C);
      }
      // At most about four slabs' samples per run known ahead: every run of
      // a known input has a few samples at least.
      if (total && *total > C) EXPECT_LE(p.stride * 4, C);
    }
  }
}

// Early merges take runs of the lowest level that has two or more side by
// side (the rightmost such group), the newest fan_in of them, else the newest
// two: the runs held count like the digits of a counter.
TEST(Planner, EarlyMergesTakeTheLowestLevelWithNeighbours) {
  using G = std::pair<std::size_t, std::size_t>;
  const std::vector<unsigned> counter{3, 2, 2, 1, 0, 0, 0};
  EXPECT_EQ(early_merge_group(counter, 8), G(4, 3));
  EXPECT_EQ(early_merge_group(counter, 2), G(5, 2));
  const std::vector<unsigned> twice{1, 1, 0, 1, 1};
  EXPECT_EQ(early_merge_group(twice, 8), G(3, 2));  // the rightmost of level 1
  const std::vector<unsigned> distinct{4, 3, 2, 1, 0};
  EXPECT_EQ(early_merge_group(distinct, 8), G(3, 2));
  const std::vector<unsigned> two{5, 0};
  EXPECT_EQ(early_merge_group(two, 8), G(0, 2));
}

}  // namespace
}  // namespace corank
