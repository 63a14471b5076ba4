#include "corank/cli/unread_keys.hpp"

#include <vector>

#include "corank/io/diagnostics.hpp"

namespace corank::cli {

namespace {

std::string records_word(const SortRequest& r) {
  if (r.format == "lines") return r.multiline ? "records" : "lines";
  return r.format == "jsonl" ? "records" : "rows";
}

std::string key_named(const KeyValueCounts& k) {
  return "key " + std::to_string(k.key) + (k.name.empty() ? "" : " (" + k.name + ")");
}

}  // namespace

std::string unread_keys_line(const SortStats& stats, const SortRequest& request) {
  struct Finding {
    std::uint64_t count;
    std::string what;  // "had no time in key 1"
    bool first;
  };
  std::vector<Finding> found;
  for (const KeyValueCounts& k : stats.key_values) {
    if (k.unread) found.push_back({k.unread, "had no " + k.kind + " in " + key_named(k), k.unread_first});
    if (k.nulls) found.push_back({k.nulls, "had a NULL or missing value in " + key_named(k), k.nulls_first});
  }
  if (found.empty()) return {};
  const std::string total = io::grouped_digits(stats.records_in) + " " + records_word(request);
  auto where = [](bool first) { return std::string(first ? "first" : "last"); };
  if (found.size() == 1)
    return io::grouped_digits(found[0].count) + " of " + total + " " + found[0].what + "; they sort " + where(found[0].first) +
           "; --debug shows them";
  std::string line = "of " + total + ",";
  for (std::size_t i = 0; i < found.size(); ++i)
    line += (i ? ", " : " ") + io::grouped_digits(found[i].count) + " " + found[i].what + " (sorted " + where(found[i].first) + ")";
  return line + "; --debug shows them";
}

}  // namespace corank::cli
