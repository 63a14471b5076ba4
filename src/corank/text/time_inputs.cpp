#include "corank/text/time_inputs.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "corank/io/diagnostics.hpp"
#include "corank/io/codec.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/peeked_input.hpp"
#include "corank/io/source.hpp"
#include "corank/notes.hpp"
#include "corank/text/field_finder.hpp"
#include "corank/text/json_members.hpp"
#include "corank/text/line_comparator.hpp"
#include "corank/text/time_fields.hpp"
#include "corank/text/time_sample.hpp"

namespace corank::text {

namespace {

std::optional<struct stat> regular_file(const std::string& path) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return st;
}

}  // namespace

namespace {

// What one input says: the formats its sampled lines show (empty: not
// sampled, or none found), a JSON log's time member (json_time_member), its
// modification time (none: not a regular file).
struct InputTimes {
  std::vector<int> formats;
  std::string json_member;
  std::optional<std::int64_t> mtime;
  std::vector<std::uint64_t> zone_abbrs;  // the %Z words after its sampled lines' times, each once, packed
};

// A JSON log's time member: where nine in ten of the sampled lines that are
// not blank hold a JSON object, the top-level member whose whole value is a
// timestamp of a known format in the most of them (at least half), and the
// formats its values take (Docker's "time", Bunyan's, ECS's "@timestamp").
struct JsonTime {
  std::string name;
  std::vector<int> formats;
};
// What JSON logs name their time: ECS and Logstash, Docker, Bunyan, pino,
// zap and logrus, Serilog's compact form, CloudTrail.
constexpr std::string_view kTimeMemberNames[] = {"@timestamp", "timestamp", "time", "ts", "@t", "datetime", "eventTime",
                                                 "date", "t"};
std::optional<JsonTime> json_time_member(std::span<const std::string_view> lines) {
  const auto known = known_time_formats();
  struct Count {
    std::string_view name;
    std::size_t lines = 0;
    std::vector<int> formats;
  };
  std::vector<Count> counts;
  std::size_t filled = 0, objects = 0;
  for (std::string_view line : lines) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    ++filled;
    JsonMembers members(line);
    objects += members.object();
    for (JsonMember m; members.next(m);) {
      for (std::size_t f = 0; f < known.size(); ++f) {
        LocalTime t;
        if (!known[f].pattern.matches_whole(m.value, t)) continue;
        auto c = std::find_if(counts.begin(), counts.end(), [&](const Count& x) { return x.name == m.name; });
        if (c == counts.end()) c = counts.insert(counts.end(), Count{m.name, 0, {}});
        ++c->lines;
        if (std::find(c->formats.begin(), c->formats.end(), static_cast<int>(f)) == c->formats.end())
          c->formats.push_back(static_cast<int>(f));
        break;
      }
    }
  }
  if (objects == 0 || objects * 10 < filled * 9) return std::nullopt;
  // Of the members that hold a timestamp in at least half of the objects:
  // one that logs name for their time, in this order; else one whose values
  // are timestamps in words (a number of nine digits or more may be a
  // duration or an id); else the most often such; the first of equals.
  const auto epoch_only = [&](const Count& c) {
    return std::all_of(c.formats.begin(), c.formats.end(),
                       [&](int f) { return known[static_cast<std::size_t>(f)].pattern.reads_epoch(); });
  };
  const auto rank = [&](const Count& c) {
    const auto named = std::find(std::begin(kTimeMemberNames), std::end(kTimeMemberNames), c.name);
    return std::tuple(named - std::begin(kTimeMemberNames), epoch_only(c), -static_cast<std::int64_t>(c.lines));
  };
  const Count* best = nullptr;
  for (const Count& c : counts)
    if (c.lines * 2 >= objects && (!best || rank(c) < rank(*best))) best = &c;
  if (!best) return std::nullopt;
  return JsonTime{std::string(best->name), best->formats};
}

// The search formats of detected table rows, in the table's order.
std::vector<const TimePattern*> patterns_of(const std::vector<bool>& detected) {
  const auto known = known_time_formats();
  std::vector<const TimePattern*> search;
  for (std::size_t f = 0; f < known.size(); ++f)
    if (detected[f]) search.push_back(&known[f].pattern);
  return search;
}

