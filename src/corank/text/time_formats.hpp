#pragma once
// The timestamp formats corank knows, as data: each a name, a pattern
// (time_pattern.hpp) and an example, most specific first. A time key tries
// them in this order at its start; --time detects which of them each input
// file uses from its first lines, as lnav does: every format is tried on each
// sampled line, anywhere in it, and the one that matches the most lines wins
// (ties go to the earlier, more specific one).
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

// Where a format matches in a line: the first position where it does, at
// the start of a word (after a byte that is not a letter or digit), ending
// before one.
struct TimeHit {
  std::size_t begin = 0, end = 0;
  LocalTime time;
};
bool find_in_line(const TimePattern& pattern, std::string_view line, TimeHit& hit) noexcept;

// The first match of any of `patterns` in the line: the earliest position,
// and at one position the first pattern in the list.
bool find_first(std::span<const TimePattern* const> patterns, std::string_view line, TimeHit& hit) noexcept;

// The index of the format in `formats` that matches the most of `lines`
// (the earliest on ties), or -1 when none matches any.
int detect_format(std::span<const TimeFormat> formats, std::span<const std::string_view> lines) noexcept;

}  // namespace corank::text
