#include "corank/text/time_pattern.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>

#include "corank/errors.hpp"
#include "corank/text/time_fields.hpp"

namespace corank::text {

namespace {

using Op = TimePattern::Op;
using namespace time_fields;

constexpr std::size_t kMaxSteps = 256;
constexpr int kMaxNesting = 8;

struct MatchState {
  LocalTime t;
  int hour12 = -1;  // %I
  int pm = -1;      // %p: 0 AM, 1 PM
};

// A head's step looks at no byte past this many from where it starts, when
// it fails (a name's ten: "september" and the byte after it); one that
// succeeds looks at no byte past the one after what it took.
constexpr std::size_t kFailedStepReach = 10;

// What a thread's last match of a pattern's head looked at, and the state
// after it. The head's steps read nothing else (no position is kept in the
// state: no zone abbreviation is in a head), so a text that begins with the
// same bytes gives the same state after the same steps.
struct HeadMemo {
  static constexpr std::size_t kBytes = 40;
  std::uint64_t pattern = 0;  // its id; 0: none
  std::uint32_t looked = 0;  // bytes looked at, from the match's start
  std::uint32_t taken = 0;   // bytes the head took
  char bytes[kBytes];
  MatchState state;
};
// A few a thread, by pattern: a line's search tries several patterns.
constexpr std::size_t kHeadMemos = 4;
thread_local HeadMemo head_memos[kHeadMemos];

HeadMemo& head_memo_of(std::uint64_t pattern) noexcept { return head_memos[pattern % kHeadMemos]; }

std::atomic<std::uint64_t> patterns_compiled{0};

// Whether a step writes a field of the state when it succeeds.
bool writes(Op op) noexcept {
  switch (op) {
    case Op::Literal: case Op::Blanks: case Op::Set: case Op::Weekday: case Op::GroupBegin: case Op::GroupEnd:
      return false;
    default: return true;
  }
}

bool in_head(Op op) noexcept {
  switch (op) {
    case Op::Fraction: case Op::Offset: case Op::ZoneName: case Op::Epoch: return false;
    default: return true;
  }
}

}  // namespace

TimePattern::TimePattern(std::string_view pattern) : text_(pattern) {
  id_ = ++patterns_compiled;
  compile(pattern);
  mark_whole_groups();
  compute_lead_bytes();
  find_head();
}

void TimePattern::find_head() {
  // The last top-level boundary before the first step of unfixed reach.
  int depth = 0;
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    if (depth == 0) head_steps_ = k;
    if (!in_head(steps_[k].op)) return;
    if (steps_[k].op == Op::GroupBegin) ++depth;
    if (steps_[k].op == Op::GroupEnd) --depth;
  }
  head_steps_ = steps_.size();
}

// An optional part that fails goes back to where it began, and, where a
// step of it may have written a field before a later one fails, to the state
// it began with: those parts keep their state (Step::byte 1) as they open;
// the others (Common Log Format's " +0100", ISO 8601's ":%S%f") keep only
// their position. A nested part that fails goes back by itself, and is no
// failure of the part around it.
void TimePattern::mark_whole_groups() {
  for (std::size_t g = 0; g < steps_.size(); ++g) {
    if (steps_[g].op != Op::GroupBegin) continue;
    bool wrote = false, whole = false;
    for (std::size_t k = g + 1; k < steps_[g].arg; ++k) {
      if (steps_[k].op == Op::GroupBegin) {
        for (std::size_t j = k + 1; j < steps_[k].arg; ++j) wrote |= writes(steps_[j].op);
        k = steps_[k].arg;
        continue;
      }
      whole |= wrote && steps_[k].op != Op::Fraction;
      wrote |= writes(steps_[k].op);
    }
    steps_[g].byte = whole;
  }
}

