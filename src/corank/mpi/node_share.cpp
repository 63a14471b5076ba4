#include "corank/mpi/node_share.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>

#include "corank/machine_share.hpp"

namespace corank::mpi {

std::uint64_t node_memory() { return machine_share().memory; }

NodeShare share_node(const cpu_set_t& mine, const std::vector<cpu_set_t>& node, unsigned node_cores,
                     std::uint64_t memory, unsigned quota_cores) {
  NodeShare s;
  s.node_cores = std::max(node_cores, 1u);
  s.node_ranks = static_cast<unsigned>(std::max<std::size_t>(node.size(), 1));
  s.cores = static_cast<unsigned>(std::max(CPU_COUNT(&mine), 1));
  if (quota_cores) s.cores = std::min(s.cores, quota_cores);
  unsigned sharing = 0;
  for (const cpu_set_t& other : node) {
    cpu_set_t both;
    CPU_AND(&both, &mine, &other);
    sharing += CPU_COUNT(&both) > 0 ? 1 : 0;
    s.same_cores &= CPU_EQUAL(&mine, &other) != 0;
  }
  s.sharing = std::max(sharing, 1u);
  s.threads = std::max(s.cores / s.sharing, 1u);
  s.memory = memory / 2 / s.node_ranks;
  return s;
}

NodeShare node_share(Communicator& c) {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (::sched_getaffinity(0, sizeof mine, &mine) != 0) {
    // No mask to read: every core the system has.
    const unsigned n = std::max(std::thread::hardware_concurrency(), 1u);
    for (unsigned i = 0; i < n && i < CPU_SETSIZE; ++i) CPU_SET(i, &mine);
  }
  const std::vector<std::string> all = c.gather_on_node(std::string(reinterpret_cast<const char*>(&mine), sizeof mine));
  std::vector<cpu_set_t> node(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) std::memcpy(&node[i], all[i].data(), std::min(all[i].size(), sizeof mine));
  const MachineShare& process = machine_share();
  return share_node(mine, node, std::thread::hardware_concurrency(), node_memory(),
                    process.cgroup.cpus > 0 ? process.cpus : 0);
}

}  // namespace corank::mpi
