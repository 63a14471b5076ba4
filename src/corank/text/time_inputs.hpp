#pragma once
// The time rules of one sort: what the user said (TimeSettings), completed by
// what the inputs say. Each input file's first lines name its timestamp
// format (time_formats.hpp's detection, for keys without positions), and the
// newest modification time among the inputs is the reference date of
// yearless timestamps.
//
// A file that mixes formats keeps each that its sampled lines show
// (detect_formats). The rules are one for all inputs, because records are compared by their
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

// What decides a file's formats: its first lines (at most so many, within
// its first bytes), and lines from windows spread over the rest of it, so
// that each part of logs concatenated into one file is seen (one making up
// less than about a sixteenth of the file, away from its start, may not be).
inline constexpr std::size_t kFormatSampleLines = 200;
inline constexpr std::size_t kFormatSampleBytes = 64 << 10;
inline constexpr std::size_t kFormatSampleWindows = 15;
inline constexpr std::size_t kFormatWindowBytes = 16 << 10;

// Throws UsageError for settings it cannot use. `read_inputs` false: no file
// is looked at (checking a request). `sample` false: no key needs the formats
// detected. Notes (with verbose) and warnings go to io.diagnostics.
std::shared_ptr<const TimeRules> time_rules_for(const TimeSettings& settings, std::span<const std::string> inputs,
                                                bool read_inputs, bool sample, char eol, const io::IoOptions& io,
                                                bool verbose);

}  // namespace corank::text
