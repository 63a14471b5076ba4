#pragma once
// --part-files: each rank's piece becomes OUT.part-NNNNN (NNNNN its rank),
// and the parts concatenate to the sorted whole. A rank sorts its piece into
// a file without a name beside the target (O_TMPFILE; where the file system
// has none, a name with the rank's job mark from the start), stages it under
// .OUT.part-NNNNN.<mark>.new once sorted, and the staged parts take their
// names together (commit_parts).
#include <string>

#include "corank/mpi/cleanup.hpp"
#include "corank/mpi/communicator.hpp"
#include "corank/mpi/scratch.hpp"

namespace corank::mpi {

// OUT.part-NNNNN, rank's part file.
std::string part_name(const std::string& out, unsigned rank);

class PartFile {
public:
  PartFile(const std::string& target, unsigned rank);
  PartFile(const PartFile&) = delete;
  PartFile& operator=(const PartFile&) = delete;
  ~PartFile();
  // The file to sort into.
  const ScratchFile& file() const { return file_; }
  // Gives the sorted part its staging name.
  void stage();
  const std::string& name() const { return name_; }      // OUT.part-NNNNN
  const std::string& staged() const { return staged_; }  // its staging name
  // The staged part has taken its name: nothing to remove any more.
  void taken() noexcept;

private:
  std::string name_, staged_;
  ScratchFile file_;
  bool staged_here_ = false;  // staged_ exists and is ours to remove
  CleanupPath cleanup_;
};

// Collective, failures agreed: every rank's staged part takes its name, and
// rank 0 removes the parts of an earlier run with more ranks, which would not
// belong; all of it or nothing:
//  1. each rank keeps its part's old file, if any, as a hard link under
//     .OUT.part-NNNNN.<mark>.old (rank 0 also each earlier run's extra part);
//  2. once every rank has, each renames its staged part onto its name, and
//     rank 0 removes the extra parts;
//  3. if any rank failed to, every rank puts back what was there (the kept
//     link renamed back onto the name, or the new part removed), the staged
//     parts are removed and all exit 2; else the kept links are removed.
// Steps 1 to 3 are one io::DeferTermination section, so SIGINT and SIGTERM
// never stop a commit half-way on a rank: what they meet is acted on after
// it. Only a rank killed outright (SIGKILL, a power cut) during step 2 can
// leave some parts new and others old (each part whole, never a mix within
// one); the kept links then remain under their .old names (cleanup.hpp: the
// next corank-mpi on the host removes them as a dead job's), as do the
// staged parts not yet renamed.
void commit_parts(Communicator& c, const std::string& target, PartFile& mine);

}  // namespace corank::mpi
