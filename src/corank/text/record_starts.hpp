#pragma once
// Where records begin in a piece of input whose records are runs of lines
// (TextFormat::starts_record: a multi-line log record begins at a line with a
// timestamp), found by several threads at once: each line's test is
// independent of the lines around it, and it is the costly part of splitting
// such input (a time pattern matched against every line).
#include <cstdint>
#include <vector>

#include "corank/text/text_format.hpp"

namespace corank::text {

// The offsets s in (from, end) of `base`, ascending, where a whole line (its
// terminator before `end`) begins that starts a record by `format`: the
// records are then [from, s1), [s1, s2), ..., and the last one's end is not
// known yet. Split among `threads` threads by byte ranges.
std::vector<std::uint64_t> record_starts(const char* base, std::uint64_t from, std::uint64_t end,
                                         const TextFormat& format, unsigned threads);

}  // namespace corank::text
