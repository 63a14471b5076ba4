// corank-bench timesearch: what finding each line's time costs, the part of
// --time that reads the lines (time_formats.hpp's search and
// time_pattern.hpp's matching, then the instant in the zone), on one thread.
// Each file's lines are searched for the formats detected in it, as --time
// does (time_inputs.hpp's rules of each input), or with --all-formats for
// every known format at once (a file not sampled: standard input). Each file
// is read into memory and split into lines first, untimed; the search runs
// REPS times and the best is kept.
//
//   corank-bench timesearch [--zone Europe/Berlin] [--reps 3] [--all-formats] FILE...
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "corank/stopwatch.hpp"
#include "corank/text/time_inputs.hpp"

namespace {

using namespace corank::text;
using corank::Clock;
using corank::seconds_since;

std::vector<std::string_view> lines_of(const std::string& data) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < data.size();) {
    std::size_t end = data.find('\n', at);
    if (end == std::string::npos) end = data.size();
    lines.emplace_back(data.data() + at, end - at);
    at = end + 1;
  }
  return lines;
}

}  // namespace

int bench_timesearch(int argc, char** argv) {
  CLI::App app{"corank-bench timesearch: finding each line's time, as --time does, on one thread"};
  std::string zone = "Europe/Berlin";
  unsigned reps = 3;
  bool all_formats = false;
  std::vector<std::string> files;
  app.add_option("--zone", zone, "--time-zone's IANA name");
  app.add_option("--reps", reps, "searches of each file; the best is kept");
  app.add_flag("--all-formats", all_formats, "every known format in every file, not each file's detected ones");
  app.add_option("files", files, "log files")->required();
  CLI11_PARSE(app, argc, argv);
  TimeSettings settings;
  settings.zone = zone;
  const auto rules = time_rules_by_input(settings, files, {}, !all_formats, '\n', corank::io::IoOptions{}, false);
  double total = 0;
  std::uint64_t total_lines = 0;
  for (std::size_t f = 0; f < files.size(); ++f) {
    std::ifstream in(files[f], std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::vector<std::string_view> lines = lines_of(data);
    const TimeRules& r = *rules[f];
    double best = 0;
    std::uint64_t found = 0;
    for (unsigned rep = 0; rep < std::max(reps, 1u); ++rep) {
      found = 0;
      const auto t0 = Clock::now();
      for (std::string_view line : lines) found += key_instant(r, TimeExtent::anywhere, line, {}).has_value();
      const double s = seconds_since(t0);
      if (rep == 0 || s < best) best = s;
    }
    total += best;
    total_lines += lines.size();
    std::printf("%-40s %10zu lines %10llu with a time %7.1f ns a line\n", files[f].c_str(), lines.size(),
                static_cast<unsigned long long>(found), lines.empty() ? 0.0 : best * 1e9 / static_cast<double>(lines.size()));
  }
  std::printf("all: %llu lines in %.3f s, %.1f ns a line\n", static_cast<unsigned long long>(total_lines), total,
              total_lines ? total * 1e9 / static_cast<double>(total_lines) : 0.0);
  return 0;
}
