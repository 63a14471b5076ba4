#pragma once
// The sorter's --verbose notes, handed to the Diagnostics in its I/O options
// (corank/io/diagnostics.hpp): the library itself prints nothing.
#include <string>

#include "corank/io/diagnostics.hpp"
#include "corank/io/options.hpp"

namespace corank {

inline void note(bool verbose, const io::IoOptions& io, const std::string& line) {
  if (verbose && io.diagnostics) io.diagnostics->note(line);
}

}  // namespace corank
