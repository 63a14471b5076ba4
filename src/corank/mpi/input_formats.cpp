#include "corank/mpi/input_formats.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "corank/request_options.hpp"
#include "corank/text/time_formats.hpp"

namespace corank::mpi {

namespace {

// Whether `rules` looks for format `f`.
bool looks_for(const text::TimeRules& rules, const text::TimeFormat& f) {
  const auto search = rules.search_formats();
  return std::find(search.begin(), search.end(), &f.pattern) != search.end();
}

}  // namespace

void settle_input_formats(SortRequest& r) {
  if (r.time_search_formats || !r.time_format.empty() || r.inputs.empty() || !request::finds_times(r)) return;
  // Lines of several files: each input's own rules, as corank reads them.
  std::vector<std::shared_ptr<const text::TimeRules>> each = request::rules_by_input(r);
  if (each.empty()) each.push_back(request::global_ordering(r, 0, true).time_rules);
  std::vector<std::string> names, members;
  for (const text::TimeFormat& f : text::known_time_formats())
    if (std::any_of(each.begin(), each.end(), [&](const auto& rules) { return looks_for(*rules, f); }))
      names.emplace_back(f.name);
  for (const auto& rules : each)
    for (const std::string& m : rules->json_time_members())
      if (std::find(members.begin(), members.end(), m) == members.end()) members.push_back(m);
  r.time_search_formats = std::move(names);
  r.time_json_members = std::move(members);
}

}  // namespace corank::mpi
