#pragma once
// The text format a SortRequest sorts by, for programs that must compare
// records exactly as corank::sort does (corank-mpi's splitters). Not installed:
// text/ is the library's own.
#include <memory>

#include "corank/sort.hpp"
#include "corank/text/text_format.hpp"

namespace corank {

// The format of a text request (lines, csv, tsv), with its keys, ordering,
// -r, -s, -u and -R's seed (read from --random-source, else fresh). Throws
// UsageError as validate() does.
std::unique_ptr<text::TextFormat> text_format_of(const SortRequest& request);

}  // namespace corank
