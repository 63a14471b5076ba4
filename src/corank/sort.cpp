#include "corank/planner.hpp"
#include "corank/sort.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <system_error>

#include "corank/check.hpp"
#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/machine_share.hpp"
#include "corank/stopwatch.hpp"
#include "corank/notes.hpp"
#include "corank/process_limits.hpp"
#include "corank/request_options.hpp"
#include "corank/text/debug_view.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/text_sort_plan.hpp"
#include "corank/text/text_sorter.hpp"
#include "corank/text/time_group_merge.hpp"
#include "corank/text/typed_key.hpp"
#include "corank/text_format_of.hpp"

namespace corank {

using namespace request;

namespace {

// Sorts each run of consecutive inputs with one rules into a file of its
// own, without a name once sorted (read through /proc/self/fd), then merges
// those files, each record under its own rules (text/time_group_merge.hpp).
// The groups follow the inputs' order, which the merge keeps among equal
// keys: -s and -u see the inputs' order, as a sort of them all at once.
SortStats sort_time_groups(const SortRequest& r, const std::vector<std::shared_ptr<const text::TimeRules>>& rules) {
  std::vector<std::pair<std::size_t, std::size_t>> groups;  // [first, last) input of each
  for (std::size_t i = 0; i < rules.size(); ++i)
    if (i == 0 || rules[i] != rules[i - 1]) groups.emplace_back(i, i + 1);
    else groups.back().second = i + 1;
  const std::uint64_t salt = uses_random(r) ? random_salt(r) : 0;
  const std::string dir = !r.temp_dirs.empty() ? r.temp_dirs.front() : std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::vector<std::unique_ptr<text::TextFormat>> formats;
  std::vector<io::FileDesc> sorted;
  std::vector<text::TimeGroupFile> files;
  SortStats total;
  for (const auto& [first, last] : groups) {
    SortRequest rg = r;
    rg.inputs.assign(r.inputs.begin() + static_cast<std::ptrdiff_t>(first),
                     r.inputs.begin() + static_cast<std::ptrdiff_t>(last));
    const std::shared_ptr<const text::TimeRules>& group_rules = rules[first];
    rg.output = dir + "/.corank-time-group-" + std::to_string(::getpid()) + "-" + std::to_string(files.size());
    rg.io.sync_output = false;  // read back at once, never kept
    rg.io.output_codec = io::Codec::none;
    formats.push_back(make_text_format(rg, salt, true, group_rules));
    const SortStats s = text::sort_text(text_options(rg), *formats.back());
    sorted.emplace_back(::open(rg.output.c_str(), O_RDONLY | O_CLOEXEC));
    ::unlink(rg.output.c_str());
    if (sorted.back().get() < 0) throw io::IoError("open failed", rg.output, std::strerror(errno));
    files.push_back({"/proc/self/fd/" + std::to_string(sorted.back().get()), formats.back().get(),
                     formats.back()->line_comparator(), s.head_bytes});
    total.head_records += s.head_records, total.head_bytes += s.head_bytes;
    total.records_in += s.records_in, total.bytes_in += s.bytes_in, total.runs += s.runs;
    total.spilled_runs += s.spilled_runs, total.spill_bytes += s.spill_bytes, total.merge_passes += s.merge_passes;
    total.threads = s.threads, total.memory_budget = s.memory_budget;
    total.seconds.read += s.seconds.read, total.seconds.run_formation += s.seconds.run_formation;
    total.seconds.merge += s.seconds.merge, total.seconds.write += s.seconds.write;
    if (total.key_values.empty()) total.key_values = s.key_values;
    else
      for (std::size_t k = 0; k < s.key_values.size(); ++k)
        total.key_values[k].unread += s.key_values[k].unread, total.key_values[k].nulls += s.key_values[k].nulls;
  }
  note(r.verbose, r.io, "time: " + std::to_string(groups.size()) + " groups of inputs with rules of their own, merged");
  const auto t_merge = Clock::now();
  text::merge_time_groups(files, r.output, r.unique, r.io, total);
  total.seconds.merge += seconds_since(t_merge);
  total.mode = r.merge_only ? "merge" : "external";
  return total;
}

// Whether records of inputs whose time rules differ can be sorted at once,
// each getting its prefix by its own input's rules (TextSortOptions::
// input_formats): the format compares instants only through prefixes when
// its first key is its one time key, and -u, which compares keys again, is
// not asked for.
bool prefixes_hold_the_times(const SortRequest& r, const text::TextFormat& format) {
  const text::LineComparator* lines = format.line_comparator();
  if (r.unique || !lines) return false;
  const auto& keys = lines->ordering().keys;
  return !keys.empty() && keys.front().time &&
         std::none_of(keys.begin() + 1, keys.end(), [](const text::KeyField& k) { return k.time; });
}

// Whether the inputs, regular files, likely fit one chunk of the sort: their
// bytes at most half of it, the other half for their records' entries
// (ChunkReader::kRecordOverhead each: lines of 72 bytes or more fit).
bool likely_one_chunk(const SortRequest& r) {
  std::uint64_t bytes = 0;
  for (const auto& path : r.inputs) {
    struct stat st {};
    if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    bytes += static_cast<std::uint64_t>(st.st_size);
  }
  return bytes <= text::plan_text_sort(text_options(r)).chunk_bytes / 2;
}

// Inputs whose time rules differ (rules_by_input: each input's own formats,
// its group's zone and year): sorted at once where the rules matter only to
// prefixes and the input is one chunk, each input's records split and given
// their prefixes by its own rules; else the inputs of each rules sorted apart
// and merged, every record compared under its own input's rules. A sort of
// them all under one rules that looks for every input's formats would read a
// line of one file by another file's format (an epoch number in a text log's
// line that has no timestamp of its own), so that spilling, -u or -m would
// change the order.
SortStats sort_by_input_rules(const SortRequest& r, const std::vector<std::shared_ptr<const text::TimeRules>>& own) {
  // -m (rotated yearless syslogs, each dated by its own file): the inputs of
  // each rules merged apart (as -m merges, in batches within the open-file
  // limit), then those merged.
  if (r.merge_only) return sort_time_groups(r, own);
  const std::uint64_t salt = uses_random(r) ? random_salt(r) : 0;
  std::vector<std::unique_ptr<text::TextFormat>> formats;  // one per rules, in the inputs' order
  std::vector<const text::TimeRules*> of;                  // their rules
  text::TextSortOptions o = text_options(r);
  for (const auto& x : own) {
    const auto k = static_cast<std::size_t>(std::find(of.begin(), of.end(), x.get()) - of.begin());
    if (k == of.size()) formats.push_back(make_text_format(r, salt, true, x)), of.push_back(x.get());
    o.input_formats.push_back(formats[k].get());
  }
  if (prefixes_hold_the_times(r, *formats.front()) && likely_one_chunk(r)) {
    try {
      SortStats stats = text::sort_text(o, *formats.front());
      note(r.verbose, r.io, "time: " + std::to_string(formats.size()) +
                                " sets of rules (each input's formats, its group's zone and year), each record's time read "
                                "by its input's");
      return stats;
    } catch (const text::NotOneChunk&) {
      note(r.verbose, r.io, "time: the input is more than one chunk: the inputs of each rules sorted apart");
    }
  }
  return sort_time_groups(r, own);
}

}  // namespace

std::unique_ptr<text::TextFormat> text_format_of(const SortRequest& r) {
  validate(r);
  return make_text_format(r, uses_random(r) ? random_salt(r) : 0, true);
}

bool is_text_format(std::string_view f) {
  return f == "lines" || f == "csv" || f == "tsv" || f == "pgtext" || f == "jsonl";
}

void validate(const SortRequest& r) {
  if (r.batch_size == 1) throw UsageError("invalid --batch-size argument '1': the minimum is '2'");
  if (!r.input_buffers.empty() && !r.inputs.empty())
    throw UsageError("a sort reads either input files or input buffers, not both");
  if (r.input_selection && r.input_buffers.empty()) throw UsageError("an input selection applies to input buffers");
  if (r.prepared_keys && !r.input_selection) throw UsageError("prepared keys apply to an input selection");
  if (is_text_format(r.format)) {
    if (!r.input_buffers.empty()) throw UsageError("input buffers apply to binary formats");
    if (r.prepared_device) throw UsageError("a prepared device applies to binary formats");
    (void)make_text_format(r, 0, false);  // parses every key
    request::check_input_zones(r);
    if (r.verify) throw UsageError("--verify applies to binary formats");
    return;
  }
  reject_text_options(r);
  (void)parse_format(r.format, r.keys);
}

SortStats sort(const SortRequest& r) {
  validate(r);
  raise_open_file_limit();  // each spilled run holds a descriptor (planner.hpp)
  bound_malloc_arenas();
  if (r.threads == 0 || r.memory_budget == 0)
    if (const std::string share = describe_machine_share(machine_share()); !share.empty())
      note(r.verbose, r.io, "this process may use " + share + ": the defaults of --parallel and -S follow");
  try {
    if (!is_text_format(r.format)) return sort_files(binary_options(r));
    const Clock::time_point t0 = Clock::now();
    const auto own = rules_by_input(r);
    if (std::any_of(own.begin(), own.end(), [&](const auto& x) { return x != own.front(); })) {
      SortStats stats = sort_by_input_rules(r, own);
      stats.seconds.total = seconds_since(t0);
      return stats;
    }
    auto format = text_format(r, own.empty() ? nullptr : own.front());
    return text::sort_text(text_options(r), *format);
  } catch (const std::bad_alloc&) {
    throw LimitError(memory_exhausted_message(r.memory_budget ? r.memory_budget : default_memory_budget()));
  } catch (const std::system_error& e) {
    // A thread that cannot start for want of address space for its stack.
    if (e.code() != std::errc::resource_unavailable_try_again) throw;
    throw LimitError("cannot start a thread: " +
                     memory_exhausted_message(r.memory_budget ? r.memory_budget : default_memory_budget()));
  }
}

CheckReport check(const SortRequest& r) {
  const Clock::time_point t0 = Clock::now();
  validate(r);
  if (!r.input_buffers.empty()) throw UsageError("-c checks a file, not input buffers");
  if (r.inputs.size() > 1) throw UsageError("extra operand '" + r.inputs[1] + "' not allowed with -c");
  if (!r.rejects.empty()) throw UsageError("--rejects applies to sorting and merging, not to -c");
  const std::string path = r.inputs.empty() ? "-" : r.inputs[0];
  CheckReport report;
  if (!is_text_format(r.format)) {
    const CheckResult c = check_sorted(path, parse_format(r.format, r.keys), r.reverse, r.unique, r.io);
    report.sorted = c.sorted;
    if (!c.sorted) report.diagnostic = path + ": disorder at record " + std::to_string(c.first_disorder);
    report.disorder_record = c.sorted ? 0 : c.first_disorder + 1;
    report.seconds = seconds_since(t0);
    return report;
  }
  auto format = text_format(r);
  const text::TextCheckResult c = text::check_text(path, *format, r.io);
  report.sorted = c.sorted;
  report.terminator = format->terminator();
  if (!c.sorted) {
    // One line: a record of several (a CSV row with a quoted newline, a
    // --multiline record) is shown by its first, as its line number names it.
    std::string_view shown = c.record;
    const bool more = report.terminator == '\n' && shown.find('\n') != std::string_view::npos;
    if (more) shown = shown.substr(0, shown.find('\n'));
    if (more && shown.ends_with('\r')) shown.remove_suffix(1);
    report.diagnostic = path + ":" + std::to_string(c.line) + ": disorder: " + std::string(shown) + (more ? " ..." : "");
  }
  report.disorder_record = c.sorted ? 0 : c.record_number;
  report.seconds = seconds_since(t0);
  return report;
}

std::vector<std::string> debug_warnings(const SortRequest& r) {
  const std::uint64_t salt = 0;  // warnings do not depend on the order's seed
  if (r.format == "lines") {
    const text::KeyField global = global_ordering(r, salt);
    return text::debug_warnings(line_ordering(r, salt, global), global, r.keys.empty());
  }
  if (r.format != "csv" && r.format != "tsv" && r.format != "pgtext" && r.format != "jsonl") return {};
  const text::KeyField global = global_ordering(r, salt);
  const auto default_collation = collation(r);
  std::vector<text::KeyField> keys;
  std::vector<const text::Collation*> collations;
  for (const auto& spec : r.keys) {
    text::TypedKey k = text::parse_column_key(spec, global, default_collation).key;
    k.key.numeric |= k.type == text::ValueType::Number || k.type == text::ValueType::Decimal ||
                     k.type == text::ValueType::Float;
    keys.push_back(k.key);
    collations.push_back(k.collation.get());
  }
  return text::value_key_warnings(keys, global, default_collation.get(), collations);
}

}  // namespace corank
