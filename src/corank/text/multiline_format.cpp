#include "corank/text/multiline_format.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "corank/text/time_formats.hpp"

namespace corank::text {

MultilineFormat::MultilineFormat(LineOrdering ordering, std::shared_ptr<const TimeRules> rules)
    : TextFormat(ordering.eol, ordering.unique), lines_(std::move(ordering)), rules_(std::move(rules)) {}

namespace {

// The known formats that read a bare number (an epoch) or a date without a
// time of day.
bool reads_number_or_date(const TimePattern* p) {
  static const std::vector<const TimePattern*> weak = [] {
    std::vector<const TimePattern*> v;
    for (const TimeFormat& f : known_time_formats())
      if (f.name == std::string_view("epoch") || f.name == std::string_view("iso8601-date")) v.push_back(&f.pattern);
    return v;
  }();
  return std::find(weak.begin(), weak.end(), p) != weak.end();
}

}  // namespace

// A bare number or a date alone found inside a line is most often the
// message's, not the entry's time ("Key (id)=(1732531201) already exists",
// "license expired on 2026-11-20" in a stack trace): such a line starts a
// record only where it begins with it (after a '['), or where it holds a JSON
// object (its time member's value).
bool MultilineFormat::starts_record(std::string_view line) const {
  TimeFound found;
  if (!rules_->find(line, found)) return false;
  if (!reads_number_or_date(found.pattern) || line.starts_with('{')) return true;
  return found.begin == 0 || (found.begin == 1 && line[0] == '[');
}

std::size_t MultilineFormat::record_length(const char* p, const char* end) const {
  const char eol = terminator();
  const void* first = std::memchr(p, eol, static_cast<std::size_t>(end - p));
  if (!first) return 0;
  // The record's first line starts it whatever it holds; each later line
  // joins it until one that has a timestamp.
  const char* line = static_cast<const char*>(first) + 1;
  while (line < end) {
    const void* t = std::memchr(line, eol, static_cast<std::size_t>(end - line));
    if (!t) return 0;
    const char* next = static_cast<const char*>(t);
    if (starts_record({line, static_cast<std::size_t>(next - line)})) return static_cast<std::size_t>(line - p);
    line = next + 1;
  }
  return 0;
}

}  // namespace corank::text
