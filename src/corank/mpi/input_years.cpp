#include "corank/mpi/input_years.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/request_options.hpp"

namespace corank::mpi {

namespace {

// Whether a key of the request reads times (the format's value checks name
// each key that reads a type).
bool reads_times(const SortRequest& r) {
  const std::vector<KeyValueCounts> checks = request::make_text_format(r, 0, false)->value_checks();
  return std::any_of(checks.begin(), checks.end(), [](const KeyValueCounts& k) { return k.kind == "time"; });
}

// Whether the rules look for a format without a year (which the reference dates).
bool yearless(const text::TimeRules& rules) {
  const auto formats = rules.search_formats();
  return std::any_of(formats.begin(), formats.end(),
                     [](const text::TimePattern* p) { return !p->has_year() && !p->reads_epoch(); });
}

bool same(const text::YearReference& a, const text::YearReference& b) { return a.year == b.year && a.month == b.month; }

std::string year_month(const text::YearReference& y) {
  char s[32];
  std::snprintf(s, sizeof s, "%04d-%02u", y.year, y.month);
  return s;
}

}  // namespace

void settle_input_years(SortRequest& r) {
  if (r.time_year > 0 || r.inputs.empty() || !is_text_format(r.format) || !reads_times(r)) return;
  text::YearReference year;
  // Lines of several files: each input's own rules, as corank sorts them
  // (each group of one reference apart, then merged); one reference must
  // serve them all here. Inputs whose formats all carry a year join the
  // first group, whichever reference it has.
  const std::vector<std::shared_ptr<const text::TimeRules>> each = request::rules_by_input(r);
  if (!each.empty()) {
    std::size_t first = 0;
    while (first < each.size() && !yearless(*each[first])) ++first;
    if (first == each.size()) first = 0;
    year = each[first]->reference();
    for (std::size_t i = 0; i < each.size(); ++i)
      if (!same(each[i]->reference(), year))
        throw UsageError("inputs whose yearless timestamps take their year from different modification times ('" +
                         r.inputs[first] + "': " + year_month(year) + ", '" + r.inputs[i] + "': " +
                         year_month(each[i]->reference()) + "): corank-mpi dates every input alike; give --time-year");
  } else {
    year = request::global_ordering(r, 0, true).time_rules->reference();  // the newest input's
  }
  r.time_year = year.year;
  r.time_year_month = year.month;
}

}  // namespace corank::mpi
