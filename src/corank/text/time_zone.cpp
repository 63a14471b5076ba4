// cctz rather than Howard Hinnant's date/tz (both Debian packages; GCC 12
// has no std::chrono::locate_zone): cctz's civil_lookup names both instants
// of a skipped or repeated local time (pre, post), so the rule for them is
// one field chosen here, where date/tz throws for a skipped time unless each
// call passes a choose:: argument; its API is small, throws nothing, reads
// the compiled zoneinfo files that the tzdata package keeps current, and its
// lookups on a loaded zone are thread-safe.
#include "corank/text/time_zone.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cctz/civil_time.h>
#include <cctz/time_zone.h>

#include "corank/errors.hpp"
#include "corank/text/time_pattern.hpp"

namespace corank::text {

struct TimeZone::Impl {
  cctz::time_zone zone;
  std::uint64_t id;                 // a loaded zone's own number, for the span cache below
  std::vector<std::uint64_t> abbrs;  // the abbreviations it uses, packed
};

namespace {

std::atomic<std::uint64_t> zones_loaded{0};

// Where cctz reads the zoneinfo files: $TZDIR, else the system's.
std::string tz_dir() {
  const char* dir = std::getenv("TZDIR");
  return dir && *dir ? dir : "/usr/share/zoneinfo";
}

// The bytes of the zoneinfo file of zone `name` (its link's target's); none
// where it cannot be read.
std::optional<std::string> zone_file(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.find("..") != std::string_view::npos) return std::nullopt;
  std::ifstream f(tz_dir() + "/" + std::string(name), std::ios::binary);
  if (!f) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) return std::nullopt;
  return bytes;
}

const cctz::civil_second kEpoch(1970, 1, 1, 0, 0, 0);

// The span of local times (seconds from 1970-01-01T00:00 local) around the
// last one looked up on this thread, between two changes of offset, in which
// no local time is skipped or repeated: all of them take one offset.
// Consecutive lines of a log fall in one span almost always, so most local
// times become instants by a subtraction instead of cctz's lookup, a search
// of the zone's transitions that took 7% of a sort by --time.
struct Span {
  std::uint64_t zone = 0;  // Impl::id; 0: none
  std::int64_t from = 0, to = 0, offset = 0;
  std::uint64_t abbr = 0;  // the abbreviation in force, packed; in named_span: the one written
};
thread_local Span last_span;
// The same for local times written with an abbreviation that the span's own
// is not (CET in summer): the offset that abbreviation stands for there.
thread_local Span named_span;

constexpr std::uint64_t kUtc = pack_zone_abbr("UTC"), kGmt = pack_zone_abbr("GMT");

Span span_around(const cctz::time_zone& zone, std::uint64_t id, std::int64_t local, std::int64_t utc) {
  const cctz::time_point<cctz::seconds> t{cctz::seconds(utc)};
  Span s{id, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), local - utc,
         pack_zone_abbr(zone.lookup(t).abbr)};
  cctz::time_zone::civil_transition tr;
  // A change at or before the instant: local times from the later of its two
  // sides on take this offset alone (a skip ends at `to`, a repeat at `from`).
  if (zone.prev_transition(t + cctz::seconds(1), &tr)) s.from = std::max(tr.from - kEpoch, tr.to - kEpoch);
  // The next change: local times before the earlier of its two sides.
  if (zone.next_transition(t, &tr)) s.to = std::min(tr.from - kEpoch, tr.to - kEpoch);
  return s;
}

// The offset (seconds east of UTC) of the period nearest the instant `utc`
// in which `zone` uses the abbreviation `abbr`, looking at most
// kNearPeriods changes back and ahead: nullopt where none of them does.
constexpr int kNearPeriods = 8;
std::optional<std::int64_t> offset_named(const cctz::time_zone& zone, std::int64_t utc, std::uint64_t abbr) {
  const cctz::time_point<cctz::seconds> t{cctz::seconds(utc)};
  auto back = t, ahead = t;
  cctz::time_zone::civil_transition tr;
  for (int i = 0; i < kNearPeriods; ++i) {
    if (zone.prev_transition(back, &tr)) {
      back = zone.lookup(tr.to).trans - cctz::seconds(1);  // the last instant before the change
      const auto before = zone.lookup(back);
      if (pack_zone_abbr(before.abbr) == abbr) return before.offset;
    }
    if (zone.next_transition(ahead, &tr)) {
      ahead = zone.lookup(tr.to).trans;  // the change's own instant: the new period's first
      const auto after = zone.lookup(ahead);
      if (pack_zone_abbr(after.abbr) == abbr) return after.offset;
    }
  }
  return std::nullopt;
}

// The abbreviations `zone` uses from `from` to `to` (years, UTC), packed,
// added to `abbrs` where not there yet.
void add_abbreviations(const cctz::time_zone& zone, int from, int to, std::vector<std::uint64_t>& abbrs) {
  auto t = cctz::convert(cctz::civil_second(from, 1, 1, 0, 0, 0), cctz::utc_time_zone());
  const auto last = cctz::convert(cctz::civil_second(to, 1, 1, 0, 0, 0), cctz::utc_time_zone());
  for (cctz::time_zone::civil_transition tr;;) {
    const std::uint64_t a = pack_zone_abbr(zone.lookup(t).abbr);
    if (std::find(abbrs.begin(), abbrs.end(), a) == abbrs.end()) abbrs.push_back(a);
    if (!(t < last && zone.next_transition(t, &tr))) break;
    t = zone.lookup(tr.to).trans;
  }
}

}  // namespace

TimeZone::TimeZone() = default;

