// The --stats document, built with nlohmann::json: what was asked (inputs,
// format, keys, budgets) next to what it cost, so that a file of statistics
// stands on its own when compared with another run's.
#include <iterator>
#include <nlohmann/json.hpp>

#include "corank/request_options.hpp"
#include "corank/sort.hpp"
#include "corank/version.hpp"

namespace corank {

namespace {

using nlohmann::ordered_json;

const char* gpu_mode_name(GpuMode m) { return m == GpuMode::On ? "on" : m == GpuMode::Off ? "off" : "auto"; }

// --time-zone PATTERN=ZONE's, in the order given: [{"pattern": ..., "zone": ...}].
ordered_json input_zones_json(const SortRequest& r) {
  ordered_json zones = ordered_json::array();
  for (const auto& [pattern, zone] : r.input_zones) zones.push_back({{"pattern", pattern}, {"zone", zone}});
  return zones;
}

ordered_json options_json(const SortRequest& r) {
  return {
      {"format", r.format},         {"keys", r.keys},
      {"ordering", r.ordering},     {"reverse", r.reverse},
      {"stable", r.stable},         {"unique", r.unique},
      {"memory_budget", r.memory_budget},
      {"threads", r.threads},       {"temporary_directories", r.temp_dirs},
      {"gpu", gpu_mode_name(r.gpu)}, {"gpu_memory", r.gpu_memory},
      {"io_engine", r.io.use_uring ? "auto" : "pread"},
      {"merge_only", r.merge_only}, {"verify", r.verify},
      {"nulls", r.nulls_first ? "first" : "last"},
      {"null_string", r.null_string ? ordered_json(*r.null_string) : ordered_json(nullptr)},
      {"decimal_separator", std::string(1, r.decimal_separator)},
      {"time_year", r.time_year},   {"time_year_month", r.time_year_month},
      {"time_zone", r.time_zone.empty() ? "UTC" : r.time_zone},
      {"input_time_zones", input_zones_json(r)},
      {"time_format", r.time_format},
      {"rejects", r.rejects.empty() ? ordered_json(nullptr) : ordered_json(r.rejects)}};
}

// Each input's zone, in the order of "inputs", where --time-zone
// PATTERN=ZONE gave inputs zones of their own.
ordered_json zones_of_inputs_json(const SortRequest& r) {
  ordered_json zones = ordered_json::array();
  for (const std::string& z : request::zone_of_each_input(r)) zones.push_back(z.empty() ? "UTC" : z);
  return zones;
}

std::vector<std::string> inputs_json(const SortRequest& r) {
  return r.inputs.empty() ? std::vector<std::string>{"-"} : r.inputs;
}

// One member per line, values compact: readable, and a line-based grep of a
// member ("seconds": {...}) sees all of it.
std::string dump(const ordered_json& doc) {
  std::string out = "{\n";
  for (auto it = doc.begin(); it != doc.end(); ++it)
    out += "  " + ordered_json(it.key()).dump() + ": " + it.value().dump() + (std::next(it) == doc.end() ? "\n" : ",\n");
  return out + "}\n";
}

}  // namespace

std::string stats_to_json(const SortStats& s, const SortRequest& r) {
  const double rate = s.seconds.total > 0 ? static_cast<double>(s.bytes_in) / s.seconds.total : 0.0;
  ordered_json doc = {
      {"corank_version", version()},
      {"inputs", inputs_json(r)},
      {"output", r.output},
      {"options", options_json(r)},
      {"mode", s.mode},
      {"backend", s.backend},
      {"threads", s.threads},
      {"memory_budget", s.memory_budget},
      {"records_in", s.records_in},
      {"records_out", s.records_out},
      {"rejected_records", s.rejected_records},
      {"head_records", s.head_records},
      {"bytes_in", s.bytes_in},
      {"bytes_out", s.bytes_out},
      {"runs", s.runs},
      {"spilled_runs", s.spilled_runs},
      {"spill_bytes", s.spill_bytes},
      {"merge_slabs", s.merge_slabs},
      {"merge_passes", s.merge_passes},
      {"side_records", s.side_records},
      {"one_pass", s.one_pass},
      {"seconds",
       {{"read", s.seconds.read},
        {"run_formation", s.seconds.run_formation},
        {"merge", s.seconds.merge},
        {"write", s.seconds.write},
        {"verify", s.seconds.verify},
        {"total", s.seconds.total}}},
      {"gpu_seconds",
       {{"setup", s.gpu_seconds.setup},
        {"h2d", s.gpu_seconds.h2d},
        {"sort", s.gpu_seconds.sort},
        {"d2h", s.gpu_seconds.d2h},
        {"merge", s.gpu_seconds.merge},
        {"pin", s.gpu_seconds.pin},
        {"busy", s.gpu_seconds.busy},
        {"overlapped", s.gpu_seconds.overlapped()}}},
      {"gpu_bytes", {{"h2d", s.gpu_seconds.h2d_bytes}, {"d2h", s.gpu_seconds.d2h_bytes}}},
      {"throughput_bytes_per_second", rate}};
  // Per key: values that did not read as its type, NULL or missing ones, and where they went.
  ordered_json keys = ordered_json::array();
  for (const KeyValueCounts& k : s.key_values)
    keys.push_back({{"key", k.key},
                    {"name", k.name},
                    {"type", k.kind},
                    {"unread", k.unread},
                    {"unread_sort", k.unread_first ? "first" : "last"},
                    {"null", k.nulls},
                    {"null_sort", k.nulls_first ? "first" : "last"}});
  if (!s.key_values.empty()) doc["key_values"] = std::move(keys);
  if (!r.input_zones.empty()) doc["time_zone_of_inputs"] = zones_of_inputs_json(r);
  return dump(doc);
}

std::string check_stats_to_json(const CheckReport& c, const SortRequest& r) {
  ordered_json disorder = nullptr;
  if (!c.sorted) disorder = {{"record_number", c.disorder_record}, {"diagnostic", c.diagnostic}};
  const ordered_json doc = {{"corank_version", version()},
                            {"inputs", inputs_json(r)},
                            {"options", options_json(r)},
                            {"mode", "check"},
                            {"sorted", c.sorted},
                            {"disorder", disorder},
                            {"seconds", {{"total", c.seconds}}}};
  return dump(doc);
}

}  // namespace corank
