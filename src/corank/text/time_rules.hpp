#pragma once
// How a time key reads its text as an instant: which formats it tries, the
// zone of timestamps without a UTC offset, and the year of those without a
// year. One TimeRules serves every time key of a sort and every record, so
// that a record's instant depends on its text alone: records are compared
// again, by their text, wherever runs are merged.
//
// Years, as rsyslog and lnav infer them: from a reference date (by default
// the input file's modification time, in the time zone), a month
// later than the reference's month is in the year before, any other month in
// the reference's year. Feb 29 exists only where that year is a leap year.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/key_spec.hpp"
#include "corank/text/time_formats.hpp"
#include "corank/text/time_pattern.hpp"
#include "corank/text/time_value.hpp"
#include "corank/text/time_zone.hpp"

namespace corank::text {

// Months after `month` fall in `year` - 1; month 12: every month in `year`.
struct YearReference {
  int year = 1970;
  unsigned month = 12;
};

// What a user says about time keys (SortRequest's time_* fields).
struct TimeSettings {
  std::string zone;        // an IANA name; "": UTC
  std::string format;      // a pattern (time_pattern.hpp) instead of the known formats; "": those
  int year = 0;            // > 0: the reference year, instead of the inputs' modification time
  unsigned year_month = 0; // with year: the reference month (1-12); 0: December
  // Where set: the formats --time looks for (names of known_time_formats())
  // and the JSON time members, instead of what the inputs' first lines show.
  std::optional<std::vector<std::string>> search_formats;
  std::vector<std::string> json_members;
};

// A timestamp found in a text, with the pattern that read it.
using TimeFound = TimeHit;

class TimeRules {
public:
  // UTC, the known formats, the current date as the year reference.
  TimeRules();
  // Throws UsageError for an unknown zone or a malformed pattern.
  explicit TimeRules(const TimeSettings& settings);

  // The rules of keys that were given none: UTC, the known formats, this year.
  static const TimeRules& defaults();

  void set_reference(YearReference r) noexcept { reference_ = r; }
  const YearReference& reference() const noexcept { return reference_; }
  const TimeZone& zone() const noexcept { return zone_; }
  // What --time looks for: the formats detected in the inputs, in the
  // table's order; by default (nothing detected, or input that cannot be
  // read twice) every known one. --time-format's pattern replaces both.
  void set_search_formats(std::vector<const TimePattern*> patterns);
  std::span<const TimePattern* const> search_formats() const noexcept { return search_.patterns(); }
  bool custom_format() const noexcept { return custom_ != nullptr; }

  // A key whose value starts with the timestamp (after blanks and a '['),
  // in the first format that reads it, which ends the text or is followed by
  // a blank or ']'.
  bool match_start(std::string_view text, TimeFound& found) const noexcept;
  // JSON logs' time members, detected in the inputs (time_inputs.hpp): in a
  // line that holds a JSON object, the first top-level member of one of these
  // names whose whole value is a timestamp is the line's time, before any
  // timestamp in its other members (a message's own, perhaps in another zone).
  void set_json_time_members(std::vector<std::string> names) { json_members_ = std::move(names); }
  const std::vector<std::string>& json_time_members() const noexcept { return json_members_; }
  // A line's time: where it holds a JSON object, its time member's (above);
  // else the first timestamp anywhere in it, in one of the search formats.
  bool find(std::string_view line, TimeFound& found) const noexcept;
  // Whether `line` starts a multi-line log record (multiline_format.hpp), and
  // its time: find's, but a bare epoch number or a date alone found inside
  // the line is most often the message's, not the entry's ("Key
  // (id)=(1732531201) already exists", "license expired on 2026-11-20" in a
  // stack trace): it counts only where the line begins with it (after a '[',
  // or a file's byte order mark), or where the line holds a JSON object (its
  // time member's value).
  bool find_record_start(std::string_view line, TimeFound& found) const noexcept;
  // A whole text that is one timestamp of the search formats (an epoch of
  // nine digits or more): a JSON member's value.
  bool match_whole(std::string_view text, TimeFound& found) const noexcept;
  // The instant of what was found: nullopt for a date that does not exist
  // (Feb 29 of an inferred year that is not a leap year).
  std::optional<Instant> instant(const LocalTime& t) const noexcept;

private:
  void settle_abbreviation(std::string_view text, TimeFound& found) const noexcept;

  TimeZone zone_;
  YearReference reference_;
  std::shared_ptr<const TimePattern> custom_;
  std::vector<const TimePattern*> start_;   // what match_start tries
  TimeSearch search_;                       // what find looks for
  std::vector<std::string> json_members_;   // JSON logs' time members, by name
};

// The instant of a time key's text (the key's bytes), or nullopt. `search`:
// anywhere in the text (--time), else at its start. `after` is what follows
// the key in its record: a key that ends where a format's optional UTC offset
// would begin ("-k4,4T" on "[25/Nov/2026:12:00:00 +0100]", the offset in
// field 5) takes the offset from there. PostgreSQL's -infinity and infinity
// (any case) at the key's start come before and after every instant. `begin`/`end`, where given, receive
// the timestamp's extent relative to the key's start (--debug's marks).
std::optional<Instant> key_instant(const TimeRules& rules, TimeExtent extent, std::string_view key, std::string_view after,
                                   std::size_t* begin = nullptr, std::size_t* end = nullptr) noexcept;

// --time-year's argument: YEAR (1-9999), or a reference date YEAR-MM or
// YEAR-MM-DD (the day is not used). Throws UsageError.
YearReference parse_year_reference(std::string_view text);

}  // namespace corank::text
