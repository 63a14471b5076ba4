// cctz rather than Howard Hinnant's date/tz (both Debian packages; GCC 12
// has no std::chrono::locate_zone): cctz's civil_lookup names both instants
// of a skipped or repeated local time (pre, post), so the rule for them is
// one field chosen here, where date/tz throws for a skipped time unless each
// call passes a choose:: argument; its API is small, throws nothing, reads
// the compiled zoneinfo files that the tzdata package keeps current, and its
// lookups on a loaded zone are thread-safe.
#include "corank/text/time_zone.hpp"

#include <cctz/civil_time.h>
#include <cctz/time_zone.h>

#include "corank/errors.hpp"

namespace corank::text {

struct TimeZone::Impl {
  cctz::time_zone zone;
};

TimeZone::TimeZone() = default;

TimeZone TimeZone::load(std::string_view name) {
  TimeZone z;
  z.name_ = std::string(name);
  if (name == "UTC") return z;
  cctz::time_zone zone;
  // cctz falls back to UTC for a name it cannot load, and reports false.
  if (name.empty() || !cctz::load_time_zone(z.name_, &zone))
    throw UsageError("unknown time zone '" + z.name_ + "' (an IANA name such as Europe/Berlin, from the tz database)");
  z.impl_ = std::make_shared<const Impl>(Impl{zone});
  return z;
}

std::int64_t TimeZone::to_utc(std::int64_t days, std::int64_t day_seconds) const noexcept {
  if (!impl_) return days * 86400 + day_seconds;
  // The civil time as seconds from 1970-01-01T00:00 local; cctz normalizes
  // the fields (a leap second's 60 becomes the next minute's first).
  const cctz::civil_second cs = cctz::civil_second(1970, 1, 1, 0, 0, 0) + (days * 86400 + day_seconds);
  const cctz::time_zone::civil_lookup l = impl_->zone.lookup(cs);
  return l.pre.time_since_epoch().count();
}

void TimeZone::year_month_at(std::int64_t seconds, int& year, unsigned& month) const noexcept {
  const cctz::time_point<cctz::seconds> tp{cctz::seconds(seconds)};
  const cctz::civil_second cs = cctz::convert(tp, impl_ ? impl_->zone : cctz::utc_time_zone());
  year = static_cast<int>(cs.year());
  month = static_cast<unsigned>(cs.month());
}

}  // namespace corank::text
