#include "corank/text/time_formats.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "corank/text/time_fields.hpp"

namespace corank::text {

namespace {

struct Row {
  const char* name;
  const char* pattern;
  const char* example;
};

// Most specific first: at one position the first that matches wins, so a
// format that another one's match could be a part of (syslog in Apache's
// error log, a date alone) comes after it.
constexpr Row kRows[] = {
    {"iso8601", "%F%[Tt ]%R%{:%S%f%}%{%z%}%{ %z%}%{ %Z%}",
     "2026-11-25T11:15:01.123+01:00, 2026-11-25 11:15:01,123, 2026-11-25 11:15:01.123 CET (PostgreSQL)"},
    {"rfc2822", "%{%a, %}%e %b %Y %R%{:%S%} %{%z%}%{%Z%}", "Wed, 25 Nov 2026 11:15:01 +0100, ... 01:30:00 EST"},
    {"day-month-year", "%e %b %Y %T%f%{ %z%}", "25 Nov 2026 11:15:01.123 (Redis)"},
    {"common-log", "%d/%b/%Y:%T%f%{ %z%}", "25/Nov/2026:11:15:01 +0100"},
    {"go-nginx-error", "%Y/%m/%d %T%f", "2026/11/25 11:15:01"},
    {"apache-error", "%a %b %e %T%f%{ %Z%} %Y", "Wed Nov 25 11:15:01.123456 2026, Wed Nov 25 11:15:01 CET 2026 (date)"},
    {"syslog", "%b %e %T%f", "Nov 25 11:15:01 (the year inferred)"},
    {"klog", "%[IWEF]%m%d %T%f", "I1125 11:15:01.123456 (Kubernetes, glog; the year inferred)"},
    {"iso8601-date", "%F", "2026-11-25"},
    {"epoch", "%s", "1795605301, 1795605301.123, 1795605301123 (ms), us, ns"},
};

bool word_byte(const std::string_view s, std::size_t i) noexcept { return time_fields::is_word(s[i]); }

}  // namespace

std::span<const TimeFormat> known_time_formats() {
  static const std::vector<TimeFormat> formats = [] {
    std::vector<TimeFormat> v;
    for (const Row& r : kRows) v.push_back({r.name, TimePattern(r.pattern), r.example});
    return v;
  }();
  return formats;
}

std::optional<int> rfc2822_zone_offset(const TimePattern* pattern, std::uint64_t abbr) noexcept {
  struct Zone {
    std::uint64_t abbr;
    int hours;
  };
  static constexpr Zone kZones[] = {{pack_zone_abbr("EST"), -5}, {pack_zone_abbr("EDT"), -4},
                                    {pack_zone_abbr("CST"), -6}, {pack_zone_abbr("CDT"), -5},
                                    {pack_zone_abbr("MST"), -7}, {pack_zone_abbr("MDT"), -6},
                                    {pack_zone_abbr("PST"), -8}, {pack_zone_abbr("PDT"), -7}};
  static const TimePattern* const rfc2822 = [] {
    for (const TimeFormat& f : known_time_formats())
      if (f.name == "rfc2822") return &f.pattern;
    return static_cast<const TimePattern*>(nullptr);
  }();
  if (!pattern || pattern != rfc2822) return std::nullopt;
  for (const Zone& z : kZones)
    if (z.abbr == abbr) return z.hours * 3600;
  return std::nullopt;
}

TimeSearch::TimeSearch(std::vector<const TimePattern*> patterns) : patterns_(std::move(patterns)) {
  for (const TimePattern* p : patterns_) {
    const int kind = p->reads_epoch();
    kinds_[kind].push_back(p);
    for (unsigned c = 0; c < 256; ++c) lead_[kind][c] |= p->lead_bits(static_cast<unsigned char>(c));
  }
  for (unsigned c = 0; c < 256; ++c)
    bytes_[c] = static_cast<std::uint8_t>((lead_[0][c] & 1) | (lead_[1][c] & 1) << 1 |
                                          time_fields::is_word(static_cast<char>(c)) << 2 | (c == 0x1b) << 3);
}

namespace {

// The last byte of the escape sequence that line[i], ESC, begins: a CSI's
// final byte (ECMA-48: ESC [, parameter bytes 0-9 : ; < = > ?, then
// intermediate bytes ! to /, then one final byte @ to ~), or ESC itself
// where no CSI follows (a stray ESC before "[2026-01-01 12:00:00").
std::size_t escape_end(std::string_view line, std::size_t i) noexcept {
  if (i + 1 >= line.size() || line[i + 1] != '[') return i;
  const auto in = [&](std::size_t k, unsigned lo, unsigned hi) {
    return k < line.size() && static_cast<unsigned char>(line[k]) >= lo && static_cast<unsigned char>(line[k]) <= hi;
  };
  std::size_t k = i + 2;
  while (in(k, 0x30, 0x3f)) ++k;
  while (in(k, 0x20, 0x2f)) ++k;
  return in(k, 0x40, 0x7e) ? k : i;
}

// Calls visit(i, bits) at each position of line from `from` on that begins
// a word (bits: the byte's entry of `bytes`; `word` and `escape` its bits
// for a letter or digit and for ESC), the terminal's escape sequences
// passed over, until a visit returns true: whether one did.
template <class Visit>
bool each_word_start(std::string_view line, std::size_t from, const std::array<std::uint8_t, 256>& bytes,
                     std::uint8_t word, std::uint8_t escape, Visit&& visit) noexcept {
  std::uint8_t before = 0;  // the entry of the byte before
  for (std::size_t i = from; i < line.size(); ++i) {
    const std::uint8_t b = bytes[static_cast<unsigned char>(line[i])];
    const bool at_start = !(before & word);
    before = b;
    if (b & escape) {
      i = escape_end(line, i);
      before = 0;
      continue;
    }
    if (at_start && visit(i, b)) return true;
  }
  return false;
}

}  // namespace

inline bool TimeSearch::may_begin_at(std::string_view line, std::size_t i, int kind) const noexcept {
  const std::array<std::uint8_t, 256>& lead = lead_[kind];
  const std::size_t n = std::min(line.size() - i, TimePattern::kLeadBytes);
  for (std::size_t k = 0; k < n; ++k)
    if (!((lead[static_cast<unsigned char>(line[i + k])] >> k) & 1)) return false;
  return true;
}

bool TimeSearch::match_at(std::string_view line, std::size_t i, int kind, TimeHit& hit) const noexcept {
  if (!may_begin_at(line, i, kind)) return false;
  const bool one = kinds_[kind].size() == 1;  // its lead bytes are the kind's: tested above
  std::size_t end = 0;
  for (const TimePattern* p : kinds_[kind]) {
    if ((!one && !p->may_match_at(line, i)) || !p->match(line, i, hit.time, end, false)) continue;
    if (end < line.size() && word_byte(line, end)) continue;
    hit.begin = i;
    hit.end = end;
    hit.pattern = p;
    return true;
  }
  return false;
}

// The line's word starts (and the other bytes a pattern may begin with) in
// order: the first match of a pattern that reads no epoch wins. Epoch
// numbers are looked for only in a line without one, from the first word
// start that could begin one.
bool TimeSearch::find_first(std::string_view line, TimeHit& hit) const noexcept {
  std::size_t epoch_from = 0;
  if (!kinds_[0].empty()) {
    epoch_from = line.size();
    const bool found = each_word_start(line, 0, bytes_, kWord, kEscape, [&](std::size_t i, std::uint8_t b) {
      if ((b & kOtherStart) && match_at(line, i, 0, hit)) return true;
      if ((b & kEpochStart) && epoch_from == line.size()) epoch_from = i;
      return false;
    });
    if (found) return true;
  }
  if (kinds_[1].empty()) return false;
  return each_word_start(line, epoch_from, bytes_, kWord, kEscape, [&](std::size_t i, std::uint8_t b) {
    return (b & kEpochStart) && match_at(line, i, 1, hit);
  });
}

std::vector<int> detect_formats(std::span<const TimeFormat> formats, std::span<const std::string_view> lines,
                                double min_share) {
  std::vector<const TimePattern*> all;
  for (const TimeFormat& f : formats) all.push_back(&f.pattern);
  const TimeSearch search(all);
  std::vector<std::size_t> reads(formats.size());
  TimeHit hit;
  for (std::string_view line : lines)
    if (search.find_first(line, hit))
      ++reads[static_cast<std::size_t>(std::find(all.begin(), all.end(), hit.pattern) - all.begin())];
  std::vector<int> taken;
  for (;;) {
    int best = -1;
    for (std::size_t f = 0; f < formats.size(); ++f)
      if (reads[f] && (best < 0 || reads[f] > reads[static_cast<std::size_t>(best)])) best = static_cast<int>(f);
    if (best < 0) return taken;
    const auto n = reads[static_cast<std::size_t>(best)];
    if (!taken.empty() && static_cast<double>(n) < min_share * static_cast<double>(lines.size())) return taken;
    taken.push_back(best);
    reads[static_cast<std::size_t>(best)] = 0;
  }
}

}  // namespace corank::text
