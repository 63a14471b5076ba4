#pragma once
// The timestamp formats corank knows, as data: each a name, a pattern
// (time_pattern.hpp) and an example, most specific first. A time key tries
// them in this order at its start; --time detects which of them each input
// file uses from a sample of its lines, as lnav does: every format is tried
// on each sampled line, anywhere in it, and the one that reads the most lines
// wins; a file that mixes formats keeps each that reads a share of them.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "corank/text/time_pattern.hpp"

namespace corank::text {

struct TimeFormat {
  std::string_view name;
  TimePattern pattern;
  std::string_view example;
};

// The table, compiled once.
std::span<const TimeFormat> known_time_formats();

// Where a format matches in a line: at the start of a word (after a byte
// that is not a letter or digit), ending before one.
struct TimeHit {
  std::size_t begin = 0, end = 0;
  LocalTime time;
  const TimePattern* pattern = nullptr;  // the one that matched
};

// The first match of any of `patterns` in the line: the earliest position,
// and at one position the first pattern in the list; an epoch number only
// where no other pattern matches.
bool find_first(std::span<const TimePattern* const> patterns, std::string_view line, TimeHit& hit) noexcept;

// A file's formats from a sample of its lines: each line is read as
// find_first over every format would read it, and the formats that read at
// least `min_share` of the lines are the file's (several where logs were
// concatenated into one file), the one that reads the most first. Empty when
// no line has a timestamp.
std::vector<int> detect_formats(std::span<const TimeFormat> formats, std::span<const std::string_view> lines,
                                double min_share = 0.01);

}  // namespace corank::text
