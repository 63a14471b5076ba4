#pragma once
// The time rules of one sort: what the user said (TimeSettings), completed by
// what the inputs say. Each input file's first lines name its timestamp
// format (time_formats.hpp's detection, for keys without positions), and the
// newest modification time among the inputs is the reference date of
// yearless timestamps.
//
// The rules are one for all inputs, because records are compared by their
// text alone once runs mix files: a positionless key looks for every format
// detected in any input, and every file's yearless lines take their year
// from the newest input. Standard input and pipes, which cannot be read
// twice, are not sampled (every format, and the current date, serve them).
#include <memory>
#include <span>
#include <string>

#include "corank/io/options.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::text {

// How many of each file's first lines decide its format.
inline constexpr std::size_t kFormatSampleLines = 200;
inline constexpr std::size_t kFormatSampleBytes = 64 << 10;

// Throws UsageError for settings it cannot use. `read_inputs` false: no file
// is looked at (checking a request). `sample` false: no key needs the formats
// detected. Notes (with verbose) and warnings go to io.diagnostics.
std::shared_ptr<const TimeRules> time_rules_for(const TimeSettings& settings, std::span<const std::string> inputs,
                                                bool read_inputs, bool sample, char eol, const io::IoOptions& io,
                                                bool verbose);

}  // namespace corank::text
