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
  if (i >= spec.size() || !is_digit(static_cast<unsigned char>(spec[i])))
    throw UsageError(std::string(why) + ": invalid count at start of '" + std::string(spec.substr(i)) + "'");
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
  if (random) s += 'R';
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
      case 'R': key.random = true; break;
      default: return i;
    }
  }
  return i;
}

KeyField parse_keydef(std::string_view spec) {
  KeyField key;
  if (!spec.empty() && !is_digit(static_cast<unsigned char>(spec[0]))) {
    // corank's positionless time key: ordering letters only, T among them.
    if (apply_ordering_letters(spec, key, BlankSide::Both) == spec.size() && key.time) {
      key.time_search = true;
      return key;
    }
    key = KeyField{};
  }
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

std::optional<std::string> obsolete_keydef(std::string_view pos1, std::string_view pos2) {
  // GNU's conversion: "+A.x -B.y" is "-k A+1.x+1,B.y" when y is 0 (the key
  // ends with field B) and "-k A+1.x+1,B+1.y" otherwise.
  auto digits = [](std::string_view s, std::size_t& i) -> std::optional<std::uint64_t> {
    if (i >= s.size() || !is_digit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    std::uint64_t v = 0;
    for (; i < s.size() && is_digit(static_cast<unsigned char>(s[i])); ++i) {
      const unsigned d = static_cast<unsigned>(s[i] - '0');
      v = v > (kNoPosition - d) / 10 ? kNoPosition : v * 10 + d;
    }
    return v;
  };
  auto plus_one = [](std::uint64_t v) { return std::to_string(v == kNoPosition ? v : v + 1); };
  auto letters_ok = [](std::string_view s) {
    KeyField scratch;
    return apply_ordering_letters(s, scratch, BlankSide::Both) == s.size();
  };
  std::size_t i = 0;
  const auto a = digits(pos1, i);
  if (!a) return std::nullopt;
  std::string keydef = plus_one(*a);
  if (i < pos1.size() && pos1[i] == '.') {
    ++i;
    const auto x = digits(pos1, i);
    if (!x) return std::nullopt;
    keydef += '.';
    keydef += plus_one(*x);
  }
  if (!letters_ok(pos1.substr(i))) return std::nullopt;
  keydef += pos1.substr(i);
  if (pos2.empty()) return keydef;
  std::string operand(1, '-');  // as GNU quotes it
  operand += pos2;
  std::size_t j = 1;
  const std::uint64_t b = parse_count(operand, j, "invalid number after '-'");
  std::uint64_t y = 0;
  if (j < operand.size() && operand[j] == '.') {
    ++j;
    y = parse_count(operand, j, "invalid number after '.'");
  }
  if (!letters_ok(std::string_view(operand).substr(j))) bad_spec(operand, "stray character in field spec");
  // "-0" ends with the first field, as GNU's limfield reads eword 0, echar 0.
  keydef += ',';
  if (y == 0) {
    keydef += std::to_string(b == 0 ? 1 : b);
  } else {
    keydef += plus_one(b);
    keydef += '.';
    keydef += std::to_string(y);
  }
  keydef += operand.substr(j);
  return keydef;
}

KeyField parse_obsolete_key(std::string_view text) {
  if (text.empty() || text[0] != '+') throw UsageError("invalid obsolete key '" + std::string(text) + "'");
  const std::size_t space = text.find(" -");
  const std::string_view pos1 = text.substr(1, space == std::string_view::npos ? std::string_view::npos : space - 1);
  const std::string_view pos2 = space == std::string_view::npos ? std::string_view{} : text.substr(space + 2);
  const auto keydef = obsolete_keydef(pos1, pos2);
  if (!keydef) throw UsageError("invalid obsolete key '" + std::string(text) + "'");
  KeyField key = parse_keydef(*keydef);
  key.obsolete_form = true;
  return key;
}

void seed_random_keys(std::vector<KeyField>& keys, std::uint64_t salt) {
  for (auto& k : keys)
    if (k.random) k.random_salt = salt;
}

LineOrdering resolve_ordering(std::vector<KeyField> keys, const KeyField& global, int tab, bool stable, bool unique,
                              char eol) {
  LineOrdering o;
  for (auto& k : keys) {
    if (k.is_default() && !k.reverse) {
      const std::uint64_t sw = k.sword, sc = k.schar, ew = k.eword, ec = k.echar;
      const bool obsolete = k.obsolete_form;
      k = global;
      k.sword = sw, k.schar = sc, k.eword = ew, k.echar = ec;
      k.obsolete_form = obsolete;
      k.time_search = false;
    }
  }
  if (keys.empty() && !global.is_default()) {
    // The whole line, without positions: with T (--sort=time), its
    // timestamp wherever it is, as -k T and --time find it.
    keys.push_back(global);
    keys.back().time_search = global.time;
  }
  for (auto& k : keys) k.time_rules = global.time_rules;  // a setting, not a letter
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
  // GNU's check_ordering_compatibility: V, R and d/i count as one kind; T is one more.
  const int kinds =
      k.numeric + k.general_numeric + k.human_numeric + k.month + k.time + (k.version || k.random || k.ignore);
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
