#pragma once
// Output placement: each rank's sorted piece lies at its offset (the sizes
// of the pieces before it) of one temporary file beside the target, which
// rank 0 makes and renames onto the target once every rank's piece is in it;
// or each rank's piece becomes OUT.part-NNNNN. Nothing appears under the
// target's name before every rank succeeded.
#include <cstdint>
#include <string>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/scratch.hpp"

namespace corank::mpi {

// Where a rank's piece lies in the output.
struct Placement {
  std::uint64_t offset = 0;  // the bytes of the pieces before this rank's
  std::uint64_t bytes = 0;   // this rank's
  std::uint64_t total = 0;   // everyone's: the output's size
};
// Collective.
Placement place(Communicator& c, std::uint64_t bytes);

// OUT.part-NNNNN, rank's part file.
std::string part_name(const std::string& out, unsigned rank);

// Rank 0's temporary output beside the target, `total` bytes long, whose name
// every rank learns. Collective, failures agreed.
class SharedOutput {
public:
  // With rename_from (rank 0 only: its sorted piece, the output's first
  // bytes as they stand), that file becomes the output where it lies on the
  // target's file system (renamed over the empty one just made) instead of
  // being copied into it; renamed() tells whether it did.
  void create(Communicator& c, const std::string& target, std::uint64_t total, const std::string* rename_from);
  const std::string& name() const { return name_; }
  bool renamed() const { return renamed_; }
  // Rank 0: renames it onto the target.
  void commit(const std::string& target);

private:
  RemoveUnlessKept temp_;  // rank 0's, until renamed onto the target
  std::string name_;       // its name, on every rank
  bool renamed_ = false;
};

// Copies file `from`, less its first `skip` bytes, to offset `at` of the
// open descriptor `to` with `threads` threads.
void copy_into(const std::string& from, int to, const std::string& to_name, std::uint64_t at, std::uint64_t skip,
               unsigned threads);

std::uint64_t file_size(const std::string& path);

}  // namespace corank::mpi
