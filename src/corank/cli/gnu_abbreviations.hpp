#pragma once
// GNU's long options win their abbreviations. GNU sort takes `--p=1` for
// --parallel and `--nu` for --numeric-sort; getopt_long over corank's table
// would call both ambiguous (--progress, --null), and scripts written for
// `sort` would break. So a prefix that GNU sort 9.4 resolves to one of its
// long options means that option, and corank's own options need a prefix GNU
// does not claim (--prog, --nul) or their full name.
#include <getopt.h>

#include <optional>
#include <string>
#include <string_view>

namespace corank::cli {

// `arg` ("--NAME" or "--NAME=VALUE") with NAME spelled out where NAME is not
// exactly one of `options` (ended by a row of zeros) but abbreviates exactly
// one of GNU sort's long options; nullopt where getopt_long should see `arg`
// as it is, to take it or to call it ambiguous or unknown in its own words.
std::optional<std::string> spell_out_gnu_abbreviation(std::string_view arg, const option* options);

}  // namespace corank::cli