// Table rows as flags, one a row: a file's formats (InputTimes::formats) in
// the table's order, whatever order they were detected in.
std::vector<bool> flags_of(const std::vector<int>& formats) {
  std::vector<bool> flags(known_time_formats().size());
  for (int f : formats) flags[static_cast<std::size_t>(f)] = true;
  return flags;
}

// The zone abbreviations after the lines' first times, each once; not RFC
// 2822's own zone names, which are offsets there.
void add_zone_abbrs(const TimeSearch& search, std::span<const std::string_view> lines, std::vector<std::uint64_t>& z) {
  TimeHit hit;
  for (std::string_view line : lines) {
    if (!search.find_first(line, hit) || !hit.time.zone_abbr || rfc2822_zone_offset(hit.pattern, hit.time.zone_abbr))
      continue;
    if (std::find(z.begin(), z.end(), hit.time.zone_abbr) == z.end()) z.push_back(hit.time.zone_abbr);
  }
}

// An input that cannot be read twice (standard input, a pipe): its first
// bytes, given back to the sort (io::peek_input), name a JSON log's time
// member and show the zone abbreviations after its times. Every known format
// stays looked for: its later lines may be of others (`cat *.log | corank
// --time`). A compressed stream's text is not seen here.
InputTimes stream_times(const std::string& path, char eol, const io::IoOptions& io, bool verbose) {
  InputTimes out;
  if (io.input_codec && *io.input_codec != io::Codec::none) return out;
  const std::string_view head = io::peek_input(path, kFormatSampleBytes);
  if (io::codec_from_magic(reinterpret_cast<const unsigned char*>(head.data()), head.size()) != io::Codec::none)
    return out;
  std::vector<std::string_view> lines;
  add_lines(head, eol, true, head.size() < kFormatSampleBytes, kFormatSampleLines, lines);
  if (auto json = json_time_member(lines)) {
    out.json_member = json->name;
    note(verbose, io, "time: " + path + ": JSON lines, each read at its member \"" + out.json_member + "\"");
  }
  std::vector<bool> every(known_time_formats().size(), true);
  add_zone_abbrs(TimeSearch(patterns_of(every)), lines, out.zone_abbrs);
  return out;
}

InputTimes input_times(const std::string& path, bool sample, char eol, const io::IoOptions& io, bool verbose) {
  InputTimes out;
  const auto st = regular_file(path);
  if (!st) return sample ? stream_times(path, eol, io, verbose) : out;
  out.mtime = st->st_mtim.tv_sec;
  if (!sample) return out;
  const FileSample sampled(path, static_cast<std::uint64_t>(st->st_size), eol, io);
  const std::vector<std::string_view>& lines = sampled.lines();
  if (lines.empty()) return out;
  const auto known = known_time_formats();
  out.formats = detect_formats(known, lines);
  if (auto json = json_time_member(lines)) {
    out.json_member = json->name;
    for (int f : json->formats)
      if (std::find(out.formats.begin(), out.formats.end(), f) == out.formats.end()) out.formats.push_back(f);
  }
  if (out.formats.empty()) {
    if (io.diagnostics)
      io.diagnostics->warning(path + ": no timestamp of a known format in " + std::to_string(lines.size()) +
                              " of its lines (--time-format names another)");
    return out;
  }
  add_zone_abbrs(TimeSearch(patterns_of(flags_of(out.formats))), lines, out.zone_abbrs);
  std::string names;
  for (int f : out.formats) names += (names.empty() ? "" : ", ") + std::string(known[static_cast<std::size_t>(f)].name);
  note(verbose, io,
       "time: " + path + ": " + names + " timestamps" +
           (out.json_member.empty() ? "" : "; JSON lines, each read at its member \"" + out.json_member + "\""));
  return out;
}

// The JSON time members of a sort's inputs, each once, in input order.
void add_member(std::vector<std::string>& members, const std::string& name) {
  if (!name.empty() && std::find(members.begin(), members.end(), name) == members.end()) members.push_back(name);
}

