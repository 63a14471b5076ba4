#include "corank/text/multiline_format.hpp"

#include <cstring>
#include <string_view>

namespace corank::text {

namespace {

// Keys that find a time anywhere read a record's from its first line, as
// starts_record does: what starts the record is its time.
LineOrdering with_record_times(LineOrdering ordering) {
  for (KeyField& k : ordering.keys) k.time_record = k.time_search;
  return ordering;
}

}  // namespace

MultilineFormat::MultilineFormat(LineOrdering ordering, std::shared_ptr<const TimeRules> rules)
    : TextFormat(ordering.eol, ordering.unique), lines_(with_record_times(std::move(ordering))), rules_(std::move(rules)) {}

bool MultilineFormat::starts_record(std::string_view line) const {
  TimeFound found;
  return rules_->find_record_start(line, found);
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
