#include "corank/mpi/communicator.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "corank/errors.hpp"

namespace corank::mpi {

namespace {

// Waits for a request without holding a core. A blocking collective spins in
// Open MPI's progress loop until the last rank arrives: a rank that left its
// sort to rank 0 (one_sort.hpp) would spin through rank 0's whole sort, on a
// core of the node that sort could use (two ranks on two cores: 1.35-1.40x
// one process). Polled at once for a while (where every rank is there, the
// collective ends in microseconds), then between sleeps that grow to a
// millisecond.
void wait_without_spinning(MPI_Request& request) {
  int done = 0;
  for (int i = 0; i < 2000 && !done; ++i) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  for (std::chrono::microseconds pause{20}; !done; pause = std::min(pause * 2, std::chrono::microseconds{1000})) {
    std::this_thread::sleep_for(pause);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

}  // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
}

std::vector<std::string> MpiCommunicator::gather_on_node(const std::string& mine) {
  MPI_Comm node;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MpiCommunicator on_node(node);
  std::vector<int> sizes;
  const std::string all = gather_all(on_node, mine, &sizes);
  MPI_Comm_free(&node);
  std::vector<std::string> out;
  for (std::size_t r = 0, at = 0; r < sizes.size(); at += static_cast<std::size_t>(sizes[r++]))
    out.push_back(all.substr(at, static_cast<std::size_t>(sizes[r])));
  return out;
}

// The phases' agreement (agreement.hpp): where ranks wait for the slowest.
void MpiCommunicator::max(int* values, int n) {
  std::vector<int> in(values, values + n);
  MPI_Request request;
  MPI_Iallreduce(in.data(), values, n, MPI_INT, MPI_MAX, comm_, &request);
  wait_without_spinning(request);
}

std::uint64_t MpiCommunicator::sum(std::uint64_t value) {
  std::uint64_t total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, comm_);
  return total;
}

std::uint64_t MpiCommunicator::sum_before(std::uint64_t value) {
  std::uint64_t before = 0;
  MPI_Exscan(&value, &before, 1, MPI_UINT64_T, MPI_SUM, comm_);
  return rank_ == 0 ? 0 : before;  // MPI leaves rank 0's undefined
}

void MpiCommunicator::broadcast(std::string& bytes, int root) {
  int len = static_cast<int>(bytes.size());
  MPI_Bcast(&len, 1, MPI_INT, root, comm_);
  bytes.resize(static_cast<std::size_t>(len));
  MPI_Bcast(bytes.data(), len, MPI_CHAR, root, comm_);
}

std::vector<std::uint64_t> MpiCommunicator::gather(std::uint64_t value) {
  std::vector<std::uint64_t> all(static_cast<std::size_t>(size_));
  MPI_Allgather(&value, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, comm_);
  return all;
}

void MpiCommunicator::gather_bytes(const char* mine, int n, char* all, const int* counts, const int* displs) {
  MPI_Allgatherv(mine, n, MPI_BYTE, all, counts, displs, MPI_BYTE, comm_);
}

void MpiCommunicator::all_to_all(const int* send, int* recv) {
  MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm_);
}

void MpiCommunicator::all_to_all_bytes(const char* send, const int* send_counts, const int* send_displs, char* recv,
                                       const int* recv_counts, const int* recv_displs, std::uint32_t recv_unit) {
  // A contiguous run of bytes matches as many bytes sent as MPI_BYTE.
  MPI_Datatype unit = MPI_BYTE;
  if (recv_unit > 1) {
    MPI_Type_contiguous(static_cast<int>(recv_unit), MPI_BYTE, &unit);
    MPI_Type_commit(&unit);
  }
  MPI_Alltoallv(send, send_counts, send_displs, MPI_BYTE, recv, recv_counts, recv_displs, unit, comm_);
  if (recv_unit > 1) MPI_Type_free(&unit);
}

std::string gather_all(Communicator& c, const std::string& mine, std::vector<int>* sizes_out) {
  const std::vector<std::uint64_t> sizes = c.gather(mine.size());
  std::uint64_t total = 0;
  for (auto s : sizes) total += s;
  if (total >= kMaxRoundBytes * 2) throw InputError("the gathered samples exceed 2 GiB (records too long)");
  std::vector<int> counts(c.ranks()), displs(c.ranks());
  for (unsigned r = 0, at = 0; r < c.ranks(); ++r) {
    counts[r] = static_cast<int>(sizes[r]);
    displs[r] = static_cast<int>(at);
    at += static_cast<unsigned>(sizes[r]);
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  c.gather_bytes(mine.data(), counts[static_cast<unsigned>(c.rank())], all.data(), counts.data(), displs.data());
  if (sizes_out) *sizes_out = counts;
  return all;
}

void put_u64(std::string& s, std::uint64_t v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); }

std::uint64_t get_u64(const char*& p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

}  // namespace corank::mpi