// The levels that logging libraries write after a timestamp (log4j, logback,
// java.util.logging, Python's logging, syslog's severities): words that read
// as abbreviations but that no zone uses. Looking one up in every zone of the
// tz database (TimeZone::any_zone_names) takes tens of milliseconds, which a
// log4j file would otherwise pay at every start.
bool log_level(std::uint64_t abbr) noexcept {
  static constexpr std::uint64_t kLevels[] = {
      pack_zone_abbr("INFO"),  pack_zone_abbr("WARN"),   pack_zone_abbr("WARNING"), pack_zone_abbr("ERROR"),
      pack_zone_abbr("ERR"),   pack_zone_abbr("DEBUG"),  pack_zone_abbr("TRACE"),   pack_zone_abbr("FATAL"),
      pack_zone_abbr("NOTICE"), pack_zone_abbr("CRIT"),  pack_zone_abbr("ALERT"),   pack_zone_abbr("EMERG"),
      pack_zone_abbr("SEVERE"), pack_zone_abbr("FINE"),  pack_zone_abbr("FINER"),   pack_zone_abbr("FINEST"),
      pack_zone_abbr("CONFIG")};
  return std::find(std::begin(kLevels), std::end(kLevels), abbr) != std::end(kLevels);
}

// Zone abbreviations after the sampled times that the zone does not use but
// a zone of the tz database does (CET in logs sorted under the default UTC):
// those times are read in the zone given, without them, so it is likely not
// the one they were written in. One warning an abbreviation, naming the
// first file that has it; words no zone uses (ERROR, INFO) are no zones.
void warn_unnamed_zones(const TimeZone& zone, std::span<const std::string> inputs, std::span<const InputTimes> times,
                        const io::IoOptions& io) {
  if (!io.diagnostics) return;
  std::vector<std::uint64_t> warned;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (const std::uint64_t a : times[i].zone_abbrs) {
      if (zone.names(a) || log_level(a) || std::find(warned.begin(), warned.end(), a) != warned.end() ||
          !TimeZone::any_zone_names(a))
        continue;
      warned.push_back(a);
      std::size_t more = 0;
      for (std::size_t j = i + 1; j < inputs.size(); ++j)
        more += std::find(times[j].zone_abbrs.begin(), times[j].zone_abbrs.end(), a) != times[j].zone_abbrs.end();
      std::string letters;
      for (std::uint64_t p = a; p; p >>= 8) letters += static_cast<char>(p & 0xff);
      io.diagnostics->warning(inputs[i] + (more ? " and " + std::to_string(more) + " more" : "") +
                              ": timestamps followed by " + letters + ", which --time-zone's zone " + zone.name() +
                              " never uses: read as " + zone.name() +
                              " times; give --time-zone the zone they were written in");
    }
}

// The zone abbreviation that follows an explicit time key's timestamp, in
// the key (-k1,3T) or after it (-k1,2T, PostgreSQL's " CET" in the next
// field), as key_instant reads it where the zone names it; 0 where none.
std::uint64_t abbreviation_after(const TimeRules& rules, std::string_view key, std::string_view after) {
  TimeFound f;
  if (!rules.match_start(key, f) || f.time.zone_abbr || f.time.has_offset || f.time.epoch ||
      !f.pattern->ends_with_optional_zone())
    return 0;
  // Left out of the key's time, the zone not naming it (-k1,3T), or cut off
  // by the key's end (-k1,2T).
  const std::string_view rest = f.end < key.size() ? key.substr(f.end) : after;
  std::size_t i = 0;
  while (i < rest.size() && is_blank(static_cast<unsigned char>(rest[i]))) ++i;
  return i > 0 ? time_fields::read_zone_abbr(rest, i) : 0;
}

