#pragma once
// The time rules of one sort: what the user said (TimeSettings), completed by
// what the inputs say. Each input file's sampled lines name its timestamp
// formats (time_formats.hpp's detection, for keys without positions), and its
// modification time is the reference date of its yearless timestamps.
//
// A file that mixes formats keeps each that its sampled lines show
// (detect_formats). Records are compared by their text alone once runs mix
// files: time_rules_for's one rules look for every format detected in any
// input, with the newest input's reference (a sort of one input, -c,
// corank-mpi); a sort of several takes time_rules_by_input's, each input's
// own. Standard input and pipes, which cannot be read twice, are looked at
// only in their first bytes, read ahead and given back to the sort
// (io/peeked_input.hpp): those name a JSON log's time member and show zone
// abbreviations; every format, and the current date, serve their lines.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "corank/io/options.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::text {

// What decides a file's formats: its first lines (at most so many, within
// its first bytes; all of a file those bytes hold), lines from windows
// spread over the rest of it, and its last lines, so that each part of logs
// concatenated into one file is seen (one making up less than about a
// sixteenth of the file, between windows, may not be).
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

// Rules for each input, where yearless timestamps take their year from each
// file's own modification time and times without an offset are read in each
// input's zone (zones[i]; settings.zone where zones is shorter): the inputs
// fall into one group per zone and year reference (the reference: the
// current date for standard input and pipes; for inputs whose formats may
// lack a year: syslog's, any for a file not sampled), the others join their
// zone's first group. Each input's rules are its group's (its year reference),
// looking for the formats detected in that input alone, as lnav applies a
// file's format to every line of it; an input in which nothing was detected
// looks for those of its whole group. Inputs with the same group and formats
// share one object, a single object where one serves all, so that the sort is
// one (sort.cpp sorts the inputs of each rules apart where they differ, and
// time_group_merge.hpp merges them).
std::vector<std::shared_ptr<const TimeRules>> time_rules_by_input(const TimeSettings& settings,
                                                                  std::span<const std::string> inputs,
                                                                  std::span<const std::string> zones, bool sample,
                                                                  char eol, const io::IoOptions& io, bool verbose);

// Explicit time keys (T at field positions: -k1,2T) whose timestamps the
// first lines of an input file follow with a zone abbreviation (PostgreSQL's
// log prefix, `date`'s CET) that the keys' zone never uses but a zone of the
// tz database does: one warning an abbreviation on io.diagnostics, as
// --time's detection gives. Those times are read in the zone given, likely
// not the one they were written in.
void warn_unnamed_key_zones(const LineOrdering& ordering, std::span<const std::string> inputs,
                            const io::IoOptions& io);

}  // namespace corank::text
