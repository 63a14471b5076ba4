#pragma once
// One rank: its share is the whole input, so there is nothing to sample and
// nothing to exchange, and the rank's sort should cost what corank's does.
// Where every input of fixed-size records is in memory already (a memory file
// system, the page cache), the rank's sort takes the files' pages where they
// lie (io::MappedInput), as corank's own sort takes a resident file: no copy
// into the rank's memory first. The mappings cover the snapshot's sizes
// (inputs.hpp), so what was appended since is not read, and a file that
// shrinks under them is reported as corank reports it. Text, inputs that
// must be read from the disk and inputs over half of -S (which the exchange
// would spill) go the exchange's way.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "corank/io/mapped_input.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/local_sort.hpp"

namespace corank::mpi {

class WholeInput {
public:
  // nullptr where the records are text or an input is not resident.
  static std::unique_ptr<WholeInput> map_if_resident(const Job& job);

  // The mapped inputs for the rank's sort; release() unmaps them.
  PieceInput piece();

private:
  std::vector<std::unique_ptr<io::MappedInput>> maps_;
};

}  // namespace corank::mpi
