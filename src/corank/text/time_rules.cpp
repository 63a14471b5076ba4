#include "corank/text/time_rules.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "corank/errors.hpp"
#include "corank/text/char_classes.hpp"
#include "corank/text/time_fields.hpp"
#include "corank/text/json_members.hpp"
#include "corank/text/time_formats.hpp"

namespace corank::text {

namespace {

bool blank(char c) noexcept { return c == ' ' || c == '\t'; }

YearReference this_year() noexcept {
  using namespace std::chrono;
  const year_month_day today{floor<days>(system_clock::now())};
  return {static_cast<int>(today.year()), static_cast<unsigned>(today.month())};
}

std::vector<const TimePattern*> all_known() {
  std::vector<const TimePattern*> v;
  for (const TimeFormat& f : known_time_formats()) v.push_back(&f.pattern);
  return v;
}

}  // namespace

TimeRules::TimeRules() : reference_(this_year()), start_(all_known()), search_(start_) {}

TimeRules::TimeRules(const TimeSettings& s) : TimeRules() {
  if (!s.zone.empty()) zone_ = TimeZone::load(s.zone);
  if (!s.format.empty()) {
    custom_ = std::make_shared<const TimePattern>(s.format);
    start_ = {custom_.get()};
    search_ = TimeSearch(start_);
  }
  if (s.year > 0) reference_ = {s.year, s.year_month ? s.year_month : 12};
}

const TimeRules& TimeRules::defaults() {
  static const TimeRules rules;
  return rules;
}

void TimeRules::set_search_formats(std::vector<const TimePattern*> patterns) {
  if (!custom_ && !patterns.empty()) search_ = TimeSearch(std::move(patterns));
}

// A zone abbreviation that the zone does not name (a log level after an ISO
// time, ERROR; CET under UTC) is no part of the timestamp: the match ends
// before it, and the time reads as one without it. RFC 2822's own zone
// names (EST) are the offsets it fixes for them.
void TimeRules::settle_abbreviation(std::string_view text, TimeFound& found) const noexcept {
  if (!found.time.zone_abbr || zone_.names(found.time.zone_abbr)) return;
  if (const auto offset = rfc2822_zone_offset(found.pattern, found.time.zone_abbr)) {
    found.time.zone_abbr = 0;
    found.time.has_offset = true;
    found.time.offset = *offset;
    return;
  }
  found.time.zone_abbr = 0;
  std::size_t end = found.time.zone_abbr_at;
  while (end > found.begin && is_blank(static_cast<unsigned char>(text[end - 1]))) --end;
  found.end = end;
}

bool TimeRules::match_start(std::string_view s, TimeFound& found) const noexcept {
  // A file's first key may begin with its byte order mark; a key that ends
  // its line, with a CRLF line's carriage return.
  std::size_t i = s.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  if (s.ends_with('\r')) s.remove_suffix(1);
  while (i < s.size() && is_blank(static_cast<unsigned char>(s[i]))) ++i;
  if (i < s.size() && s[i] == '[') ++i;
  if (i == s.size()) return false;
  for (const TimePattern* p : start_) {
    std::size_t end = 0;
    if (!p->may_match_at(s, i) || !p->match(s, i, found.time, end, true)) continue;
    if (end < s.size() && !is_blank(static_cast<unsigned char>(s[end])) && s[end] != ']') continue;
    found.begin = i;
    found.end = end;
    found.pattern = p;
    settle_abbreviation(s, found);
    return true;
  }
  return false;
}

bool TimeRules::match_whole(std::string_view text, TimeFound& found) const noexcept {
  for (const TimePattern* p : search_.patterns()) {
    if (!p->matches_whole(text, found.time)) continue;
    found.begin = 0;
    found.end = text.size();
    found.pattern = p;
    settle_abbreviation(text, found);
    return true;
  }
  return false;
}

bool TimeRules::find(std::string_view line, TimeFound& found) const noexcept {
  if (!json_members_.empty()) {
    JsonMembers members(line);
    for (JsonMember m; members.next(m);) {
      if (std::find(json_members_.begin(), json_members_.end(), m.name) == json_members_.end()) continue;
      if (!match_whole(m.value, found)) continue;
      const auto at = static_cast<std::size_t>(m.value.data() - line.data());
      found.begin += at;
      found.end += at;
      return true;
    }
  }
  if (!search_.find_first(line, found)) return false;
  settle_abbreviation(line, found);
  return true;
}

namespace {

// The known formats that read a bare number (an epoch) or a date without a
// time of day.
bool reads_number_or_date(const TimePattern* p) {
  static const std::vector<const TimePattern*> weak = [] {
    std::vector<const TimePattern*> v;
    for (const TimeFormat& f : known_time_formats())
      if (f.name == std::string_view("epoch") || f.name == std::string_view("iso8601-date")) v.push_back(&f.pattern);
    return v;
  }();
  return std::find(weak.begin(), weak.end(), p) != weak.end();
}

}  // namespace

bool TimeRules::find_record_start(std::string_view line, TimeFound& found) const noexcept {
  if (!find(line, found)) return false;
  if (!reads_number_or_date(found.pattern) || line.starts_with('{')) return true;
  const std::size_t start = line.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // past a file's byte order mark
  return found.begin == start || (found.begin == start + 1 && line[start] == '[');
}

std::optional<Instant> TimeRules::instant(const LocalTime& t) const noexcept {
  if (t.epoch) return Instant{t.epoch_seconds, t.nanos};
  int year = t.year;
  if (year == LocalTime::kNoYear)
    year = static_cast<unsigned>(t.month) > reference_.month ? reference_.year - 1 : reference_.year;
  // A log's next line is most often of the same day: its days are kept, a
  // thread's last date's.
  struct LastDate {
    int year = 0;
    unsigned month = 0, day = 0;  // 0: none yet
    std::int64_t days = 0;
  };
  thread_local LastDate last;
  const auto month = static_cast<unsigned>(t.month), day = static_cast<unsigned>(t.day);
  if (!(last.day == day && last.month == month && last.year == year)) {
    const auto days = days_from_civil(year, month, day);
    if (!days) return std::nullopt;
    last = {year, month, day, *days};
  }
  const std::int64_t days = last.days;
  // A leap second (23:59:60.5) is the last instant of the second before it:
  // after 23:59:59.999, before the next day's 00:00:00.
  const bool leap = t.second == 60;
  const std::int64_t day_seconds = std::int64_t{t.hour} * 3600 + t.minute * 60 + (leap ? 59 : t.second);
  std::int64_t seconds;
  if (t.has_offset) seconds = days * 86400 + day_seconds - t.offset;
  else if (t.zone_abbr) seconds = zone_.to_utc_named(days, day_seconds, t.zone_abbr);
  else seconds = zone_.to_utc(days, day_seconds);
  return Instant{seconds, leap ? 999'999'999u : t.nanos};
}

namespace {

// PostgreSQL's timestamps -infinity and infinity (any case) at a key's start,
// after blanks and an optional '[': before and after every instant, as the
// extremes of Instant, which no parsed time reaches.
std::optional<Instant> infinite(std::string_view s, std::size_t* begin, std::size_t* end) noexcept {
  std::size_t i = 0;
  while (i < s.size() && is_blank(static_cast<unsigned char>(s[i]))) ++i;
  if (i < s.size() && s[i] == '[') ++i;
  const std::size_t from = i;
  const bool minus = i < s.size() && s[i] == '-';
  if (minus) ++i;
  constexpr std::string_view word = "infinity";
  if (s.size() - i < word.size()) return std::nullopt;
  for (std::size_t k = 0; k < word.size(); ++k)
    if ((static_cast<unsigned char>(s[i + k]) | 0x20) != static_cast<unsigned char>(word[k])) return std::nullopt;
  i += word.size();
  if (i < s.size() && !is_blank(static_cast<unsigned char>(s[i])) && s[i] != ']') return std::nullopt;
  if (begin) *begin = from;
  if (end) *end = i;
  return minus ? Instant{INT64_MIN, 0} : Instant{INT64_MAX, 999'999'999};
}

}  // namespace

std::optional<Instant> key_instant(const TimeRules& rules, TimeExtent extent, std::string_view key, std::string_view after,
                                   std::size_t* begin, std::size_t* end) noexcept {
  if (extent == TimeExtent::record) {
    // A multi-line record's time is what started it: its first line's.
    const std::string_view first = key.substr(0, std::min(key.find('\n'), key.size()));
    TimeFound f;
    if (!rules.find_record_start(first, f)) return std::nullopt;
    if (begin) *begin = f.begin;
    if (end) *end = f.end;
    return rules.instant(f.time);
  }
  const bool search = extent == TimeExtent::anywhere;
  if (!search) {
    std::size_t to = 0;
    if (auto t = infinite(key, begin, &to)) {
      if (end) *end = to;
      // A whole value: blanks (and a closing bracket) may follow, no text.
      while (extent == TimeExtent::whole && to < key.size() && (blank(key[to]) || key[to] == ']')) ++to;
      if (extent != TimeExtent::whole || to == key.size()) return t;
      return std::nullopt;
    }
  }
  TimeFound f;
  if (!(search ? rules.find(key, f) : rules.match_start(key, f))) return std::nullopt;
  if (!search && f.end == key.size() && !f.time.has_offset && !f.time.zone_abbr && !f.time.epoch) {
    // The UTC offset (Common Log Format's) or the zone abbreviation (where the
    // zone names it: PostgreSQL's) that the key's end cut off, in the next field.
    std::size_t at = 0;
    while (at < after.size() && blank(after[at])) ++at;
    std::size_t i = at;
    int offset = 0;
    if (at > 0 && f.pattern->ends_with_optional_offset() && read_utc_offset(after, i, offset) &&
        (i == after.size() || is_blank(static_cast<unsigned char>(after[i])) || after[i] == ']')) {
      f.time.has_offset = true;
      f.time.offset = offset;
      f.end = key.size() + i;
    } else if (at > 0 && f.pattern->ends_with_optional_zone()) {
      i = at;
      const std::uint64_t abbr = time_fields::read_zone_abbr(after, i);
      if (abbr && rules.zone().names(abbr)) {
        f.time.zone_abbr = abbr;
        f.time.zone_abbr_at = key.size() + at;
        f.end = key.size() + i;
      }
    }
  }
  if (extent == TimeExtent::whole) {
    // Blanks, and the bracket that closes one the value opens with (Common
    // Log Format's), may follow; other text ("... BC", an offset not read)
    // leaves the value unread.
    auto past_blanks = [&](std::size_t i) {
      while (i < key.size() && blank(key[i])) ++i;
      return i;
    };
    std::size_t rest = past_blanks(f.end);
    const std::size_t first = past_blanks(0);
    if (rest < key.size() && key[rest] == ']' && first < key.size() && key[first] == '[') rest = past_blanks(rest + 1);
    if (rest != key.size()) return std::nullopt;
  }
  if (begin) *begin = f.begin;
  if (end) *end = f.end;
  return rules.instant(f.time);
}

YearReference parse_year_reference(std::string_view text) {
  auto bad = [&] {
    throw UsageError("invalid --time-year argument '" + std::string(text) +
                     "': a year from 1 to 9999, or a reference date YEAR-MM[-DD]");
  };
  std::size_t i = 0;
  auto number = [&](std::size_t min, std::size_t max) {
    const std::size_t from = i;
    int v = 0;
    while (i < text.size() && i - from < max && is_digit(static_cast<unsigned char>(text[i])))
      v = v * 10 + (text[i++] - '0');
    if (i - from < min) bad();
    return v;
  };
  YearReference r;
  r.year = number(1, 4);
  if (r.year < 1) bad();
  if (i == text.size()) return r;
  if (text[i++] != '-') bad();
  const int month = number(2, 2);
  if (month < 1 || month > 12) bad();
  r.month = static_cast<unsigned>(month);
  if (i < text.size()) {
    if (text[i++] != '-') bad();
    const int day = number(2, 2);
    if (!days_from_civil(r.year, r.month, static_cast<unsigned>(day))) bad();
  }
  if (i != text.size()) bad();
  return r;
}

}  // namespace corank::text
