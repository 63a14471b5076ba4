#include "corank/mpi/input_formats.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/request_options.hpp"
#include "corank/text/time_formats.hpp"

namespace corank::mpi {

namespace {

// The names of the formats `rules` looks for, in the table's order.
std::vector<std::string> format_names(const text::TimeRules& rules) {
  std::vector<std::string> names;
  const auto search = rules.search_formats();
  for (const text::TimeFormat& f : text::known_time_formats())
    if (std::find(search.begin(), search.end(), &f.pattern) != search.end()) names.emplace_back(f.name);
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

}  // namespace

void settle_input_formats(SortRequest& r) {
  if (r.time_search_formats || !r.time_format.empty() || r.inputs.empty() || !request::finds_times(r)) return;
  // Lines of several files: each input's own rules, as corank reads them.
  std::vector<std::shared_ptr<const text::TimeRules>> each = request::rules_by_input(r);
  if (each.empty()) each.push_back(request::global_ordering(r, 0, true).time_rules);
  const std::vector<std::string> names = format_names(*each.front());
  for (std::size_t i = 1; i < each.size(); ++i) {
    const std::vector<std::string> theirs = format_names(*each[i]);
    if (theirs != names || each[i]->json_time_members() != each.front()->json_time_members())
      throw UsageError("inputs in different time formats ('" + r.inputs.front() + "': " + joined(names) + ", '" +
                       r.inputs[i] + "': " + joined(theirs) +
                       "): corank-mpi reads every input by one set of formats; give --time-format, or sort with corank");
  }
  r.time_search_formats = names;
  r.time_json_members = each.front()->json_time_members();
}

}  // namespace corank::mpi
