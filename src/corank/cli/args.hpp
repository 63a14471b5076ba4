#pragma once
// The command line, parsed the way GNU sort parses its own: glibc's
// getopt_long, so that clustered short options (-nrk2), attached arguments
// (-S1G, --buffer=1G), unambiguous prefixes of long options (--rev), "--",
// options after operands and GNU's own error messages all behave as they do
// for `sort`. CLI11 cannot do the prefixes, GNU's messages or the obsolete
// +POS keys, which need operands and options seen in order.
#include <getopt.h>

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "corank/sort.hpp"

namespace corank::cli {

enum class Action { Sort, Check, CheckQuiet, Help, Version };

struct Invocation {
  Action action = Action::Sort;
  SortRequest request;
  std::optional<std::string> files0_from;  // --files0-from: read the input names from this file
  std::string stats_file;      // --stats: "" none, "-" standard output
  std::optional<bool> progress;  // --progress / --no-progress; unset: when stderr is a terminal
  // The calling program's own options (parse_args' `own`), in the order
  // given: each one's code and argument ("" where it takes none).
  std::vector<std::pair<int, std::string>> own_options;
};

// A command line that cannot be parsed. `what` is the message without the
// program name; empty when getopt has printed its own already. Either way the
// caller adds GNU's "Try 'corank --help'" line and exits 2.
struct BadCommandLine : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses argv. Throws BadCommandLine, or UsageError for a bad option value;
// getopt's own messages on stderr (where `messages`) name `program`, as GNU's
// name theirs. `own`: long options of the calling program beside corank's
// (corank-mpi's), each with a code of at least kOwnOptionCodes, parsed as
// corank's are (attached or separate arguments, prefixes, getopt's messages)
// and handed back in Invocation::own_options. Not reentrant (getopt's state
// is global).
inline constexpr int kOwnOptionCodes = 1024;
Invocation parse_args(int argc, char** argv, const char* program = "corank", bool messages = true,
                      std::span<const option> own = {});

// --help's text: its usage, its options and notes, its exit status and
// examples.
std::string help_text();
// Its options and their notes alone (corank-mpi's --help takes them).
std::string help_options_text();

}  // namespace corank::cli