void TimePattern::compile(std::string_view p) {
  auto bad = [&](const std::string& why) -> void {
    throw UsageError("invalid time format '" + std::string(p) + "': " + why);
  };
  std::vector<std::size_t> open;
  bool month = false, day = false, epoch = false;
  auto add = [&](Op op, std::uint8_t byte = 0, std::uint16_t arg = 0) {
    if (steps_.size() == kMaxSteps) bad("too long");
    steps_.push_back({op, byte, arg});
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == ' ' || c == '\t') {
      while (i + 1 < p.size() && (p[i + 1] == ' ' || p[i + 1] == '\t')) ++i;
      add(Op::Blanks);
      continue;
    }
    if (c != '%') {
      add(Op::Literal, static_cast<std::uint8_t>(c));
      continue;
    }
    if (++i == p.size()) bad("a '%' ends it");
    switch (p[i]) {
      case 'Y': add(Op::Year4); has_year_ = true; break;
      case 'y': add(Op::Year2); has_year_ = true; break;
      case 'm': add(Op::Month); month = true; break;
      case 'b': case 'h': case 'B': add(Op::MonthName); month = true; break;
      case 'd': add(Op::Day); day = true; break;
      case 'e': add(Op::DaySpaced); day = true; break;
      case 'H': add(Op::Hour); break;
      case 'I': add(Op::Hour12); break;
      case 'p': add(Op::AmPm); break;
      case 'M': add(Op::Minute); break;
      case 'S': add(Op::Second); break;
      case 'a': case 'A': add(Op::Weekday); break;
      case 'f': add(Op::Fraction); break;
      case 'z': add(Op::Offset); has_offset_ = true; break;
      case 'Z': add(Op::ZoneName); break;
      case 's': add(Op::Epoch); epoch = true; has_year_ = has_offset_ = true; break;
      case 'T': add(Op::Hour); add(Op::Literal, ':'); add(Op::Minute); add(Op::Literal, ':'); add(Op::Second); break;
      case 'R': add(Op::Hour); add(Op::Literal, ':'); add(Op::Minute); break;
      case 'F':
        add(Op::Year4), add(Op::Literal, '-'), add(Op::Month), add(Op::Literal, '-'), add(Op::Day);
        has_year_ = month = day = true;
        break;
      case '%': add(Op::Literal, '%'); break;
      case '{':
        if (open.size() == kMaxNesting) bad("optional parts nested too deeply");
        open.push_back(steps_.size());
        add(Op::GroupBegin);
        break;
      case '}':
        if (open.empty()) bad("'%}' without '%{'");
        steps_[open.back()].arg = static_cast<std::uint16_t>(steps_.size());
        open.pop_back();
        add(Op::GroupEnd);
        break;
      case '[': {
        const std::size_t close = p.find(']', i + 1);
        if (close == std::string_view::npos || close == i + 1) bad("'%[' needs bytes and a ']'");
        ByteSet set;
        for (char b : p.substr(i + 1, close - i - 1)) set.add(static_cast<unsigned char>(b));
        sets_.push_back(set);
        add(Op::Set, 0, static_cast<std::uint16_t>(sets_.size() - 1));
        i = close;
        break;
      }
      default: bad(std::string("unknown directive '%") + p[i] + "'");
    }
  }
  if (!open.empty()) bad("'%{' without '%}'");
  epoch_ = epoch;
  if (!epoch && !(month && day)) bad("it needs a month and a day, or %s");
  // An offset that ends the pattern (only the ends of optional parts after
  // it) is a word of its own: "Z" and "UT" are no offset at the start of
  // "Zebra" or "UTILITY", which would otherwise end the match inside a word,
  // and the time would be lost with it.
  // An optional zone abbreviation after it (%{ %Z%}) does not count: it is
  // a word of its own too.
  const auto zone_group_at = [&](std::size_t k) {
    if (steps_[k].op != Op::GroupBegin) return false;
    std::size_t j = k + 1;
    if (j < steps_.size() && steps_[j].op == Op::Blanks) ++j;
    return j < steps_.size() && steps_[j].op == Op::ZoneName && std::size_t{steps_[k].arg} == j + 1;
  };
  std::size_t n = steps_.size();  // the steps but a last optional zone abbreviation
  for (std::size_t k = 0; k < steps_.size(); ++k)
    if (zone_group_at(k) && std::size_t{steps_[k].arg} + 1 == steps_.size()) n = k;
  trailing_zone_ = n < steps_.size();
  // An optional offset after a blank is held to offset_ends' stricter rule
  // (time_fields.hpp: a signed number there may be the text's); one the
  // pattern requires ("... %H:%M:%S %z" of --time-format) is an offset
  // whatever it holds, "+01" included.
  for (std::size_t k = 0, depth = 0; k < steps_.size(); ++k) {
    depth += steps_[k].op == Op::GroupBegin;
    depth -= steps_[k].op == Op::GroupEnd;
    if (steps_[k].op != Op::Offset) continue;
    std::size_t after = k + 1;
    while (after < n && steps_[after].op == Op::GroupEnd) ++after;
    steps_[k].arg = after == n;
    std::size_t before = k;  // the step before it, past the optional parts it opens
    while (before > 0 && steps_[before - 1].op == Op::GroupBegin) --before;
    steps_[k].byte = depth > 0 && before > 0 && steps_[before - 1].op == Op::Blanks;
  }
  // An optional UTC offset at the very end, perhaps after blanks: what a key
  // cut at a blank may have left in the next field.
  trailing_offset_ = n >= 3 && steps_[n - 1].op == Op::GroupEnd && steps_[n - 2].op == Op::Offset &&
                     (steps_[n - 3].op == Op::GroupBegin ||
                      (n >= 4 && steps_[n - 3].op == Op::Blanks && steps_[n - 4].op == Op::GroupBegin));
}