void note_reference(const TimeRules& rules, const std::string& what, const io::IoOptions& io, bool verbose) {
  note(verbose, io,
       "time: " + what + "zone " + rules.zone().name() + "; yearless timestamps in the 12 months up to " +
           std::to_string(rules.reference().year) + "-" + std::to_string(rules.reference().month));
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
  std::vector<bool> detected(known_time_formats().size());
  std::vector<std::string> members;
  bool sampled_any = false, all_sampled = true;
  std::vector<InputTimes> times;
  const bool settled = settings.search_formats.has_value();
  for (const std::string& path : inputs) {
    const InputTimes& t =
        times.emplace_back(input_times(path, sample && !rules->custom_format() && !settled, eol, io, verbose));
    all_sampled = all_sampled && t.mtime;
    if (t.mtime) newest = std::max(newest.value_or(*t.mtime), *t.mtime);
    sampled_any = sampled_any || !t.formats.empty();
    for (int f : t.formats) detected[static_cast<std::size_t>(f)] = true;
    add_member(members, t.json_member);
  }
  if (settled) {
    const auto known = known_time_formats();
    for (std::size_t f = 0; f < known.size(); ++f)
      detected[f] = std::find(settings.search_formats->begin(), settings.search_formats->end(), known[f].name) !=
                    settings.search_formats->end();
    rules->set_search_formats(patterns_of(detected));
    members = settings.json_members;
  } else if (sampled_any && all_sampled) {  // input not sampled (standard input, a pipe) may hold any format
    rules->set_search_formats(patterns_of(detected));
  }
  rules->set_json_time_members(std::move(members));
  if (settings.year <= 0 && newest) {
    YearReference r;
    rules->zone().year_month_at(*newest, r.year, r.month);
    rules->set_reference(r);
  }
  note_reference(*rules, "", io, verbose);
  warn_unnamed_zones(rules->zone(), inputs, times, io);
  return rules;
}

