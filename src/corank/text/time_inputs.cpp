#include "corank/text/time_inputs.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "corank/io/diagnostics.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/source.hpp"
#include "corank/notes.hpp"

namespace corank::text {

namespace {

std::optional<struct stat> regular_file(const std::string& path) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return st;
}

// The first bytes of a file (decompressed where it is compressed); empty
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

// Bytes of a file at evenly spaced places past its first kFormatSampleBytes,
// where the file is stored as it reads (not compressed): the parts of logs
// concatenated into one file. Each window's partial first and last lines are
// dropped by the caller.
std::vector<std::string> windows(const std::string& path, std::uint64_t size, std::string_view head) {
  std::vector<std::string> out;
  if (size <= 2 * kFormatSampleBytes) return out;
  const io::FileDesc fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return out;
  std::string raw(head.size(), '\0');
  if (::pread(fd.get(), raw.data(), raw.size(), 0) != static_cast<ssize_t>(raw.size()) || raw != head) return out;
  for (std::size_t k = 1; k <= kFormatSampleWindows; ++k) {
    std::string w(kFormatWindowBytes, '\0');
    const auto at = static_cast<off_t>(size / (kFormatSampleWindows + 1) * k);
    const ssize_t n = ::pread(fd.get(), w.data(), w.size(), at);
    if (n <= 0) break;
    w.resize(static_cast<std::size_t>(n));
    out.push_back(std::move(w));
  }
  return out;
}

// Up to `most` whole lines of `bytes`; `from_line_start`: bytes begins a line;
// `to_end`: bytes ends the file (its last line may lack a terminator).
void add_lines(std::string_view bytes, char eol, bool from_line_start, bool to_end, std::size_t most,
               std::vector<std::string_view>& lines) {
  if (!from_line_start) {
    const std::size_t n = bytes.find(eol);
    bytes.remove_prefix(n == std::string_view::npos ? bytes.size() : n + 1);
  }
  for (std::size_t taken = 0; !bytes.empty() && taken < most; ++taken) {
    const std::size_t n = bytes.find(eol);
    if (n == std::string_view::npos) {
      if (to_end) lines.push_back(bytes);
      break;
    }
    lines.push_back(bytes.substr(0, n));
    bytes.remove_prefix(n + 1);
  }
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
    const std::string head = first_bytes(path, io);
    std::vector<std::string_view> lines;
    add_lines(head, eol, true, head.size() < kFormatSampleBytes, kFormatSampleLines, lines);
    const std::vector<std::string> more = windows(path, static_cast<std::uint64_t>(st->st_size), head);
    for (std::size_t k = 0; k < more.size(); ++k)
      add_lines(more[k], eol, false, k + 1 == more.size() && more[k].size() < kFormatWindowBytes, kFormatSampleLines,
                lines);
    if (lines.empty()) continue;
    sampled_any = true;
    const std::vector<int> found = detect_formats(known, lines);
    if (found.empty()) {
      if (io.diagnostics)
        io.diagnostics->warning(path + ": no timestamp of a known format in " + std::to_string(lines.size()) +
                                " of its lines (--time-format names another)");
      continue;
    }
    std::string names;
    for (int f : found) {
      detected[static_cast<std::size_t>(f)] = true;
      names += (names.empty() ? "" : ", ") + std::string(known[static_cast<std::size_t>(f)].name);
    }
    note(verbose, io, "time: " + path + ": " + names + " timestamps");
  }
  std::vector<const TimePattern*> search;
  for (std::size_t f = 0; f < known.size(); ++f)
    if (detected[f]) search.push_back(&known[f].pattern);
  // Input not sampled (standard input, a pipe) may hold any format.
  const bool all_sampled =
      std::all_of(inputs.begin(), inputs.end(), [](const std::string& p) { return regular_file(p).has_value(); });
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