namespace {

// What one step can read: its first byte, the bytes after it, and how many
// bytes in all (kUnbounded: any number).
constexpr unsigned kUnbounded = ~0u;
struct Reach {
  std::uint64_t first[4] = {}, rest[4] = {};
  unsigned min = 1, max = 1;
  void add(std::uint64_t (&set)[4], unsigned char c) noexcept { set[c >> 6] |= std::uint64_t{1} << (c & 63); }
  void add(std::uint64_t (&set)[4], char lo, char hi) noexcept {
    for (int c = lo; c <= hi; ++c) add(set, static_cast<unsigned char>(c));
  }
};

}  // namespace

// The bytes each of a match's first kLeadBytes positions can hold, from
// every way through the steps: the set of offsets a step may start at is
// carried from step to step (an optional part adds the offsets after it to
// those before it), and each step allows its bytes at the offsets it may
// cover. Where a match may end before offset k, every byte is allowed at k.
void TimePattern::compute_lead_bytes() {
  constexpr unsigned K = kLeadBytes;
  constexpr std::uint32_t kBeyond = 1u << K;  // offsets at or past K: nothing more to allow
  auto reach_of = [&](const Step& st) {
    Reach r;
    auto digits = [&](unsigned lo, unsigned hi) {
      r.add(r.first, '0', '9'), r.add(r.rest, '0', '9');
      r.min = lo, r.max = hi;
    };
    auto letters = [&](std::uint64_t (&set)[4]) { r.add(set, 'a', 'z'), r.add(set, 'A', 'Z'); };
    switch (st.op) {
      case Op::Literal: r.add(r.first, st.byte); break;
      case Op::Blanks:
        for (unsigned char c : {' ', '\t'}) r.add(r.first, c), r.add(r.rest, c);
        r.max = kUnbounded;
        break;
      case Op::Set:
        for (int w = 0; w < 4; ++w) r.first[w] = sets_[st.arg].bits[w];
        break;
      case Op::Year4: digits(4, 4); break;
      case Op::Year2: case Op::Minute: case Op::Second: digits(2, 2); break;
      case Op::Month: case Op::Day: case Op::Hour: case Op::Hour12: digits(1, 2); break;
      case Op::DaySpaced: digits(1, 3), r.add(r.first, ' '); break;  // an optional blank, 1-2 digits
      case Op::MonthName: case Op::Weekday: letters(r.first), letters(r.rest), r.min = 3, r.max = 9; break;
      case Op::AmPm:
        for (unsigned char c : {'a', 'A', 'p', 'P'}) r.add(r.first, c);
        r.add(r.rest, 'm'), r.add(r.rest, 'M'), r.min = r.max = 2;
        break;
      case Op::Fraction:  // optional: '.' or ',', then digits
        r.add(r.first, '.'), r.add(r.first, ','), r.add(r.rest, '0', '9'), r.min = 0, r.max = kUnbounded;
        break;
      case Op::Offset:  // Z, UT, UTC, GMT, +hh, +hhmm, +hh:mm, +hh:mm:ss (or -)
        for (unsigned char c : {'Z', 'z', 'U', 'G', '+', '-'}) r.add(r.first, c);
        r.add(r.rest, '0', '9');
        for (unsigned char c : {':', 'T', 'C', 'M'}) r.add(r.rest, c);
        r.max = 9;
        break;
      case Op::ZoneName: r.add(r.first, 'A', 'Z'), r.add(r.rest, 'A', 'Z'), r.min = 2, r.max = 6; break;
      case Op::Epoch: digits(1, kUnbounded), r.add(r.first, '-'), r.add(r.rest, '.'); break;
      case Op::GroupBegin: case Op::GroupEnd: r.min = r.max = 0; break;  // walk() takes parts whole
    }
    return r;
  };
  auto allow = [&](unsigned k, const std::uint64_t (&set)[4]) {
    for (unsigned c = 0; c < 256; ++c)
      if ((set[c >> 6] >> (c & 63)) & 1) lead_[c] |= static_cast<std::uint8_t>(1u << k);
  };
  // From the offsets `at`, through steps [from, to): the offsets after them.
  auto walk = [&](auto&& self, std::size_t from, std::size_t to, std::uint32_t at) -> std::uint32_t {
    for (std::size_t i = from; i < to; ++i) {
      const Step& st = steps_[i];
      if (st.op == Op::GroupBegin) {  // left out, or taken whole
        at |= self(self, i + 1, st.arg, at);
        i = st.arg;
        continue;
      }
      const Reach r = reach_of(st);
      std::uint32_t next = at & kBeyond;
      for (unsigned s = 0; s < K; ++s) {
        if (!((at >> s) & 1)) continue;
        allow(s, r.first);
        for (unsigned t = s + 1; t < K && t - s < r.max; ++t) allow(t, r.rest);
        for (unsigned n = r.min; n <= r.max; ++n) {
          if (s + n >= K) {
            next |= kBeyond;
            break;
          }
          next |= 1u << (s + n);
        }
      }
      at = next;
    }
    return at;
  };
  const std::uint32_t ends = walk(walk, 0, steps_.size(), 1);
  for (unsigned s = 0; s < K; ++s)
    if ((ends >> s) & 1)
      for (unsigned c = 0; c < 256; ++c) lead_[c] |= static_cast<std::uint8_t>(0xFFu << s);
}

