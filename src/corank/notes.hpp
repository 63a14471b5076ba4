#pragma once
// The sorter's --verbose notes, handed to the Diagnostics in its I/O options
// (corank/io/diagnostics.hpp): the library itself prints nothing.
#include <string>

#include "corank/io/diagnostics.hpp"
#include "corank/io/options.hpp"
#include "corank/sort_options.hpp"

namespace corank {

inline void note(bool verbose, const io::IoOptions& io, const std::string& line) {
  if (verbose && io.diagnostics) io.diagnostics->note(line);
}

// The line -v prints after a sort that streamed records into the output
// (adaptive run formation: text/run_window.hpp, sorted_stream.hpp).
inline std::string adaptive_summary(const SortStats& s) {
  return io::format_line("adaptive run formation: %s, %llu records in side runs",
                         s.one_pass ? "one run, written straight to the output, in one pass"
                                    : "the output's run merged with the runs left besides",
                         static_cast<unsigned long long>(s.side_records));
}

}  // namespace corank