std::vector<std::shared_ptr<const TimeRules>> time_rules_by_input(const TimeSettings& settings,
                                                                  std::span<const std::string> inputs,
                                                                  std::span<const std::string> zones, bool sample,
                                                                  char eol, const io::IoOptions& io, bool verbose) {
  const std::vector<std::string> stdin_only{"-"};
  if (inputs.empty()) inputs = stdin_only;
  const auto known = known_time_formats();
  // The distinct zones, in input order, each with its rules before the
  // inputs are looked at (the settings but for the zone).
  std::vector<std::string> names;
  std::vector<TimeRules> base;
  std::vector<std::size_t> zone(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string& name = i < zones.size() ? zones[i] : settings.zone;
    zone[i] = static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    if (zone[i] == names.size()) {
      TimeSettings own = settings;
      own.zone = name;
      names.push_back(name);
      base.emplace_back(own);
    }
  }
  std::vector<InputTimes> in;
  std::vector<std::optional<YearReference>> year;  // each input's, where its timestamps may lack a year
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const TimeRules& b = base[zone[i]];
    const InputTimes& x = in.emplace_back(input_times(inputs[i], sample && !b.custom_format(), eol, io, verbose));
    year.emplace_back();
    // A file whose detected formats all read a year (or an offset-free epoch)
    // dates its lines alone; one not sampled may hold any format.
    const bool sampled = sample && x.mtime && !b.custom_format();
    bool yearless = b.custom_format() ? !b.search_formats().front()->has_year() : !sampled;
    for (int f : x.formats) {
      const TimePattern& p = known[static_cast<std::size_t>(f)].pattern;
      yearless = yearless || (!p.has_year() && !p.reads_epoch());
    }
    if (yearless) {
      YearReference r = b.reference();  // --time-year's, else the current date
      if (settings.year <= 0 && x.mtime) b.zone().year_month_at(*x.mtime, r.year, r.month);
      year.back() = r;
    }
  }
  for (std::size_t z = 0; z < base.size(); ++z) {  // each zone's warnings for its own inputs
    std::vector<std::string> paths;
    std::vector<InputTimes> times;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (zone[i] == z) paths.push_back(inputs[i]), times.push_back(in[i]);
    warn_unnamed_zones(base[z].zone(), paths, times, io);
  }
  // One group per zone and year reference, in input order; inputs that need
  // no reference join their zone's first group.
  struct Group {
    std::size_t zone;
    std::optional<YearReference> year;
  };
  std::vector<Group> groups;
  std::vector<std::size_t> group(in.size());
  auto group_of = [&](std::size_t z, const std::optional<YearReference>& y) {
    const auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
      return x.zone == z && (!y || (x.year && x.year->year == y->year && x.year->month == y->month));
    });
    if (g != groups.end()) return static_cast<std::size_t>(g - groups.begin());
    groups.push_back({z, y});
    return groups.size() - 1;
  };
  for (std::size_t i = 0; i < in.size(); ++i)
    if (year[i]) group[i] = group_of(zone[i], year[i]);
  for (std::size_t i = 0; i < in.size(); ++i)
    if (!year[i]) group[i] = group_of(zone[i], std::nullopt);
  std::vector<std::shared_ptr<TimeRules>> rules(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    rules[g] = std::make_shared<TimeRules>(base[groups[g].zone]);
    std::vector<bool> detected(known.size());
    std::vector<std::string> members;
    bool all_sampled = true, any = false;
    std::optional<std::int64_t> newest;
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (group[i] != g) continue;
      all_sampled = all_sampled && in[i].mtime;
      if (in[i].mtime) newest = std::max(newest.value_or(*in[i].mtime), *in[i].mtime);
      for (int f : in[i].formats) detected[static_cast<std::size_t>(f)] = any = true;
      add_member(members, in[i].json_member);
    }
    // Input not sampled (standard input, a pipe) may hold any format.
    if (any && all_sampled) rules[g]->set_search_formats(patterns_of(detected));
    rules[g]->set_json_time_members(std::move(members));
    if (groups[g].year) rules[g]->set_reference(*groups[g].year);
    else if (settings.year <= 0 && newest) {
      YearReference r;
      rules[g]->zone().year_month_at(*newest, r.year, r.month);
      rules[g]->set_reference(r);
    }
    note_reference(*rules[g], groups.size() > 1 ? "group " + std::to_string(g + 1) + ": " : "", io, verbose);
  }
  std::vector<std::shared_ptr<const TimeRules>> out;
  std::vector<std::pair<std::size_t, std::vector<bool>>> kinds;  // (group, formats) of each own rules made
  std::vector<std::shared_ptr<const TimeRules>> made;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].formats.empty() || !in[i].mtime) {  // nothing detected: what its group looks for
      out.push_back(rules[group[i]]);
      continue;
    }
    const auto kind = std::make_pair(group[i], flags_of(in[i].formats));
    const auto k = static_cast<std::size_t>(std::find(kinds.begin(), kinds.end(), kind) - kinds.begin());
    if (k == kinds.size()) {
      auto own = std::make_shared<TimeRules>(*rules[group[i]]);
      own->set_search_formats(patterns_of(kind.second));
      kinds.push_back(kind);
      made.push_back(std::move(own));
    }
    out.push_back(made[k]);
  }
  return out;
}

void warn_unnamed_key_zones(const LineOrdering& ordering, std::span<const std::string> inputs,
                            const io::IoOptions& io) {
  std::vector<const KeyField*> keys;
  for (const KeyField& k : ordering.keys)
    if (k.time && !k.time_search) keys.push_back(&k);
  if (!io.diagnostics || keys.empty()) return;
  std::vector<InputTimes> times(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!regular_file(inputs[i])) continue;
    const std::string head = first_bytes(inputs[i], io);
    std::vector<std::string_view> lines;
    add_lines(head, ordering.eol, true, head.size() < kFormatSampleBytes, kFormatSampleLines, lines);
    auto& found = times[i].zone_abbrs;
    for (std::string_view line : lines)
      for (const KeyField* key : keys) {
        const KeySpan span = find_key(line, *key, ordering.tab);
        if (!span.begin) continue;
        const std::uint64_t a =
            abbreviation_after(time_rules_of(*key), {span.begin, span.size()}, bytes_after(line, span));
        if (a && std::find(found.begin(), found.end(), a) == found.end()) found.push_back(a);
      }
  }
  // The keys share the sort's rules, and so its zone.
  warn_unnamed_zones(time_rules_of(*keys.front()).zone(), inputs, times, io);
}

}  // namespace corank::text
