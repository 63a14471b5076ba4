#pragma once
// Errors the sorter raises besides io::IoError and UsageError. Every one of them
// ends a sort with one line on stderr and exit status 2.
#include <stdexcept>

namespace corank {

// The input is not what the format says (a size that is not a multiple of the
// record size, for example).
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

}  // namespace corank
