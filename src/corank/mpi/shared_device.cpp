#include "corank/mpi/shared_device.hpp"

#include <algorithm>

#include "corank/mpi/agreement.hpp"

namespace corank::mpi {

bool one_device(const std::vector<std::string>& devices) {
  return !devices.empty() && !devices[0].empty() &&
         std::all_of(devices.begin(), devices.end(), [&](const std::string& d) { return d == devices[0]; });
}

bool ranks_share_one_device(Communicator& c, const Job& job, const std::string& device) {
  // Every rank gathers, whatever it would decide alone: the collective is
  // the same on every rank, and so is its answer.
  const std::vector<std::string> on_node = c.gather_on_node(device);
  return c.ranks() > 1 && on_node.size() == c.ranks() && !job.text() && !job.request.always_exchange &&
         one_device(on_node);
}

void take_node(Job& job) {
  if (!job.threads_given) job.local.threads = std::max(job.node.cores, 1u);
  if (!job.memory_given) job.local.memory_budget = job.node.memory * job.node.node_ranks;
}

bool map_for_one_sort(Communicator& c, Job& job, std::unique_ptr<WholeInput>& whole) {
  const unsigned threads = job.local.threads;
  const std::uint64_t memory = job.local.memory_budget;
  phase(c, [&] {
    if (c.rank() != 0) return;
    take_node(job);
    whole = WholeInput::map_if_resident(job);
  });
  int unmapped[1] = {c.rank() == 0 && !whole ? 1 : 0};
  c.max(unmapped, 1);
  if (unmapped[0] == 0) return true;
  job.local.threads = threads;
  job.local.memory_budget = memory;
  return false;
}

}  // namespace corank::mpi
