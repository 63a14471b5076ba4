#pragma once
// Output placement: each rank's sorted piece lies at its offset (the sizes
// of the pieces before it) of one temporary file beside the target, which
// rank 0 makes and renames onto the target once every rank's piece is in it
// (or, for a target that renaming would change, copies into it: see
// commit()); or each rank's piece becomes OUT.part-NNNNN (part_files.hpp).
// Nothing appears under the target's name before every rank succeeded.
#include <cstdint>
#include <string>

#include "corank/mpi/cleanup.hpp"
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

// Rank 0's temporary output beside the target, named with its job mark
// (cleanup.hpp) since every rank opens it by name: .<target>.<mark>.<n>.
class SharedOutput {
public:
  SharedOutput() = default;
  SharedOutput(const SharedOutput&) = delete;
  SharedOutput& operator=(const SharedOutput&) = delete;
  ~SharedOutput();
  // Collective, failures agreed: rank 0 makes it `total` bytes long, and
  // every rank learns its name. With `piece` (rank 0 only: its sorted piece,
  // the output's first bytes as they stand) that file becomes the output
  // where it lies on the target's file system instead of being copied into
  // it; linked() tells whether it did.
  void create(Communicator& c, const std::string& target, std::uint64_t total, ScratchFile* piece);
  const std::string& name() const { return name_; }
  bool linked() const { return linked_; }
  // Rank 0: the output takes the target's name, or, for a target that
  // renaming would change (a file with other hard links, or an owner the
  // new file cannot take), is copied into it as corank fills such a target:
  // its inode, links, mode and owner kept (fill_in_place).
  void commit(const std::string& target, bool sync, unsigned threads);

private:
  std::string name_;        // on every rank
  bool made_here_ = false;  // rank 0, until committed: removed when this object ends
  bool linked_ = false;
  bool fill_target_ = false;  // its owner, which the new file could not take: fill it in place
  CleanupPath cleanup_;  // every rank: the signal handlers remove it
};

// Copies the complete output `from` over the old content of `target`, in
// place. Not atomic, as GNU sort's output never is, but as safe as a copy
// can be: the space is reserved first, so a full file system fails with the
// old content whole, and the copy is an io::DeferTermination section, so
// SIGINT and SIGTERM never leave half of each; only SIGKILL or a power cut
// during the copy can.
void fill_in_place(const std::string& from, const std::string& target, bool sync, unsigned threads);

// Copies file `from` to offset `at` of the open descriptor `to` with
// `threads` threads.
void copy_into(const std::string& from, int to, const std::string& to_name, std::uint64_t at, unsigned threads);

std::uint64_t file_size(const std::string& path);

}  // namespace corank::mpi
