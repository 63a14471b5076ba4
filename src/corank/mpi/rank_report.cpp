#include "corank/mpi/rank_report.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corank/io/diagnostics.hpp"
#include "corank/io/error.hpp"
#include "corank/mpi/agreement.hpp"
#include "corank/mpi/partition.hpp"
#include "corank/version.hpp"

namespace corank::mpi {

namespace {

std::string gib(std::uint64_t bytes) { return io::format_line("%.2f GiB", static_cast<double>(bytes) / (1 << 30)); }

// Adds one rank's sort statistics (stats_json.hpp's document) to `totals`:
// records read, and each key's unread and NULL values, key by key (every
// rank's sort has the same keys; a rank that sorted nothing has none).
void add_key_values(const nlohmann::ordered_json& sort, SortStats& totals) {
  totals.records_in += sort.value("records_in", std::uint64_t{0});
  if (!sort.contains("key_values")) return;
  const auto& keys = sort["key_values"];
  if (totals.key_values.size() < keys.size()) totals.key_values.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto& k = keys[i];
    KeyValueCounts& t = totals.key_values[i];
    t.key = k["key"].get<unsigned>();
    t.name = k["name"].get<std::string>();
    t.kind = k["type"].get<std::string>();
    t.unread += k["unread"].get<std::uint64_t>();
    t.nulls += k["null"].get<std::uint64_t>();
    t.unread_first = k["unread_sort"] == "first";
    t.nulls_first = k["null_sort"] == "first";
  }
}

}  // namespace

std::string node_share_note(const Job& job) {
  const NodeShare& n = job.node;
  const std::string threads =
      job.threads_given ? std::to_string(job.local.threads) + " thread(s) (--parallel)"
                        : std::to_string(job.local.threads) + " thread(s) (" + std::to_string(n.cores) +
                              " core(s) it may run on, shared by " + std::to_string(n.sharing) + " rank(s))";
  const std::string memory = job.memory_given ? "-S " + gib(job.local.memory_budget) + " (as given)"
                                              : "-S " + gib(job.local.memory_budget) + " (half the node's memory, shared by " +
                                                    std::to_string(n.node_ranks) + " rank(s))";
  // Open MPI binds one or two ranks to a core each by default: say so, it
  // costs the sort the node's other cores.
  const std::string bound = n.cores < n.node_cores ? "; mpirun bound rank 0 to " + std::to_string(n.cores) + " of the node's " +
                                                         std::to_string(n.node_cores) + " cores (--bind-to none frees them)"
                                                   : "";
  return "rank 0's node runs " + std::to_string(n.node_ranks) + " rank(s); each sorts on " + threads + " with " + memory +
         bound;
}

void report(Communicator& c, const Job& job, const RankReport& r) {
  const RankTimes& t = r.times;
  const NodeShare& n = job.node;
  nlohmann::ordered_json mine = {
      {"rank", c.rank()},
      // How this rank shares its node: by default its part of the cores it
      // may run on and of half the node's memory; what was given otherwise.
      {"node",
       {{"ranks", n.node_ranks},
        {"cores", n.cores},
        {"node_cores", n.node_cores},
        {"ranks_sharing_cores", n.sharing},
        {"threads", job.local.threads},
        {"threads_from", job.threads_given ? "--parallel" : "node share"},
        {"memory_budget", job.local.memory_budget},
        {"memory_from", job.memory_given ? "-S" : "node share"}}},
      {"bytes_received", r.bytes_received},
      {"received_in_memory", r.received_in_memory},
      {"whole_input", r.whole_input},
      {"node_inputs", r.node_inputs},
      {"one_sort", r.one_sort},
      {"records_out", r.stats.records_out},
      {"bytes_out", r.bytes_out},
      {"output_offset", r.output_offset},
      {"in_place", r.in_place},
      {"keys_from_exchange", r.keys_from_exchange},
      {"device_from_exchange", r.device_from_exchange},
      {"seconds",
       {{"setup", t.setup},
        {"sample", t.sample},
        {"exchange", t.exchange},
        {"exchange_read", t.exchange_parts.read},
        {"exchange_bin", t.exchange_parts.bin},
        {"exchange_mpi", t.exchange_parts.mpi},
        {"exchange_keep", t.exchange_parts.keep},
        {"exchange_keys", t.exchange_parts.keys},
        {"exchange_uploads", t.exchange_parts.uploads},
        {"sort", t.sort},
        {"write", t.write},
        {"total", t.total}}},
      {"sort", nlohmann::ordered_json::parse(stats_to_json(r.stats, job.local))},
  };
  std::vector<int> sizes;
  const std::string all = gather_all(c, mine.dump(), &sizes);
  phase(c, [&] {
    if (c.rank() != 0) return;
    const DistributedRequest& req = job.request;
    nlohmann::ordered_json per_rank = nlohmann::ordered_json::array();
    std::vector<std::uint64_t> parts;
    std::uint64_t records = 0, bytes = 0;
    double slowest = 0;
    for (std::size_t k = 0, at = 0; k < sizes.size(); at += static_cast<std::size_t>(sizes[k]), ++k) {
      per_rank.push_back(nlohmann::ordered_json::parse(all.substr(at, static_cast<std::size_t>(sizes[k]))));
      const auto& j = per_rank.back();
      parts.push_back(j["bytes_received"].get<std::uint64_t>());
      records += j["records_out"].get<std::uint64_t>();
      bytes += j["bytes_out"].get<std::uint64_t>();
      slowest = std::max(slowest, j["seconds"]["total"].get<double>());
      if (req.totals) add_key_values(j["sort"], *req.totals);
    }
    const double skew = partition_skew(parts);
    if (job.local.verbose && req.sort.io.diagnostics)
      req.sort.io.diagnostics->note(
          r.one_sort ? io::format_line("%u ranks sorted %llu records in %.3f s, rank 0 all of them (one GPU)",
                                       c.ranks(), static_cast<unsigned long long>(records), slowest)
                     : io::format_line("%u ranks sorted %llu records in %.3f s, partition skew %.4f", c.ranks(),
                                       static_cast<unsigned long long>(records), slowest, skew));
    if (req.stats_file.empty()) return;
    nlohmann::ordered_json doc = {
        {"version", corank::version()},
        {"ranks", c.size()},
        {"format", req.sort.format},
        {"inputs", req.sort.inputs},
        {"output", req.sort.output},
        {"part_files", req.part_files},
        {"records_out", records},
        {"bytes_in", job.inputs->total()},
        {"bytes_out", bytes},
        {"seconds", slowest},  // the slowest rank's total: the job's time
        {"partition_skew", skew},
        {"per_rank", per_rank},
    };
    const std::string text = doc.dump(2) + "\n";
    if (req.stats_file == "-") {
      if (req.stats_text) *req.stats_text = text;
      return;
    }
    std::ofstream f(req.stats_file);
    f << text;
    if (!f) throw io::IoError("write failed", req.stats_file, "cannot write statistics");
  });
}

}  // namespace corank::mpi
