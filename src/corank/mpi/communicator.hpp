#pragma once
// The collectives the distributed sort is made of, behind an interface: MPI in
// corank-mpi (MpiCommunicator), ranks as threads of one process in the unit
// tests (tests/mpi/fake_communicator.hpp), so that a stage runs without mpirun.
// Every call is collective: each rank of the communicator makes it, in the
// same order. Counts and displacements are ints, as MPI's are: callers keep
// what they move at once under kMaxRoundBytes.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace corank::mpi {

// The most bytes one collective moves to a rank (MPI's int counts and displacements).
constexpr std::uint64_t kMaxRoundBytes = std::uint64_t{1} << 30;

class Communicator {
public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  unsigned ranks() const { return static_cast<unsigned>(size()); }

  // The bytes of every rank on this rank's node (which share its cores and
  // memory), in rank order, this rank's among them.
  virtual std::vector<std::string> gather_on_node(const std::string& mine) = 0;
  // Each of values[0..n) becomes its largest over the ranks.
  virtual void max(int* values, int n) = 0;
  // The sum over the ranks.
  virtual std::uint64_t sum(std::uint64_t value) = 0;
  // The sum over the ranks before this one (0 on rank 0).
  virtual std::uint64_t sum_before(std::uint64_t value) = 0;
  // Root's bytes into `bytes` on every rank.
  virtual void broadcast(std::string& bytes, int root) = 0;
  // Every rank's value, in rank order.
  virtual std::vector<std::uint64_t> gather(std::uint64_t value) = 0;
  // Every rank's bytes at displs[r] of `all` (MPI_Allgatherv).
  virtual void gather_bytes(const char* mine, int n, char* all, const int* counts, const int* displs) = 0;
  // send[d] to rank d, recv[s] from rank s: one int each way (MPI_Alltoall).
  virtual void all_to_all(const int* send, int* recv) = 0;
  // send_counts[d] bytes from send + send_displs[d] to rank d, received at
  // recv + recv_displs[s] from rank s (MPI_Alltoallv). The receiving side
  // counts in units of recv_unit bytes (records), so that its displacements
  // reach past 2 GiB; recv_counts[s] * recv_unit is what rank s sends it.
  virtual void all_to_all_bytes(const char* send, const int* send_counts, const int* send_displs, char* recv,
                                const int* recv_counts, const int* recv_displs, std::uint32_t recv_unit) = 0;
};

class MpiCommunicator final : public Communicator {
public:
  explicit MpiCommunicator(MPI_Comm comm);
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> gather_on_node(const std::string& mine) override;
  void max(int* values, int n) override;
  std::uint64_t sum(std::uint64_t value) override;
  std::uint64_t sum_before(std::uint64_t value) override;
  void broadcast(std::string& bytes, int root) override;
  std::vector<std::uint64_t> gather(std::uint64_t value) override;
  void gather_bytes(const char* mine, int n, char* all, const int* counts, const int* displs) override;
  void all_to_all(const int* send, int* recv) override;
  void all_to_all_bytes(const char* send, const int* send_counts, const int* send_displs, char* recv,
                        const int* recv_counts, const int* recv_displs, std::uint32_t recv_unit) override;

private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

// Every rank's bytes, concatenated in rank order, on every rank; *sizes_out
// (optional) gets each rank's count. Throws InputError past 2 GiB in all.
std::string gather_all(Communicator& c, const std::string& mine, std::vector<int>* sizes_out = nullptr);

// Little helpers for what ranks gather: a u64 appended to / taken from bytes.
void put_u64(std::string& s, std::uint64_t v);
std::uint64_t get_u64(const char*& p);

}  // namespace corank::mpi
