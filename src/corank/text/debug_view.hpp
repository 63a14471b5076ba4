#pragma once
// GNU sort's --debug for lines in the C locale: the warnings it prints about
// the key definitions before sorting, and how it shows each output line: the
// line with tabs as '>' and a newline for its terminator, then one line per key
// that underlines the bytes the key compares ("^ no match for key" where there
// are none), and one for the whole line where the last-resort comparison applies.
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/key_spec.hpp"

namespace corank::text {

// The warnings, each without the program name and newline, first of all
// "text ordering performed using simple byte comparison". `global` holds the
// global ordering options; `global_only` says no -k was given.
std::vector<std::string> debug_warnings(const LineOrdering& ordering, const KeyField& global, bool global_only);

// Appends `line` (without its terminator) as --debug shows it.
void append_debug_view(const LineOrdering& ordering, std::string_view line, std::string& out);

}  // namespace corank::text
