#include "corank/planner.hpp"
#include "corank/sort.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <system_error>
#include <random>

#include "corank/check.hpp"
#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/source.hpp"
#include "corank/stopwatch.hpp"
#include "corank/notes.hpp"
#include "corank/process_limits.hpp"
#include "corank/text/csv_format.hpp"
#include "corank/text/debug_view.hpp"
#include "corank/text/icu_collation.hpp"
#include "corank/text/jsonl_format.hpp"
#include "corank/text/multiline_format.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/pgtext_format.hpp"
#include "corank/text/line_locale.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/text_sorter.hpp"
#include "corank/text/time_group_merge.hpp"
#include "corank/text/time_inputs.hpp"
#include "corank/text/typed_key.hpp"
#include "corank/text_format_of.hpp"

namespace corank {

namespace {

// Options that only mean something for text, named in the error for a binary format.
void reject_text_options(const SortRequest& r) {
  const std::pair<bool, std::string> text_only[] = {
      {!r.ordering.empty(), "-" + r.ordering},
      {r.stable, "-s"},
      {r.field_separator.has_value(), "-t"},
      {r.zero_terminated, "-z"},
      {r.merge_only, "-m"},
      {r.debug, "--debug"},
      {!r.random_source.empty(), "--random-source"},
      {r.batch_size != 0, "--batch-size"},
      {!r.delimiter.empty(), "--delimiter"},
      {r.header, "--header"},
      {r.nulls_first, "--nulls"},
      {r.null_string.has_value(), "--null"},
      {r.time_year != 0, "--time-year"},
      {!r.time_zone.empty(), "--time-zone"},
      {!r.time_format.empty(), "--time-format"},
      {r.multiline, "--multiline"},
      {!r.collation.empty(), "--collation"},
      {!r.rejects.empty(), "--rejects"}};
  for (const auto& [set, name] : text_only)
    if (set)
      throw UsageError("option " + name + " applies to text formats (lines, csv, tsv, pgtext, jsonl), not '" + r.format + "'");
}

// The seed of -R's order: the first 8 bytes of --random-source, or fresh ones.
std::uint64_t random_salt(const SortRequest& r) {
  if (r.random_source.empty()) {
    std::random_device rd;
    return (std::uint64_t{rd()} << 32) ^ rd();
  }
  io::IoOptions raw;
  raw.input_codec = io::Codec::none;  // its bytes as they are, as GNU sort takes them
  auto src = io::open_source(r.random_source, raw);
  unsigned char bytes[8];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const std::size_t n = src->read(bytes + got, sizeof bytes - got);
    if (n == 0) throw InputError(r.random_source + ": end of file");
    got += n;
  }
  std::uint64_t salt = 0;
  for (unsigned char b : bytes) salt = salt << 8 | b;
  return salt;
}

bool uses_random(const SortRequest& r) {
  if (r.ordering.find('R') != std::string::npos) return true;
  for (const auto& k : r.keys)
    if (k.find('R') != std::string::npos) return true;  // a KEYDEF letter or a CSV :R type
  return false;
}

// Whether a line key finds its time anywhere (parse_keydef's positionless T).
bool has_time_search_key(const SortRequest& r) {
  if (r.format != "lines") return false;
  return r.multiline || std::any_of(r.keys.begin(), r.keys.end(), [](const std::string& k) {
    return !k.empty() && k[0] != '+' && !(k[0] >= '0' && k[0] <= '9') && k.find('T') != std::string::npos;
  });
}

// Whether any key may be a time key (T among letters, or a :time type); a
// CSV column named with a T only costs a look at the inputs' times.
bool may_use_time(const SortRequest& r) {
  if (r.ordering.find('T') != std::string::npos || r.multiline) return true;
  return std::any_of(r.keys.begin(), r.keys.end(), [](const std::string& k) {
    return k.find('T') != std::string::npos || k.find("time") != std::string::npos;
  });
}

text::TimeSettings time_settings(const SortRequest& r) {
  text::TimeSettings t;
  t.zone = r.time_zone;
  t.format = r.time_format;
  t.year = r.time_year;
  t.year_month = r.time_year_month;
  return t;
}

// How time keys read timestamps; `read_inputs`: complete the rules with what
// the input files say (their formats, their modification times).
std::shared_ptr<const text::TimeRules> time_rules(const SortRequest& r, bool read_inputs) {
  if (r.time_year < 0 || r.time_year > 9999)
    throw UsageError("invalid --time-year '" + std::to_string(r.time_year) + "'");
  if (r.time_year_month > 12 || (r.time_year_month && !r.time_year))
    throw UsageError("invalid --time-year month '" + std::to_string(r.time_year_month) + "'");
  return text::time_rules_for(time_settings(r), r.inputs, read_inputs && may_use_time(r), has_time_search_key(r),
                              r.zero_terminated ? '\0' : '\n', r.io, r.verbose);
}

text::KeyField global_ordering(const SortRequest& r, std::uint64_t salt, bool read_inputs = false,
                               std::shared_ptr<const text::TimeRules> rules = nullptr) {
  text::KeyField g;
  std::string letters = r.ordering;
  if (r.reverse) letters += 'r';
  if (text::apply_ordering_letters(letters, g, text::BlankSide::Both) != letters.size())
    throw UsageError("invalid ordering letters '" + r.ordering + "'");
  g.random_salt = salt;
  g.time_rules = rules ? std::move(rules) : time_rules(r, read_inputs);
  return g;
}

// The ICU collation the request names; null for none.
std::shared_ptr<const text::Collation> collation(const SortRequest& r) {
  return r.collation.empty() ? nullptr : text::icu_collation(r.collation);
}

text::LineOrdering line_ordering(const SortRequest& r, std::uint64_t salt, const text::KeyField& global) {
  std::vector<text::KeyField> keys;
  for (const auto& k : r.keys) keys.push_back(k.starts_with('+') ? text::parse_obsolete_key(k) : text::parse_keydef(k));
  const int tab = r.field_separator ? text::parse_tab(*r.field_separator) : text::kNoTab;
  text::LineOrdering o = text::resolve_ordering(std::move(keys), global, tab, r.stable, r.unique,
                                                r.zero_terminated ? '\0' : '\n');
  text::seed_random_keys(o.keys, salt);
  if ((r.locale != "C" && r.locale != "POSIX") || !r.collation.empty())
    o.locale = text::LineLocale::load(r.locale, collation(r));
  return o;
}

// `rules`: the time rules of lines, where the inputs were looked at already.
std::unique_ptr<text::TextFormat> make_text_format(const SortRequest& r, std::uint64_t salt, bool read_inputs,
                                                   std::shared_ptr<const text::TimeRules> rules = nullptr) {
  if (r.format == "lines") {
    if (!r.delimiter.empty() || r.header) throw UsageError("--delimiter and --header apply to --format csv, tsv or pgtext");
    if (r.nulls_first || r.null_string) throw UsageError("--nulls and --null apply to --format csv, tsv, pgtext or jsonl");
    if (r.multiline && r.zero_terminated) throw UsageError("--multiline applies to lines ending in newlines, not -z");
    const text::KeyField global = global_ordering(r, salt, read_inputs, std::move(rules));
    if (r.multiline) return std::make_unique<text::MultilineFormat>(line_ordering(r, salt, global), global.time_rules);
    return std::make_unique<text::LineFormat>(line_ordering(r, salt, global));
  }
  if (r.multiline) throw UsageError("--multiline applies to --format lines");
  if (r.field_separator) throw UsageError("-t applies to --format lines; CSV takes --delimiter");
  if (r.zero_terminated) throw UsageError("-z applies to --format lines");
  const text::NullOrder nulls = r.nulls_first ? text::NullOrder::First : text::NullOrder::Last;
  if (r.format == "jsonl") {
    if (!r.delimiter.empty() || r.header) throw UsageError("--delimiter and --header apply to --format csv, tsv or pgtext");
    if (r.null_string) throw UsageError("--null applies to --format csv, tsv or pgtext (JSON has null)");
    text::JsonlOptions o;
    o.keys = r.keys;
    o.global = global_ordering(r, salt, read_inputs);
    o.unique = r.unique;
    o.nulls = nulls;
    return std::make_unique<text::JsonlFormat>(std::move(o));
  }
  if (r.format == "pgtext") {
    text::PgTextOptions o;
    if (!r.delimiter.empty()) {
      // COPY's own rule: a byte that could start an escape or an octal or hex one cannot separate fields.
      const char d = r.delimiter[0];
      if (r.delimiter.size() != 1 || d == '\n' || d == '\r' || d == '\\' || d == '.' || (d >= 'a' && d <= 'z') ||
          (d >= '0' && d <= '9'))
        throw UsageError("invalid --delimiter '" + r.delimiter +
                         "': one byte other than CR, LF, backslash, '.', a lower-case letter and a digit");
      o.delimiter = d;
    }
    o.header = r.header;
    o.keys = r.keys;
    o.global = global_ordering(r, salt, read_inputs);
    o.collation = collation(r);
    o.unique = r.unique;
    o.nulls = nulls;
    if (r.null_string) o.null_string = *r.null_string;
    return std::make_unique<text::PgTextFormat>(std::move(o));
  }
  text::CsvOptions o;
  o.delimiter = r.format == "tsv" ? '\t' : ',';
  if (!r.delimiter.empty()) {
    if (r.delimiter.size() != 1 || r.delimiter[0] == '"' || r.delimiter[0] == '\n' || r.delimiter[0] == '\r')
      throw UsageError("invalid --delimiter '" + r.delimiter + "': one byte other than quote, CR and LF");
    o.delimiter = r.delimiter[0];
  }
  o.header = r.header;
  o.keys = r.keys;
  o.global = global_ordering(r, salt, read_inputs);
  o.collation = collation(r);
  o.stable = r.stable;
  o.unique = r.unique;
  o.nulls = nulls;
  o.null_string = r.null_string;
  return std::make_unique<text::CsvFormat>(std::move(o));
}

// The text format, with checks of the options that only some text formats take.
std::unique_ptr<text::TextFormat> text_format(const SortRequest& r, std::shared_ptr<const text::TimeRules> rules = nullptr) {
  if (r.verify) throw UsageError("--verify applies to binary formats");
  auto format = make_text_format(r, uses_random(r) ? random_salt(r) : 0, true, std::move(rules));
  if (r.debug && !format->can_debug()) throw UsageError("--debug applies to --format lines, csv, tsv, pgtext and jsonl");
  return format;
}

// What the request says for every kind of record.
CommonSortOptions common_options(const SortRequest& r) {
  CommonSortOptions o;
  o.inputs = r.inputs;
  o.output = r.output;
  o.memory_budget = r.memory_budget;
  o.temp_dirs = r.temp_dirs;
  o.threads = r.threads;
  o.gpu = r.gpu;
  o.gpu_memory = r.gpu_memory;
  o.progress = r.progress;
  o.verbose = r.verbose;
  o.io = r.io;
  if (!r.temp_dirs.empty()) o.io.staging_dir = r.temp_dirs.front();
  return o;
}

SortOptions binary_options(const SortRequest& r) {
  SortOptions o;
  static_cast<CommonSortOptions&>(o) = common_options(r);
  o.input_buffers = r.input_buffers;
  o.format = parse_format(r.format, r.keys);
  o.reverse = r.reverse;
  o.unique = r.unique;
  o.verify = r.verify;
  return o;
}

text::TextSortOptions text_options(const SortRequest& r) {
  text::TextSortOptions o;
  static_cast<CommonSortOptions&>(o) = common_options(r);
  o.batch_size = r.batch_size;
  o.merge_only = r.merge_only;
  o.debug = r.debug;
  o.write_header = r.write_header;
  o.rejects = r.rejects;
  return o;
}

// Lines of several files with time keys: each file's own rules (its formats,
// its modification time's year), one per input (time_inputs.hpp); empty where
// one set of rules serves every input alike (the others: -m, whose inputs
// were sorted by one rules, and --debug, which shows one format's marks).
std::vector<std::shared_ptr<const text::TimeRules>> rules_by_input(const SortRequest& r) {
  if (r.format != "lines" || r.merge_only || r.debug || r.inputs.size() < 2 || !may_use_time(r)) return {};
  return text::time_rules_by_input(time_settings(r), r.inputs, has_time_search_key(r), r.zero_terminated ? '\0' : '\n',
                                   r.io, r.verbose);
}

// Sorts the inputs of each rules into a file of its own, without a name once
// sorted (read through /proc/self/fd), then merges those files, each record
// under its own rules (text/time_group_merge.hpp).
SortStats sort_time_groups(const SortRequest& r, const std::vector<std::shared_ptr<const text::TimeRules>>& rules) {
  std::vector<const text::TimeRules*> order;
  for (const auto& x : rules)
    if (std::find(order.begin(), order.end(), x.get()) == order.end()) order.push_back(x.get());
  const std::uint64_t salt = uses_random(r) ? random_salt(r) : 0;
  const std::string dir = !r.temp_dirs.empty() ? r.temp_dirs.front() : std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::vector<std::unique_ptr<text::TextFormat>> formats;
  std::vector<io::FileDesc> sorted;
  std::vector<text::TimeGroupFile> files;
  SortStats total;
  for (const text::TimeRules* g : order) {
    SortRequest rg = r;
    rg.inputs.clear();
    std::shared_ptr<const text::TimeRules> group_rules;
    for (std::size_t i = 0; i < r.inputs.size(); ++i)
      if (rules[i].get() == g) rg.inputs.push_back(r.inputs[i]), group_rules = rules[i];
    rg.output = dir + "/.corank-time-group-" + std::to_string(::getpid()) + "-" + std::to_string(files.size());
    rg.io.sync_output = false;  // read back at once, never kept
    rg.io.output_codec = io::Codec::none;
    formats.push_back(make_text_format(rg, salt, true, group_rules));
    const SortStats s = text::sort_text(text_options(rg), *formats.back());
    sorted.emplace_back(::open(rg.output.c_str(), O_RDONLY | O_CLOEXEC));
    ::unlink(rg.output.c_str());
    if (sorted.back().get() < 0) throw io::IoError("open failed", rg.output, std::strerror(errno));
    files.push_back({"/proc/self/fd/" + std::to_string(sorted.back().get()), formats.back().get(),
                     formats.back()->line_comparator()});
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
  note(r.verbose, r.io, "time: " + std::to_string(order.size()) + " groups of inputs with rules of their own, merged");
  const auto t_merge = Clock::now();
  text::merge_time_groups(files, r.output, r.unique, r.io, total);
  total.seconds.merge += seconds_since(t_merge);
  total.mode = "external";
  return total;
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
  if (is_text_format(r.format)) {
    if (!r.input_buffers.empty()) throw UsageError("input buffers apply to binary formats");
    (void)make_text_format(r, 0, false);  // parses every key
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
  try {
    if (!is_text_format(r.format)) return sort_files(binary_options(r));
    const Clock::time_point t0 = Clock::now();
    const auto rules = rules_by_input(r);
    if (std::any_of(rules.begin(), rules.end(), [&](const auto& x) { return x != rules.front(); })) {
      SortStats stats = sort_time_groups(r, rules);
      stats.seconds.total = seconds_since(t0);
      return stats;
    }
    auto format = text_format(r, rules.empty() ? nullptr : rules.front());
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
  if (!c.sorted) report.diagnostic = path + ":" + std::to_string(c.line) + ": disorder: " + c.record;
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
