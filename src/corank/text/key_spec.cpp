#include "corank/text/key_spec.hpp"

#include "corank/format.hpp"

namespace corank::text {

namespace {

[[noreturn]] void bad_spec(std::string_view spec, std::string_view why) {
  throw UsageError(std::string(why) + ": invalid field specification '" + std::string(spec) + "'");
}

// Digits to a count; too large saturates, as GNU's does (a field that far away
// is past every line's end anyway).
std::uint64_t parse_count(std::string_view spec, std::size_t& i, std::string_view why) {
  if (i >= spec.size() || !is_digit(static_cast<unsigned char>(spec[i]))) bad_spec(spec, why);
  std::uint64_t v = 0;
  for (; i < spec.size() && is_digit(static_cast<unsigned char>(spec[i])); ++i) {
    const unsigned d = static_cast<unsigned>(spec[i] - '0');
    v = v > (kNoPosition - d) / 10 ? kNoPosition : v * 10 + d;
  }
  return v;
}

}  // namespace

std::string KeyField::letters() const {
  std::string s;
  if (skip_start_blanks || skip_end_blanks) s += 'b';
  if (ignore == &kNonDictionary) s += 'd';
  if (fold) s += 'f';
  if (general_numeric) s += 'g';
  if (human_numeric) s += 'h';
  if (ignore == &kNonPrinting) s += 'i';
  if (month) s += 'M';
  if (numeric) s += 'n';
  if (reverse) s += 'r';
  if (time) s += 'T';
  if (version) s += 'V';
  return s;
}

std::size_t apply_ordering_letters(std::string_view s, KeyField& key, BlankSide side) {
  std::size_t i = 0;
  for (; i < s.size(); ++i) {
    switch (s[i]) {
      case 'b':
        if (side != BlankSide::End) key.skip_start_blanks = true;
        if (side != BlankSide::Start) key.skip_end_blanks = true;
        break;
      case 'd': key.ignore = &kNonDictionary; break;
      case 'f': key.fold = true; break;
      case 'g': key.general_numeric = true; break;
      case 'h': key.human_numeric = true; break;
      case 'i':
        if (!key.ignore) key.ignore = &kNonPrinting;  // -d implies -i, not the reverse
        break;
      case 'M': key.month = true; break;
      case 'n': key.numeric = true; break;
      case 'r': key.reverse = true; break;
      case 'T': key.time = true; break;
      case 'V': key.version = true; break;
      case 'R': throw UsageError("random order (-R) is not supported");
      default: return i;
    }
  }
  return i;
}

KeyField parse_keydef(std::string_view spec) {
  KeyField key;
  std::size_t i = 0;
  key.sword = parse_count(spec, i, "invalid number at field start");
  if (key.sword-- == 0) bad_spec(spec, "field number is zero");
  if (i < spec.size() && spec[i] == '.') {
    ++i;
    key.schar = parse_count(spec, i, "invalid number after '.'");
    if (key.schar-- == 0) bad_spec(spec, "character offset is zero");
  }
  if (key.sword == 0 && key.schar == 0) key.sword = kNoPosition;  // from the line's first byte
  i += apply_ordering_letters(spec.substr(i), key, BlankSide::Start);
  if (i < spec.size() && spec[i] == ',') {
    ++i;
    key.eword = parse_count(spec, i, "invalid number after ','");
    if (key.eword-- == 0) bad_spec(spec, "field number is zero");
    if (i < spec.size() && spec[i] == '.') {
      ++i;
      key.echar = parse_count(spec, i, "invalid number after '.'");
    }
    i += apply_ordering_letters(spec.substr(i), key, BlankSide::End);
  }
  if (i != spec.size()) bad_spec(spec, "stray character in field spec");
  return key;
}

LineOrdering resolve_ordering(std::vector<KeyField> keys, const KeyField& global, int tab, bool stable, bool unique,
                              char eol) {
  LineOrdering o;
  for (auto& k : keys) {
    if (k.is_default() && !k.reverse) {
      const std::uint64_t sw = k.sword, sc = k.schar, ew = k.eword, ec = k.echar;
      k = global;
      k.sword = sw, k.schar = sc, k.eword = ew, k.echar = ec;
    }
  }
  if (keys.empty() && !global.is_default()) keys.push_back(global);  // positions: the whole line
  for (auto& k : keys) k.syslog_year = global.syslog_year;  // a setting, not a letter
  for (const auto& k : keys) check_compatible(k);
  o.keys = std::move(keys);
  o.tab = tab;
  o.reverse = global.reverse;
  o.stable = stable;
  o.unique = unique;
  o.eol = eol;
  return o;
}

void check_compatible(const KeyField& k) {
  const int kinds = k.numeric + k.general_numeric + k.human_numeric + k.month + k.time + (k.version || k.ignore);
  if (kinds > 1) {
    KeyField shown = k;
    shown.skip_start_blanks = shown.skip_end_blanks = shown.reverse = false;
    throw UsageError("options '-" + shown.letters() + "' are incompatible");
  }
}

int parse_tab(std::string_view arg) {
  if (arg.empty()) throw UsageError("empty tab");
  if (arg.size() == 1) return static_cast<unsigned char>(arg[0]);
  if (arg == "\\0") return 0;
  throw UsageError("multi-character tab '" + std::string(arg) + "'");
}

}  // namespace corank::text
