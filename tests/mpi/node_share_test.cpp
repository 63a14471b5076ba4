// How the ranks of a node share its cores and memory: unbound ranks split
// the cores, ranks bound to cores of their own keep them, ranks bound by
// socket split their socket's; every rank takes an even part of half the
// memory. Over ranks as threads: every rank of the fake world is on one node.
#include "corank/mpi/node_share.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "fake_communicator.hpp"

namespace corank::mpi {
namespace {

cpu_set_t cores(unsigned from, unsigned to) {
  cpu_set_t s;
  CPU_ZERO(&s);
  for (unsigned i = from; i < to; ++i) CPU_SET(i, &s);
  return s;
}

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

TEST(MpiNodeShare, UnboundRanksSplitTheCores) {
  const cpu_set_t all = cores(0, 16);
  const NodeShare s = share_node(all, {all, all, all, all}, 16, 64 * kGiB);
  EXPECT_EQ(s.node_ranks, 4u);
  EXPECT_EQ(s.cores, 16u);
  EXPECT_EQ(s.node_cores, 16u);
  EXPECT_EQ(s.sharing, 4u);
  EXPECT_EQ(s.threads, 4u);
  EXPECT_EQ(s.memory, 8 * kGiB);
  EXPECT_TRUE(s.same_cores);
}

TEST(MpiNodeShare, BoundRanksKeepTheirCores) {
  const NodeShare one = share_node(cores(2, 3), {cores(0, 1), cores(1, 2), cores(2, 3)}, 3, 6 * kGiB);
  EXPECT_EQ(one.cores, 1u);
  EXPECT_EQ(one.node_cores, 3u);  // bound to one of three: the note says so
  EXPECT_EQ(one.threads, 1u);
  EXPECT_EQ(one.sharing, 1u);
  EXPECT_EQ(one.memory, kGiB);
  // By socket: two ranks on each of two 8-core sockets.
  const cpu_set_t a = cores(0, 8), b = cores(8, 16);
  const NodeShare socket = share_node(b, {a, a, b, b}, 16, 64 * kGiB);
  EXPECT_EQ(socket.cores, 8u);
  EXPECT_EQ(socket.sharing, 2u);
  EXPECT_EQ(socket.threads, 4u);
  EXPECT_FALSE(one.same_cores);
  EXPECT_FALSE(socket.same_cores);  // its socket's other rank has the same, the others not
  // More ranks than cores: one thread each, on the same cores.
  const cpu_set_t two = cores(0, 2);
  EXPECT_EQ(share_node(two, {two, two, two}, 2, kGiB).threads, 1u);
  EXPECT_TRUE(share_node(two, {two, two, two}, 2, kGiB).same_cores);
  // A rank that may run on more cores than another does not share its own.
  EXPECT_FALSE(share_node(two, {two, cores(0, 1)}, 2, kGiB).same_cores);
}

// A control group's CPU quota (2.5 cores, rounded up to 3) bounds the cores
// the ranks of the group split, as a narrower mask would.
TEST(MpiNodeShare, TheCpuQuotaBoundsTheCores) {
  const cpu_set_t all = cores(0, 16);
  const NodeShare s = share_node(all, {all, all, all}, 16, 64 * kGiB, 3);
  EXPECT_EQ(s.cores, 3u);
  EXPECT_EQ(s.sharing, 3u);
  EXPECT_EQ(s.threads, 1u);
  EXPECT_EQ(share_node(all, {all}, 16, kGiB, 3).threads, 3u);
  EXPECT_EQ(share_node(cores(0, 2), {cores(0, 2)}, 16, kGiB, 3).threads, 2u);  // the mask is narrower still
}

TEST(MpiNodeShare, GatheredOverTheNodesRanks) {
  testing::FakeWorld world(3);
  std::vector<NodeShare> got(3);
  world.run([&](Communicator& c) { got[static_cast<std::size_t>(c.rank())] = node_share(c); });
  for (const NodeShare& s : got) {
    EXPECT_EQ(s.node_ranks, 3u);
    EXPECT_EQ(s.sharing, 3u);  // threads of one process: one mask
    EXPECT_EQ(s.memory, node_memory() / 2 / 3);
    EXPECT_GE(s.node_cores, s.cores);
  }
}

}  // namespace
}  // namespace corank::mpi