TimeZone TimeZone::load(std::string_view name) {
  TimeZone z;
  z.name_ = std::string(name);
  if (name == "UTC") return z;
  cctz::time_zone zone;
  // cctz falls back to UTC for a name it cannot load, and reports false.
  if (name.empty() || !cctz::load_time_zone(z.name_, &zone))
    throw UsageError("unknown time zone '" + z.name_ + "' (an IANA name such as Europe/Berlin, from the tz database)");
  std::vector<std::uint64_t> abbrs;
  add_abbreviations(zone, 1800, 2200, abbrs);
  z.impl_ = std::make_shared<const Impl>(Impl{zone, ++zones_loaded, std::move(abbrs)});
  return z;
}

bool TimeZone::same(std::string_view a, std::string_view b) {
  if (a == b) return true;
  const std::optional<std::string> x = zone_file(a);
  if (!x) return false;
  const std::optional<std::string> y = zone_file(b);
  return y && *x == *y;
}

bool TimeZone::any_zone_names(std::uint64_t abbr) {
  static const std::vector<std::uint64_t> all = [] {
    std::vector<std::uint64_t> abbrs{kUtc, kGmt};
    std::ifstream table(tz_dir() + "/zone1970.tab");
    // Lines of tab-separated fields: country codes, coordinates, the zone's name, ...
    for (std::string line; std::getline(table, line);) {
      if (line.empty() || line[0] == '#') continue;
      const std::size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
      if (b == std::string::npos) continue;
      const std::size_t c = line.find('\t', b + 1);
      cctz::time_zone zone;
      if (cctz::load_time_zone(line.substr(b + 1, c == std::string::npos ? c : c - b - 1), &zone))
        add_abbreviations(zone, 1970, 2038, abbrs);
    }
    return abbrs;
  }();
  return std::find(all.begin(), all.end(), abbr) != all.end();
}

std::int64_t TimeZone::to_utc(std::int64_t days, std::int64_t day_seconds) const noexcept {
  if (!impl_) return days * 86400 + day_seconds;
  // The civil time as seconds from 1970-01-01T00:00 local; cctz normalizes
  // the fields (a leap second's 60 becomes the next minute's first).
  const std::int64_t local = days * 86400 + day_seconds;
  Span& span = last_span;
  if (span.zone == impl_->id && local >= span.from && local < span.to) return local - span.offset;
  const cctz::time_zone::civil_lookup l = impl_->zone.lookup(kEpoch + local);
  const std::int64_t utc = l.pre.time_since_epoch().count();
  if (l.kind == cctz::time_zone::civil_lookup::UNIQUE) span = span_around(impl_->zone, impl_->id, local, utc);
  return utc;
}

void TimeZone::year_month_at(std::int64_t seconds, int& year, unsigned& month) const noexcept {
  const cctz::time_point<cctz::seconds> tp{cctz::seconds(seconds)};
  const cctz::civil_second cs = cctz::convert(tp, impl_ ? impl_->zone : cctz::utc_time_zone());
  year = static_cast<int>(cs.year());
  month = static_cast<unsigned>(cs.month());
}

std::int64_t TimeZone::to_utc_named(std::int64_t days, std::int64_t day_seconds, std::uint64_t abbr) const noexcept {
  const std::int64_t local = days * 86400 + day_seconds;
  if (abbr == kUtc || abbr == kGmt) return local;
  if (!impl_) return local;
  // A local time in the span to_utc keeps, written with the abbreviation in
  // force there, or in the span of the abbreviation read last: a subtraction.
  const Span& span = last_span;
  if (span.zone == impl_->id && local >= span.from && local < span.to && span.abbr == abbr) return local - span.offset;
  Span& named = named_span;
  if (named.zone == impl_->id && local >= named.from && local < named.to && named.abbr == abbr)
    return local - named.offset;
  // A skipped or repeated local time: `pre` reads it with the offset before
  // the change, `post` with the one after, each named by the zone's
  // abbreviation on its side of the change.
  const cctz::time_zone::civil_lookup l = impl_->zone.lookup(kEpoch + local);
  if (l.kind != cctz::time_zone::civil_lookup::UNIQUE) {
    if (pack_zone_abbr(impl_->zone.lookup(l.trans - cctz::seconds(1)).abbr) == abbr)
      return l.pre.time_since_epoch().count();
    if (pack_zone_abbr(impl_->zone.lookup(l.trans).abbr) == abbr) return l.post.time_since_epoch().count();
    return to_utc(days, day_seconds);
  }
  // One instant, whose abbreviation may be another: 12:00 CET in July, from
  // a clock kept at +01:00 all year, is 11:00 UTC (as GNU date reads it),
  // not the 10:00 UTC that CEST's 12:00 is. The offset of the abbreviation's
  // nearest period counts; one the zone does not use near then changes
  // nothing (a log level, another zone's name): its span keeps the zone's
  // own offset, so that the lines after it are a subtraction too.
  const std::int64_t utc = l.pre.time_since_epoch().count();
  const Span around = span_around(impl_->zone, impl_->id, local, utc);
  last_span = around;
  if (around.abbr == abbr) return utc;
  named = around;
  named.abbr = abbr;
  named.offset = offset_named(impl_->zone, utc, abbr).value_or(around.offset);
  return local - named.offset;
}

bool TimeZone::names(std::uint64_t abbr) const noexcept {
  if (abbr == kUtc || abbr == kGmt) return true;
  return impl_ && std::find(impl_->abbrs.begin(), impl_->abbrs.end(), abbr) != impl_->abbrs.end();
}

}  // namespace corank::text
