#include "corank/mpi/one_sort.hpp"

#include <algorithm>

#include "corank/mpi/agreement.hpp"

namespace corank::mpi {

OneSort one_sort_of(const std::vector<std::string>& devices, bool same_cores) {
  if (devices.size() < 2) return OneSort::None;
  const bool alike = std::all_of(devices.begin(), devices.end(), [&](const std::string& d) { return d == devices[0]; });
  if (!alike) return OneSort::None;  // GPUs of their own, or some ranks on the CPU and some on a GPU
  if (!devices[0].empty()) return OneSort::OneDevice;
  return same_cores ? OneSort::SharedCores : OneSort::None;
}

OneSort ranks_leave_sort_to_rank_zero(Communicator& c, const Job& job, const std::string& device) {
  // Every rank gathers, whatever it would decide alone: the collective is
  // the same on every rank, and so is its answer (same_cores is too: each
  // rank compares the same masks).
  const std::vector<std::string> on_node = c.gather_on_node(device);
  if (on_node.size() != c.ranks() || job.text() || job.request.exchange != DistributedRequest::Exchange::Auto)
    return OneSort::None;
  return one_sort_of(on_node, job.node.same_cores);
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
