#pragma once
// Putting the finished output in its target's place by rename (output_file.hpp
// decides when): the output was written to a file without a name (O_TMPFILE)
// in the target's directory. It gets a name beside the target (linkat) and is
// renamed over it: the one instant in which a killed process could leave a
// file behind, under an owned name that the next run removes
// (owned_temporary.hpp), and a DeferTermination section (termination.hpp).
#include <string>

namespace corank::io {

// A file without a name in `dir` with `mode` (less the umask), open read-write;
// -1 with errno set where refused (EOPNOTSUPP: a file system without them).
int open_unnamed(const std::string& dir, unsigned mode);

// Gives the unnamed file `fd` an owned name beside `file` and returns it.
// Throws IoError naming `file`'s directory.
std::string link_beside(int fd, const std::string& file);

}  // namespace corank::io
