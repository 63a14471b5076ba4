#pragma once
// GNU sort's checks before it sorts (coreutils sort.c, check_inputs and
// check_output): every input readable, the output possible, so that a sort
// fails at once, in GNU's words, rather than after reading what came before.
#include <string>
#include <vector>

namespace corank::cli {

// Throws io::IoError "cannot read: FILE: why" for the first input (other
// than "-", standard input) that this process may not read.
void check_inputs(const std::vector<std::string>& inputs);

// Throws io::IoError "open failed: TARGET: why" where the target cannot be
// created: an empty name, or a new file whose directory is missing or closed
// to this process. An existing target is left to the sort, which writes it or
// replaces it (GNU opens it here; corank creates nothing under the target's
// name before the sort succeeds).
void check_output(const std::string& target);

}  // namespace corank::cli
