#pragma once
// The errors the sorter raises, besides io::IoError (io/error.hpp) for what the
// system refuses. Every one of them ends a sort with one line on stderr and
// exit status 2.
#include <stdexcept>

namespace corank {

// A malformed request: an unknown --format, a bad --key, options that do not
// go together. Found before anything is read.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The input is not what the format says (a size that is not a multiple of the
// record size, for example).
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A limit of the process or the system leaves the sort too little: too few
// descriptors (ulimit -n) for the runs it must hold, memory exhausted under an
// address-space limit (ulimit -v) or by the system. The message names the limit.
class LimitError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Any failure inside the GPU backend (a CUDA error, device memory exhausted);
// under --gpu=auto the sort goes on on the CPU.
class GpuError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

}  // namespace corank
