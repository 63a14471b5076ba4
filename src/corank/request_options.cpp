#include "corank/request_options.hpp"

#include <algorithm>
#include <cerrno>
#include <fnmatch.h>
#include <random>
#include <utility>

#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/io/error.hpp"
#include "corank/io/source.hpp"
#include "corank/planner.hpp"
#include "corank/text/csv_format.hpp"
#include "corank/text/icu_collation.hpp"
#include "corank/text/libc_collation.hpp"
#include "corank/text/jsonl_format.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/line_locale.hpp"
#include "corank/text/multiline_format.hpp"
#include "corank/text/pgtext_format.hpp"
#include "corank/text/time_inputs.hpp"
#include "corank/text/time_zone.hpp"

namespace corank::request {

namespace {

// Whether a line key finds its time anywhere (parse_keydef's positionless T,
// resolve_ordering's global T without keys).
bool has_time_search_key(const SortRequest& r) {
  if (r.format != "lines") return false;
  if (r.keys.empty() && r.ordering.find('T') != std::string::npos) return true;  // --sort=time, the whole line
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

// A path or pattern without its leading "./" (a name of the same file).
std::string_view without_dot_slash(std::string_view s) {
  while (s.size() > 2 && s.substr(0, 2) == "./") s.remove_prefix(2);
  return s;
}

// Whether --time-zone's PATTERN names the input at `path`: shell wildcards
// as fnmatch takes them, '*' crossing no '/' and taking no leading '.'. A
// pattern without a '/' matches the file's name; one beginning with '/' the
// whole path; any other the path's last components, as many as it has
// ('logs/*.log' names logs/a.log, ./logs/a.log and /var/logs/a.log).
bool names_input(std::string_view pattern, std::string_view path) {
  if (pattern.empty()) return false;
  pattern = without_dot_slash(pattern);
  path = without_dot_slash(path);
  std::string_view tail = path;
  if (pattern.front() != '/') {
    std::size_t parts = 1 + static_cast<std::size_t>(std::count(pattern.begin(), pattern.end(), '/'));
    for (std::size_t at = path.size(); at > 0 && parts > 0; --at)
      if (path[at - 1] == '/' && --parts == 0) tail = path.substr(at);
  }
  return ::fnmatch(std::string(pattern).c_str(), std::string(tail).c_str(), FNM_PATHNAME | FNM_PERIOD) == 0;
}

// The zone of the input at `path`: the first --time-zone PATTERN=ZONE whose
// pattern names it (names_input), else --time-zone ZONE's. Standard input
// ("-") matches no pattern. Where there are patterns, UTC is named "UTC", so
// that the default and a pattern's "UTC" are one zone.
std::string zone_of_input(const SortRequest& r, const std::string& path) {
  if (r.input_zones.empty()) return r.time_zone;
  if (path != "-")
    for (const auto& [pattern, zone] : r.input_zones)
      if (names_input(pattern, path)) return zone;
  return r.time_zone.empty() ? "UTC" : r.time_zone;
}

// Each input's zone (zone_of_input), standard input's for none; a zone that
// is an earlier one under another name (a link of the tz database: UTC and
// Etc/UTC) takes the earlier's name, so that the two read as one zone.
std::vector<std::string> input_zones(const SortRequest& r) {
  std::vector<std::string> zones = zone_of_each_input(r);
  // Each distinct name compared once with the distinct names before it:
  // TimeZone::same reads zoneinfo files, and inputs are many, zones few.
  std::vector<std::pair<std::string, std::string>> named;  // a name, the earlier name it reads as
  for (std::string& z : zones) {
    auto it = std::find_if(named.begin(), named.end(), [&](const auto& n) { return n.first == z; });
    if (it == named.end()) {
      std::string as = z;
      for (const auto& n : named)
        if (n.first == n.second && text::TimeZone::same(n.first, z)) {
          as = n.first;
          break;
        }
      it = named.insert(named.end(), {z, as});
    }
    z = it->second;
  }
  return zones;
}

// Whether a key of the request reads times: the format's value checks name
// each key that reads a type (may_use_time's letters may be a column's name).
bool reads_times(const SortRequest& r) {
  if (!may_use_time(r)) return false;
  const std::vector<KeyValueCounts> checks = make_text_format(r, 0, false)->value_checks();
  return std::any_of(checks.begin(), checks.end(), [](const KeyValueCounts& k) { return k.kind == "time"; });
}

// An input's name in a message: quoted, standard input by that name.
std::string input_name(const std::string& path) { return path == "-" ? "standard input" : "'" + path + "'"; }

// The zone of every input, where one set of rules is to read them all
// (`why`: what does, for the message); throws UsageError where their zones
// differ and a key reads times.
std::string common_zone(const SortRequest& r, const std::string& why) {
  const std::vector<std::string> zones = input_zones(r);
  const auto other = std::find_if(zones.begin(), zones.end(), [&](const auto& z) { return z != zones.front(); });
  if (other != zones.end() && reads_times(r)) {
    const std::size_t i = static_cast<std::size_t>(other - zones.begin());
    throw UsageError("inputs in different zones (" + input_name(r.inputs.front()) + ": " + zones.front() + ", " +
                     input_name(r.inputs[i]) + ": " + zones[i] + "): " + why);
  }
  return zones.front();
}

// What reads every input of `r` in one zone, for common_zone's message.
std::string one_zone_reader(const SortRequest& r) {
  const std::string who = r.format != "lines" ? "--format " + r.format : r.debug ? "--debug" : "one set of rules";
  return who + " reads every input in one zone (only --format lines without --debug reads each in its own)";
}

text::TimeSettings time_settings(const SortRequest& r) {
  text::TimeSettings t;
  // The first input's zone: every input's, where one set of rules reads them all.
  t.zone = zone_of_input(r, r.inputs.empty() ? "-" : r.inputs.front());
  t.format = r.time_format;
  t.year = r.time_year;
  t.year_month = r.time_year_month;
  t.search_formats = r.time_search_formats;
  t.json_members = r.time_json_members;
  return t;
}

// How time keys read timestamps; `read_inputs`: complete the rules with what
// the input files say (their formats, their modification times).
std::shared_ptr<const text::TimeRules> time_rules(const SortRequest& r, bool read_inputs) {
  if (r.time_year < 0 || r.time_year > 9999)
    throw UsageError("invalid --time-year '" + std::to_string(r.time_year) + "'");
  if (r.time_year_month > 12 || (r.time_year_month && !r.time_year))
    throw UsageError("invalid --time-year month '" + std::to_string(r.time_year_month) + "'");
  for (const auto& [pattern, zone] : r.input_zones) {
    const std::string argument = "--time-zone '" + pattern + "=" + zone + "'";
    if (pattern.empty() || zone.empty()) throw UsageError("invalid " + argument + ": PATTERN=ZONE needs both");
    try {
      (void)text::TimeZone::load(zone);  // an unknown zone is an error even where no input matches
    } catch (const UsageError& e) {
      throw UsageError(std::string(e.what()) + " in " + argument);
    }
  }
  if (!r.input_zones.empty() && !r.time_zone.empty()) (void)text::TimeZone::load(r.time_zone);  // the same
  // One set of rules reads every input in one zone: where the inputs' zones
  // differ, only rules_by_input's (lines sorted without --debug) serve.
  if (read_inputs) (void)common_zone(r, one_zone_reader(r));
  return text::time_rules_for(time_settings(r), r.inputs, read_inputs && may_use_time(r), has_time_search_key(r),
                              r.zero_terminated ? '\0' : '\n', r.io, r.verbose);
}

// What the request says for every kind of record.
CommonSortOptions common_options(const SortRequest& r) {
  CommonSortOptions o;
  o.inputs = r.inputs;
  o.output = r.output;
  o.memory_budget = r.memory_budget ? within_machine_memory(r.memory_budget) : 0;
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

}  // namespace

bool finds_times(const SortRequest& r) { return has_time_search_key(r); }

std::vector<std::string> zone_of_each_input(const SortRequest& r) {
  std::vector<std::string> zones;
  for (const std::string& path : r.inputs) zones.push_back(zone_of_input(r, path));
  if (r.inputs.empty()) zones.push_back(zone_of_input(r, "-"));
  return zones;
}

// Decimal commas are CSV's and TSV's alone: lines read LC_NUMERIC's decimal
// point (as GNU sort does), JSON and COPY text always write '.'.
constexpr const char* kDecimalSeparatorFormats =
    "--decimal-separator applies to --format csv and tsv (lines read LC_NUMERIC's, as GNU sort does)";

void reject_text_options(const SortRequest& r) {
  const std::pair<bool, std::string> text_only[] = {
      {!r.ordering.empty(), "-" + r.ordering},
      {r.stable, "-s"},
      {r.field_separator.has_value(), "-t"},
      {r.zero_terminated, "-z"},
      {r.merge_only, "-m"},
      {r.debug, "--debug"},
      {r.random_source.has_value(), "--random-source"},
      {r.batch_size != 0, "--batch-size"},
      {!r.delimiter.empty(), "--delimiter"},
      {r.header, "--header"},
      {r.nulls_first, "--nulls"},
      {r.null_string.has_value(), "--null"},
      {r.time_year != 0, "--time-year"},
      {!r.time_zone.empty() || !r.input_zones.empty(), "--time-zone"},
      {!r.time_format.empty(), "--time-format"},
      {r.multiline, "--multiline"},
      {!r.collation.empty(), "--collation"},
      {!r.rejects.empty(), "--rejects"}};
  for (const auto& [set, name] : text_only)
    if (set)
      throw UsageError("option " + name + " applies to text formats (lines, csv, tsv, pgtext, jsonl), not '" + r.format + "'");
  if (r.decimal_separator != '.') throw UsageError(kDecimalSeparatorFormats);
}

std::uint64_t random_salt(const SortRequest& r) {
  if (!r.random_source) {
    std::random_device rd;
    return (std::uint64_t{rd()} << 32) ^ rd();
  }
  const std::string& from = *r.random_source;
  if (from.empty()) throw io::IoError("open failed", "", ENOENT);  // as GNU's: no file has that name
  io::IoOptions raw;
  raw.input_codec = io::Codec::none;  // its bytes as they are, as GNU sort takes them
  auto src = io::open_source(from, raw);
  unsigned char bytes[8];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const std::size_t n = src->read(bytes + got, sizeof bytes - got);
    if (n == 0) throw InputError(from + ": end of file");
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

text::KeyField global_ordering(const SortRequest& r, std::uint64_t salt, bool read_inputs,
                               std::shared_ptr<const text::TimeRules> rules) {
  text::KeyField g;
  std::string letters = r.ordering;
  if (r.reverse) letters += 'r';
  if (text::apply_ordering_letters(letters, g, text::BlankSide::Both) != letters.size())
    throw UsageError("invalid ordering letters '" + r.ordering + "'");
  g.random_salt = salt;
  g.time_rules = rules ? std::move(rules) : time_rules(r, read_inputs);
  return g;
}

std::shared_ptr<const text::Collation> collation(const SortRequest& r) {
  return r.collation.empty() ? nullptr : text::collation_named(r.collation);
}

text::LineOrdering line_ordering(const SortRequest& r, std::uint64_t salt, const text::KeyField& global) {
  std::vector<text::KeyField> keys;
  for (const auto& k : r.keys) keys.push_back(k.starts_with('+') ? text::parse_obsolete_key(k) : text::parse_keydef(k));
  const int tab = r.field_separator ? text::parse_tab(*r.field_separator) : text::kNoTab;
  text::LineOrdering o = text::resolve_ordering(std::move(keys), global, tab, r.stable, r.unique,
                                                r.zero_terminated ? '\0' : '\n');
  text::seed_random_keys(o.keys, salt);
  if ((r.locale != "C" && r.locale != "POSIX") || !r.collation.empty()) {
    // A --collation of byte order ("C", "C.UTF-8") is bytes, not LC_COLLATE.
    auto named = collation(r);
    if (!named && !r.collation.empty()) named = text::byte_order_collation();
    o.locale = text::LineLocale::load(r.locale, std::move(named));
  }
  return o;
}

std::unique_ptr<text::TextFormat> make_text_format(const SortRequest& r, std::uint64_t salt, bool read_inputs,
                                                   std::shared_ptr<const text::TimeRules> rules) {
  if (r.decimal_separator != '.' && r.format != "csv" && r.format != "tsv") throw UsageError(kDecimalSeparatorFormats);
  if (r.format == "lines") {
    if (!r.delimiter.empty() || r.header) throw UsageError("--delimiter and --header apply to --format csv, tsv or pgtext");
    if (r.nulls_first || r.null_string) throw UsageError("--nulls and --null apply to --format csv, tsv, pgtext or jsonl");
    if (r.multiline && r.zero_terminated) throw UsageError("--multiline applies to lines ending in newlines, not -z");
    const bool own_rules = !rules;  // not a group's or an input's, whose --time sampling warned already
    const text::KeyField global = global_ordering(r, salt, read_inputs, std::move(rules));
    text::LineOrdering ordering = line_ordering(r, salt, global);
    if (read_inputs && own_rules) text::warn_unnamed_key_zones(ordering, r.inputs, r.io);
    if (r.multiline) return std::make_unique<text::MultilineFormat>(std::move(ordering), global.time_rules);
    return std::make_unique<text::LineFormat>(std::move(ordering));
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
  o.decimal_point = r.decimal_separator;
  return std::make_unique<text::CsvFormat>(std::move(o));
}

std::unique_ptr<text::TextFormat> text_format(const SortRequest& r, std::shared_ptr<const text::TimeRules> rules) {
  if (r.verify) throw UsageError("--verify applies to binary formats");
  auto format = make_text_format(r, uses_random(r) ? random_salt(r) : 0, true, std::move(rules));
  if (r.debug && !format->can_debug()) throw UsageError("--debug applies to --format lines, csv, tsv, pgtext and jsonl");
  return format;
}

SortOptions binary_options(const SortRequest& r) {
  SortOptions o;
  static_cast<CommonSortOptions&>(o) = common_options(r);
  o.input_buffers = r.input_buffers;
  o.input_selection = r.input_selection;
  o.prepared_keys = r.prepared_keys;
  o.prepared_device = r.prepared_device;
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

void check_input_zones(const SortRequest& r) {
  if (!r.input_zones.empty() && (r.format != "lines" || r.debug)) (void)common_zone(r, one_zone_reader(r));
}

std::vector<std::string> zone_pattern_warnings(const SortRequest& r) {
  std::vector<std::string> lines;
  for (const auto& pattern_zone : r.input_zones) {
    const std::string& pattern = pattern_zone.first;  // a structured binding no lambda may capture (clang 14)
    if (std::none_of(r.inputs.begin(), r.inputs.end(),
                     [&](const std::string& path) { return path != "-" && names_input(pattern, path); }))
      lines.push_back("--time-zone '" + pattern + "=" + pattern_zone.second + "' names no input file: its zone reads none");
  }
  return lines;
}

void settle_input_zones(SortRequest& r) {
  if (r.input_zones.empty()) return;
  r.time_zone = common_zone(r, "corank-mpi reads every input in one zone");
  r.input_zones.clear();
}

std::vector<std::shared_ptr<const text::TimeRules>> rules_by_input(const SortRequest& r) {
  if (r.format != "lines" || r.debug || r.inputs.size() < 2 || !may_use_time(r) || r.time_search_formats) return {};
  return text::time_rules_by_input(time_settings(r), r.inputs, input_zones(r), has_time_search_key(r),
                                   r.zero_terminated ? '\0' : '\n', r.io, r.verbose);
}

}  // namespace corank::request
