#pragma once
// Knobs of the I/O layer, filled from the command line.
#include <cstddef>
#include <string>
#include <vector>

namespace corank::io {

struct IoOptions {
  std::size_t block_size = std::size_t{4} << 20;  // bytes per request
  unsigned queue_depth = 8;                       // requests in flight per file
  bool use_uring = true;    // false, or CORANK_IO=pread in the environment, forces pread/pwrite
  bool direct = true;       // O_DIRECT where the file system and offsets allow it
  bool verbose = false;     // say on stderr which engine was chosen
};

}  // namespace corank::io