bool TimePattern::match_from(std::string_view s, std::size_t pos, LocalTime& out, std::size_t& end,
                             bool anchored_epoch, bool memo) const noexcept {
  MatchState st;
  // The optional parts being matched: where each ends, and the state to go
  // back to when it fails.
  struct Open {
    std::size_t end_step, pos;
    bool whole;  // the state is kept, to go back to (Step::byte of GroupBegin)
    MatchState state;
  };
  // Left uninitialized: a slot is written when its part opens. Initialized,
  // the slots took three quarters of this function's time, most calls being
  // quick failures at a byte that cannot start a timestamp's field.
  union Slot {
    Open o;
    Slot() noexcept {}
  };
  Slot open[kMaxNesting];
  int depth = 0;
  std::size_t i = pos;
  std::size_t k = 0;
  std::size_t looked = pos;  // past the last byte the head's steps looked at
  HeadMemo* head = memo && head_steps_ > 0 ? &head_memo_of(id_) : nullptr;
  // A step writes its field only where it succeeds.
  const auto take = [](int& field, int value, bool good) {
    if (good) field = value;
    return good;
  };
  if (head && head->pattern == id_ && head->looked <= s.size() - pos &&
      std::memcmp(s.data() + pos, head->bytes, head->looked) == 0) {
    st = head->state;
    i = pos + head->taken;
    k = head_steps_;
    head = nullptr;  // it holds this head already
  }
  // The head matched (its groups closed): kept for the next text, where
  // every byte it looked at lies inside this one.
  auto keep_head = [&] {
    if (looked <= s.size() && looked - pos <= HeadMemo::kBytes) {
      head->pattern = id_;
      head->looked = static_cast<std::uint32_t>(looked - pos);
      head->taken = static_cast<std::uint32_t>(i - pos);
      std::memcpy(head->bytes, s.data() + pos, looked - pos);
      head->state = st;
    }
    head = nullptr;
  };
  for (; k < steps_.size(); ++k) {
    if (k == head_steps_ && head) keep_head();
    const Step& step = steps_[k];
    const std::size_t from = i;
    bool ok = true;
    int v = 0;
    switch (step.op) {
      case Op::Literal: ok = i < s.size() && static_cast<unsigned char>(s[i]) == step.byte, i += ok; break;
      case Op::Blanks:
        ok = i < s.size() && (s[i] == ' ' || s[i] == '\t');
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        break;
      case Op::Set: ok = i < s.size() && sets_[step.arg].has(static_cast<unsigned char>(s[i])), i += ok; break;
      case Op::Year4: v = read_digits(s, i, 4, 4), ok = take(st.t.year, v, v >= 0); break;
      case Op::Year2: v = read_digits(s, i, 2, 2), ok = take(st.t.year, v + (v >= 69 ? 1900 : 2000), v >= 0); break;
      case Op::Month: v = read_digits(s, i, 1, 2), ok = take(st.t.month, v, v >= 1 && v <= 12); break;
      case Op::MonthName: v = read_month_name(s, i), ok = take(st.t.month, v, v != 0); break;
      case Op::DaySpaced:
        if (i < s.size() && s[i] == ' ') ++i;
        [[fallthrough]];
      case Op::Day: v = read_digits(s, i, 1, 2), ok = take(st.t.day, v, v >= 1 && v <= 31); break;
      case Op::Hour: v = read_digits(s, i, 1, 2), ok = take(st.t.hour, v, v >= 0 && v <= 23); break;
      case Op::Hour12: v = read_digits(s, i, 1, 2), ok = take(st.hour12, v, v >= 1 && v <= 12); break;
      case Op::AmPm: {
        const unsigned char a = i + 1 < s.size() ? lower(static_cast<unsigned char>(s[i])) : 0;
        ok = (a == 'a' || a == 'p') && lower(static_cast<unsigned char>(s[i + 1])) == 'm';
        if (ok) st.pm = a == 'p', i += 2;
        break;
      }
      case Op::Minute: v = read_digits(s, i, 2, 2), ok = take(st.t.minute, v, v >= 0 && v <= 59); break;
      case Op::Second: v = read_digits(s, i, 2, 2), ok = take(st.t.second, v, v >= 0 && v <= 60); break;
      case Op::Weekday: ok = read_weekday_name(s, i) != 0; break;
      case Op::ZoneName: {
        std::uint64_t abbr = 0;
        ok = !st.t.has_offset && (abbr = read_zone_abbr(s, i)) != 0;
        if (ok) st.t.zone_abbr = abbr, st.t.zone_abbr_at = from;
        break;
      }
      case Op::Fraction: read_fraction(s, i, st.t.nanos); break;
      case Op::Offset: {
        int offset = 0;
        const bool read = read_utc_offset(s, i, offset);
        ok = read && !(step.arg && i < s.size() && is_word(s[i])) && offset_ends(s, from, i, step.byte);
        if (ok) st.t.offset = offset, st.t.has_offset = true;
        else if (!read && !step.byte && offset_shaped(s, from)) return false;  // attached, out of range
        break;
      }
      case Op::Epoch: ok = read_epoch(s, i, st.t, anchored_epoch); break;
      case Op::GroupBegin:
        open[depth].o.end_step = step.arg, open[depth].o.pos = i, open[depth].o.whole = step.byte;
        if (step.byte) open[depth].o.state = st;
        ++depth;
        break;
      case Op::GroupEnd: --depth; break;
    }
    if (head) {
      // A name that matched may have read on into a longer one ("Marc" of "March").
      const bool name = step.op == Op::MonthName || step.op == Op::Weekday;
      looked = std::max(looked, ok && !name ? i + 1 : std::max(i + 1, from + kFailedStepReach));
    }
    if (ok) continue;
    if (depth == 0) return false;
    const Open& o = open[--depth].o;  // the innermost optional part is left out
    i = o.pos;
    if (o.whole) st = o.state;
    k = o.end_step;
  }
  if (head) keep_head();  // the head is the whole pattern
  if (st.hour12 >= 0) st.t.hour = st.hour12 % 12 + (st.pm == 1 ? 12 : 0);
  out = st.t;
  end = i;
  return true;
}

}  // namespace corank::text
