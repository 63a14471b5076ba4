// Which ranks leave the sort to rank 0 (every rank naming the same GPU, or
// none naming one on cores they all may run on), and what rank 0 then takes
// of the node: its cores and half the node's memory, unless --parallel and
// -S said otherwise.
#include "corank/mpi/one_sort.hpp"

#include <gtest/gtest.h>

namespace corank::mpi {
namespace {

TEST(MpiOneSort, OneDeviceOrSharedCoresOnly) {
  EXPECT_EQ(one_sort_of({"0", "0", "0"}, false), OneSort::OneDevice);
  EXPECT_EQ(one_sort_of({"GPU-5e1d", "GPU-5e1d"}, true), OneSort::OneDevice);
  EXPECT_EQ(one_sort_of({"0", "1"}, true), OneSort::None);        // a GPU each
  EXPECT_EQ(one_sort_of({"0", "0", "1"}, true), OneSort::None);   // three ranks on two GPUs
  EXPECT_EQ(one_sort_of({"", ""}, true), OneSort::SharedCores);    // the CPU, on the same cores
  EXPECT_EQ(one_sort_of({"", "", ""}, false), OneSort::None);      // the CPU, bound apart: parts
  EXPECT_EQ(one_sort_of({"0", ""}, true), OneSort::None);         // one on a GPU, one on the CPU
  EXPECT_EQ(one_sort_of({""}, true), OneSort::None);               // one rank: whole_input.hpp's
  EXPECT_EQ(one_sort_of({}, true), OneSort::None);
}

// A request Job accepts; nothing is opened.
DistributedRequest gensort_request() {
  DistributedRequest d;
  d.sort.format = "gensort";
  d.sort.inputs = {"in.dat"};
  d.sort.output = "sorted.dat";
  return d;
}

TEST(MpiOneSort, RankZeroTakesTheNodeUnlessTold) {
  const DistributedRequest request = gensort_request();
  NodeShare node;
  node.node_ranks = 4;
  node.cores = 16;
  node.threads = 4;
  node.memory = std::uint64_t{8} << 30;
  Job job(request, 0, node);
  EXPECT_EQ(job.local.threads, 4u);
  take_node(job);
  EXPECT_EQ(job.local.threads, 16u);
  EXPECT_EQ(job.local.memory_budget, std::uint64_t{32} << 30);

  DistributedRequest given = gensort_request();
  given.sort.threads = 3;
  given.sort.memory_budget = std::uint64_t{1} << 30;
  Job told(given, 0, node);
  take_node(told);
  EXPECT_EQ(told.local.threads, 3u);
  EXPECT_EQ(told.local.memory_budget, std::uint64_t{1} << 30);
}

}  // namespace
}  // namespace corank::mpi
