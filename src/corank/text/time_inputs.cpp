#include "corank/text/time_inputs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "corank/io/diagnostics.hpp"
#include "corank/io/source.hpp"
#include "corank/notes.hpp"

namespace corank::text {

namespace {

std::optional<struct stat> regular_file(const std::string& path) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return st;
}

// The first lines of a file (decompressed where it is compressed); empty
// when it cannot be read: the sort itself reports that.
std::string first_bytes(const std::string& path, const io::IoOptions& io) {
  io::IoOptions small = io;
  small.block_size = kFormatSampleBytes;
  small.queue_depth = 1;
  small.use_uring = false;
  small.direct = false;
  small.read_threads = 1;
  std::string bytes(kFormatSampleBytes, '\0');
  try {
    auto src = io::open_source(path, small);
    bytes.resize(src->read(bytes.data(), bytes.size()));
  } catch (const std::exception&) {
    bytes.clear();
  }
  return bytes;
}

std::vector<std::string_view> lines_of(std::string_view bytes, char eol, bool whole) {
  std::vector<std::string_view> lines;
  while (!bytes.empty() && lines.size() < kFormatSampleLines) {
    const std::size_t n = bytes.find(eol);
    if (n == std::string_view::npos) {
      if (whole) lines.push_back(bytes);  // the file's last line, unterminated
      break;
    }
    lines.push_back(bytes.substr(0, n));
    bytes.remove_prefix(n + 1);
  }
  return lines;
}

}  // namespace

std::shared_ptr<const TimeRules> time_rules_for(const TimeSettings& settings, std::span<const std::string> inputs,
                                                bool read_inputs, bool sample, char eol, const io::IoOptions& io,
                                                bool verbose) {
  auto rules = std::make_shared<TimeRules>(settings);
  if (!read_inputs) return rules;
  const std::vector<std::string> stdin_only{"-"};
  if (inputs.empty()) inputs = stdin_only;
  std::optional<std::int64_t> newest;
  const auto known = known_time_formats();
  std::vector<bool> detected(known.size());
  bool sampled_any = false;
  for (const std::string& path : inputs) {
    const auto st = regular_file(path);
    if (!st) continue;
    newest = std::max(newest.value_or(st->st_mtim.tv_sec), static_cast<std::int64_t>(st->st_mtim.tv_sec));
    if (!sample || rules->custom_format()) continue;
    const std::string bytes = first_bytes(path, io);
    const auto lines = lines_of(bytes, eol, bytes.size() < kFormatSampleBytes);
    if (lines.empty()) continue;
    sampled_any = true;
    const int f = detect_format(known, lines);
    if (f < 0) {
      if (io.diagnostics)
        io.diagnostics->warning(path + ": no timestamp of a known format in its first " + std::to_string(lines.size()) +
                                " lines (--time-format names another)");
      continue;
    }
    detected[static_cast<std::size_t>(f)] = true;
    note(verbose, io, "time: " + path + ": " + std::string(known[static_cast<std::size_t>(f)].name) + " timestamps");
  }
  std::vector<const TimePattern*> search;
  for (std::size_t f = 0; f < known.size(); ++f)
    if (detected[f]) search.push_back(&known[f].pattern);
  // Input not sampled (standard input, a pipe) may hold any format.
  const bool all_sampled = std::all_of(inputs.begin(), inputs.end(), [](const std::string& p) { return regular_file(p).has_value(); });
  if (sampled_any && all_sampled) rules->set_search_formats(std::move(search));
  if (settings.year <= 0 && newest) {
    YearReference r;
    rules->zone().year_month_at(*newest, r.year, r.month);
    rules->set_reference(r);
  }
  note(verbose, io,
       "time: zone " + rules->zone().name() + "; yearless timestamps in the 12 months up to " +
           std::to_string(rules->reference().year) + "-" + std::to_string(rules->reference().month));
  return rules;
}

}  // namespace corank::text
