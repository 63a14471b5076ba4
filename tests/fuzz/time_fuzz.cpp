// The time parser (text/time_pattern.cpp, time_formats.cpp, time_rules.cpp),
// hand-written for speed: for a pattern from the input (or the known formats),
// a zone, a year reference and JSON time members chosen by the first
// bytes, and two lines, every JSON member lies within its line,
// every match lies within its text, instants have nanoseconds below a second,
// the time keys (found anywhere, or at a field's start with the offset after
// it) compare antisymmetrically and agree with their prefixes, the lead
// bytes' quick rejection never refuses a match, a match that starts from
// the thread's memo of a pattern's head (kept across inputs) finds what the
// full match finds, and detection names known formats only.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/text/json_members.hpp"
#include "corank/text/line_comparator.hpp"
#include "corank/text/time_rules.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace corank::text;

void check_key(const TimeRules& rules, TimeExtent extent, std::string_view key, std::string_view after) {
  std::size_t begin = 0, end = 0;
  const auto t = key_instant(rules, extent, key, after, &begin, &end);
  if (!t) return;
  corank::fuzz::require(begin <= end && end <= key.size() + after.size(), "a timestamp lies within its text");
  corank::fuzz::require(t->nanoseconds < 1'000'000'000u, "nanoseconds below a second");
}

bool same_time(const LocalTime& a, const LocalTime& b) {
  return a.year == b.year && a.month == b.month && a.day == b.day && a.hour == b.hour && a.minute == b.minute &&
         a.second == b.second && a.nanos == b.nanos && a.has_offset == b.has_offset && a.offset == b.offset &&
         a.zone_abbr == b.zone_abbr && a.zone_abbr_at == b.zone_abbr_at && a.epoch == b.epoch &&
         a.epoch_seconds == b.epoch_seconds;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const std::string input(reinterpret_cast<const char*>(data + 3), size - 3);
  const auto [pattern, lines] = corank::fuzz::split_once(input, '\n');
  const auto [a, b] = corank::fuzz::split_once(lines, '\n');
  static const char* const kZones[] = {"", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe"};
  TimeSettings settings;
  settings.zone = kZones[data[0] % 4];
  settings.year = 1 + data[1] * 39;  // 1 .. 9946
  settings.year_month = data[2] % 13;
  if (data[0] & 4) settings.format = std::string(pattern);
  std::shared_ptr<TimeRules> rules;
  try {
    rules = std::make_shared<TimeRules>(settings);
  } catch (const corank::UsageError&) {
    return 0;  // a malformed pattern is refused, as the command line refuses it
  }
  if (data[0] & 8) rules->set_json_time_members({"time", "t", "@timestamp"});
  // Every format at every position of the pattern's line, and of each line.
  for (std::string_view text : {pattern, a, b}) {
    JsonMembers members(text);
    for (JsonMember m; members.next(m);)
      for (std::string_view part : {m.name, m.value})
        corank::fuzz::require(part.data() >= text.data() && part.data() + part.size() <= text.data() + text.size(),
                              "a JSON member lies within its line");
    check_key(*rules, TimeExtent::anywhere, text, {});
    check_key(*rules, TimeExtent::start, text, {});
    check_key(*rules, TimeExtent::whole, text, {});
    for (std::size_t cut = 0; cut <= text.size(); cut += 1 + text.size() / 8)
      check_key(*rules, TimeExtent::start, text.substr(0, cut), text.substr(cut));
    for (const TimePattern* p : rules->search_formats())
      for (std::size_t i = 0; i < text.size(); ++i) {
        LocalTime t;
        std::size_t end = 0;
        LocalTime u;
        std::size_t u_end = 0;
        const bool found = p->match(text, i, t, end, i == 0);
        const bool found_unmemoized = p->match_unmemoized(text, i, u, u_end, i == 0);
        corank::fuzz::require(found == found_unmemoized && (!found || (end == u_end && same_time(t, u))),
                              "a match from the head's memo is the full match's");
        if (!found) continue;
        corank::fuzz::require(end >= i && end <= text.size(), "a match ends within its text");
        corank::fuzz::require(p->may_match_at(text, i), "the lead bytes allow every match");
      }
  }
  const std::string_view sample[] = {pattern, a, b};
  for (int f : detect_formats(known_time_formats(), sample))
    corank::fuzz::require(f >= 0 && static_cast<std::size_t>(f) < known_time_formats().size(), "a known format");

  KeyField global;
  global.time_rules = rules;
  for (const char* spec : {"T", "1,2T", "2,2T"}) {
    const LineComparator cmp(resolve_ordering({parse_keydef(spec)}, global, kNoTab, false, false, '\n'));
    const int ab = corank::fuzz::sign(cmp.compare(a, b)), ba = corank::fuzz::sign(cmp.compare(b, a));
    corank::fuzz::require(ab == -ba, "compare is antisymmetric");
    corank::fuzz::require(cmp.compare(a, a) == 0, "a line equals itself");
    if (ab < 0) corank::fuzz::require(!(cmp.prefix(b) < cmp.prefix(a)), "prefixes agree with compare");
    if (ab > 0) corank::fuzz::require(!(cmp.prefix(a) < cmp.prefix(b)), "prefixes agree with compare");
  }
  return 0;
}
