#pragma once
// GNU sort key definitions (-k POS1[,POS2] with per-key ordering letters) and
// the global ordering options, resolved the way GNU sort resolves them: a key
// with no ordering letters of its own inherits the global ones, and global
// options with no -k make one key that spans the whole line.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/char_classes.hpp"

namespace corank::text {

class TimeRules;
class LineLocale;  // line_locale.hpp

// Where a time key's timestamp lies in the key's bytes (time_rules.hpp's key_instant).
enum class TimeExtent : unsigned char {
  start,     // at its start, other text may follow: a log line's fields (-k1,3T)
  anywhere,  // wherever it is found (--time, T without field positions)
  whole,     // the whole value, blanks around it aside (:time of a CSV column
             // or a JSON member): text after the timestamp leaves it unread
  record,    // a multi-line log record's (--multiline, T without field
             // positions): what its first line starts it with, if anything
             // (TimeRules::find_record_start)
};

inline constexpr std::uint64_t kNoPosition = UINT64_MAX;
inline constexpr int kNoTab = -1;  // fields are separated by runs of blanks

struct KeyField {
  // Zero-based field and character of the key's start and end, as GNU stores
  // them: sword == kNoPosition starts at the line's beginning, eword ==
  // kNoPosition ends at the line's end, echar == 0 means "end of field eword".
  std::uint64_t sword = kNoPosition, schar = 0;
  std::uint64_t eword = kNoPosition, echar = 0;
  bool skip_start_blanks = false, skip_end_blanks = false;  // b
  const ByteTable* ignore = nullptr;                        // d or i
  bool fold = false;                                        // f
  bool numeric = false, general_numeric = false, human_numeric = false;  // n g h
  bool month = false, version = false;                      // M V
  bool time = false;                                        // T: timestamps as instants (time_value.hpp)
  bool random = false;                                      // R
  bool reverse = false;                                     // r
  // R: the seed of the hash that orders keys; the same seed gives the same order.
  std::uint64_t random_salt = 0;
  bool obsolete_form = false;  // given as +POS1 [-POS2] (--debug warns about it)
  // T without field positions ("-k T", --time): the whole line, its timestamp
  // found wherever it is; with positions, the key starts with it.
  bool time_search = false;
  // :time of a column or member: the value is the timestamp alone.
  bool time_whole = false;
  // T without field positions on a multi-line record: its first line's time.
  bool time_record = false;
  TimeExtent time_extent() const noexcept {
    if (time_search) return time_record ? TimeExtent::record : TimeExtent::anywhere;
    return time_whole ? TimeExtent::whole : TimeExtent::start;
  }
  // How T reads timestamps (time_rules.hpp); null: UTC, the known formats, this year.
  std::shared_ptr<const TimeRules> time_rules;

  bool any_numeric() const noexcept { return numeric || general_numeric || human_numeric; }
  // GNU's default_key_compare: no ordering letter other than r.
  bool is_default() const noexcept {
    return !(ignore || fold || skip_start_blanks || skip_end_blanks || any_numeric() || month || version || random ||
             time);
  }
  // The ordering letters GNU would print for this key ("bdfghiMnRrV" order,
  // corank's T before V).
  std::string letters() const;
};

enum class BlankSide { Start, End, Both };

// Applies the ordering letters at the front of s to key; returns how many it used.
std::size_t apply_ordering_letters(std::string_view s, KeyField& key, BlankSide side);

// Parses a KEYDEF: F[.C][OPTS][,F[.C][OPTS]], or OPTS alone with T among
// them (a time key without positions: time_search). Throws UsageError naming the spec.
KeyField parse_keydef(std::string_view spec);

// The obsolete key form of POSIX 1992, which GNU sort still accepts: +POS1
// [-POS2], fields and characters counted from 0. `pos1` is the operand after
// its '+', `pos2` the one after its '-' (empty when there is none). Returns the
// equivalent KEYDEF ("+1 -2" is "2,2"), or nothing when pos1 is not a valid
// POS1 (the operand is a file name then). Throws UsageError for a bad POS2.
std::optional<std::string> obsolete_keydef(std::string_view pos1, std::string_view pos2);

// A key given in the obsolete form, as the text "+POS1" or "+POS1 -POS2"
// (what a SortRequest holds for it). Throws UsageError when it is not one.
KeyField parse_obsolete_key(std::string_view text);

// Gives every R key of `keys` the seed `salt`.
void seed_random_keys(std::vector<KeyField>& keys, std::uint64_t salt);

// What decides the order of two lines.
struct LineOrdering {
  std::vector<KeyField> keys;  // empty: whole-line byte order
  int tab = kNoTab;            // -t, as an unsigned char value
  bool reverse = false;        // global -r: reverses the last-resort comparison
  bool stable = false;         // -s: no last-resort comparison
  bool unique = false;         // -u: equal keys are one record; no last resort either
  char eol = '\n';             // '\0' under -z
  // The locale GNU sort would order by (line_locale.hpp); null: the C locale.
  std::shared_ptr<const LineLocale> locale;
};

// Applies GNU's inheritance and compatibility rules: keys without letters take
// `global`'s; with no keys, a non-default `global` becomes a whole-line key.
// Every key takes `global`'s time_rules (a setting, not a letter).
// Throws UsageError("options '-nM' are incompatible") like GNU; T is one more
// kind of value, incompatible with n g h M V d i as they are with each other.
LineOrdering resolve_ordering(std::vector<KeyField> keys, const KeyField& global, int tab, bool stable, bool unique,
                              char eol);

// Throws that UsageError where `key` combines incompatible orderings.
void check_compatible(const KeyField& key);

// Parses -t's argument: one byte, or "\0" for NUL.
int parse_tab(std::string_view arg);

}  // namespace corank::text
