#include "corank/text/debug_view.hpp"

#include <locale.h>
#include <wchar.h>
#include <wctype.h>

#include <algorithm>
#include <cwchar>
#include <cwctype>

#include "corank/text/char_classes.hpp"
#include "corank/text/field_finder.hpp"
#include "corank/text/line_comparator.hpp"
#include "corank/text/line_locale.hpp"
#include "corank/text/locale_number.hpp"
#include "corank/text/numeric_compare.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::text {

namespace {

// The columns [p, end) takes on a terminal, counted as GNU's debug_width
// counts them (gnulib's mbsnwidth, plus one for each tab, shown as '>'). In
// the C locale: a control byte none, any other byte one.
std::size_t width(const char* p, const char* end) noexcept {
  std::size_t w = 0;
  for (; p < end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    w += c == '\t' || (c >= 0x20 && c != 0x7f);
  }
  return w;
}

// Under a locale: by its characters where they may take several bytes
// (wcwidth; an invalid byte one column, an incomplete character at the end
// one), else by its byte classes.
std::size_t width(const char* p, const char* end, const LineLocale* locale) {
  if (!locale) return width(p, end);
  std::size_t w = static_cast<std::size_t>(std::count(p, end, '\t'));
  const locale_t loc = locale->handle();
  if (!locale->multibyte()) {
    for (; p < end; ++p) {
      const auto c = static_cast<unsigned char>(*p);
      w += isprint_l(c, loc) || !iscntrl_l(c, loc);
    }
    return w;
  }
  const locale_t previous = uselocale(loc);  // mbrtowc, wcwidth and iswcntrl read the thread's locale
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c < 0x7f) {  // printable ASCII
      ++w, ++p;
      continue;
    }
    std::mbstate_t state{};
    wchar_t wc;
    const std::size_t n = std::mbrtowc(&wc, p, static_cast<std::size_t>(end - p), &state);
    if (n == static_cast<std::size_t>(-1)) {
      ++w, ++p;
    } else if (n == static_cast<std::size_t>(-2)) {
      ++w, p = end;
    } else {
      const int cw = ::wcwidth(wc);
      w += cw >= 0 ? static_cast<std::size_t>(cw) : !std::iswcntrl(static_cast<wint_t>(wc));
      p += n == 0 ? 1 : n;
    }
  }
  uselocale(previous);
  return w;
}

// Where the number that -n (or with `unit`, -h) reads from p ends: an optional
// '-', digits, then a '.' and digits, then for -h a unit suffix; p itself when
// there is no digit.
const char* number_end(const char* p, const char* lim, bool unit) noexcept {
  const char* q = p + (p < lim && *p == '-');
  bool digits = false;
  auto skip_digits = [&] {
    for (; q < lim && is_digit(static_cast<unsigned char>(*q)); ++q) digits = true;
  };
  skip_digits();
  if (q < lim && *q == '.') {
    ++q;
    skip_digits();
  }
  if (!digits) return p;
  return q + (unit && q < lim && unit_order(static_cast<unsigned char>(*q)) != 0);
}

// One line marking the bytes of `line` that `key` compares (the whole line
// when key is null): month names, numbers and timestamps only as far as they go.
void append_mark(const LineOrdering& o, std::string_view line, const KeyField* key, std::string& out) {
  const LineLocale* locale = o.locale.get();
  const char* text = line.data();
  const char* beg = text;
  const char* lim = text + line.size();
  if (key) {
    const KeySpan span = find_key(line, *key, o.tab);
    beg = span.begin;
    lim = span.end;
    if (key->time) {
      // The timestamp read, and the offset after the key that it took.
      std::size_t at = 0, end = 0;
      const std::string_view after = span.end < text + line.size()
                                         ? std::string_view(span.end, static_cast<std::size_t>(text + line.size() - span.end))
                                         : std::string_view{};
      const bool valid = key_instant(time_rules_of(*key), key->time_extent(),
                                     std::string_view(beg, static_cast<std::size_t>(lim - beg)), after, &at, &end)
                             .has_value();
      while (beg < lim && is_blank(static_cast<unsigned char>(*beg))) ++beg;
      if (valid) beg = span.begin + at;
      lim = valid ? span.begin + end : beg;
    } else if (key->month || key->any_numeric()) {
      while (beg < lim && is_blank(static_cast<unsigned char>(*beg))) ++beg;
      const std::string_view k(beg, static_cast<std::size_t>(lim - beg));
      std::size_t month_end = 0;
      if (locale && key->month)
        lim = beg + (month_in_locale(k, *locale, &month_end) ? month_end : 0);
      else if (key->month)
        lim = beg + (month_of(k) ? 3 : 0);
      else if (locale && key->general_numeric)
        lim = beg + parse_general_in(k, locale->handle()).length;
      else if (key->general_numeric)
        lim = beg + parse_general(k).length;
      else if (locale)
        lim = beg + locale_number_mark_end(k, locale->numbers(), key->human_numeric);
      else
        lim = number_end(beg, lim, key->human_numeric);
    }
  }
  out.append(width(text, beg, locale), ' ');
  if (const std::size_t w = width(beg, lim, locale)) {
    out.append(w, '_');
    out += '\n';
  } else {
    out += "^ no match for key\n";
  }
}

}  // namespace

void append_debug_view(const LineOrdering& ordering, std::string_view line, std::string& out) {
  for (char c : line) out += c == '\t' ? '>' : c;
  out += '\n';
  for (const KeyField& key : ordering.keys) append_mark(ordering, line, &key, out);
  if (ordering.keys.empty() || !(ordering.unique || ordering.stable)) append_mark(ordering, line, nullptr, out);
}

void append_record_view(std::string_view record, std::span<const KeyExtent> keys, std::string& out) {
  for (char c : record) out += c == '\t' ? '>' : c;
  out += '\n';
  const char* text = record.data();
  for (const KeyExtent& k : keys) {
    const char* beg = text + std::min(k.begin, record.size());
    const char* end = text + std::clamp(k.end, k.begin, record.size());
    out.append(width(text, beg), ' ');
    const std::size_t w = k.found ? width(beg, end) : 0;
    if (w) {
      out.append(w, '_');
      out += '\n';
    } else {
      out += "^ no match for key\n";
    }
  }
}

std::vector<std::string> value_key_warnings(std::span<const KeyField> keys, const KeyField& global,
                                            const Collation* collation,
                                            std::span<const Collation* const> key_collations) {
  std::vector<std::string> w{collation ? "text ordering performed using ICU collation '" + collation->name() + "'"
                                       : "text ordering performed using simple byte comparison"};
  for (std::size_t i = 0; i < key_collations.size(); ++i)
    if (key_collations[i] && key_collations[i] != collation)
      w.push_back("key " + std::to_string(i + 1) + " ordered by ICU collation '" + key_collations[i]->name() + "'");
  const auto numeric = [](const KeyField& k) { return k.any_numeric(); };
  if (keys.empty() ? numeric(global) : std::any_of(keys.begin(), keys.end(), numeric))
    w.push_back("note numbers use '.' as a decimal point in this locale");
  return w;
}

std::vector<std::string> debug_warnings(const LineOrdering& o, const KeyField& global, bool global_only) {
  const LineLocale* locale = o.locale.get();
  std::vector<std::string> w =
      locale ? locale->debug_notes() : std::vector<std::string>{"text ordering performed using simple byte comparison"};
  const auto quote = [&](const std::string& s) { return locale ? locale->quote(s) : "'" + s + "'"; };
  // The global options no key uses: every key without ordering letters took
  // them all, a key with letters of its own none.
  KeyField unused = global;
  bool basic_numeric = false, general_numeric = false, basic_span = false, general_span = false;
  for (std::size_t i = 0; i < o.keys.size(); ++i) {
    const KeyField& k = o.keys[i];
    const std::string n = std::to_string(i + 1);
    if (k.obsolete_form) {
      // GNU's wording, which names fields only: "+A -B" and "-k A+1,B+1" with
      // the positions as stored (the line's start counts as field 0).
      const std::uint64_t sword = k.sword == kNoPosition ? 0 : k.sword;
      std::string old = "+", now = "-k ";
      old += std::to_string(sword);
      now += std::to_string(sword + 1);
      if (k.eword != kNoPosition) {
        old += " -";
        old += std::to_string(k.eword + 1);
        now += ',';
        now += std::to_string(k.eword + 1);
      }
      w.push_back("obsolescent key " + quote(old) + " used; consider " + quote(now) + " instead");
    }
    (k.general_numeric ? general_numeric : basic_numeric) |= k.any_numeric();
    const bool zero_width = k.sword != kNoPosition && k.eword < k.sword;
    if (zero_width) w.push_back("key " + n + " has zero width and will be ignored");
    const bool skips_implicitly = k.any_numeric() || k.month || k.time;
    const bool within_first_field = k.eword == 0 && k.echar != 0;  // -k1.x,1.y
    if (!zero_width && !global_only && o.tab == kNoTab && !within_first_field &&
        ((!k.skip_start_blanks && (!skips_implicitly || k.schar != 0)) || (!k.skip_end_blanks && k.echar != 0)))
      w.push_back("leading blanks are significant in key " + n + "; consider also specifying 'b'");
    // Fields numbered from 1, kNoPosition wrapping to 0: a key to the line's end spans fields.
    const std::uint64_t first = k.sword == kNoPosition ? 1 : k.sword + 1, last = k.eword + 1;
    if (!global_only && k.any_numeric() && (last == 0 || first < last)) {
      w.push_back("key " + n + " is numeric and spans multiple fields");
      (k.general_numeric ? general_span : basic_span) = true;
    }
    if (unused.ignore == k.ignore) unused.ignore = nullptr;
    unused.fold &= !k.fold;
    unused.skip_start_blanks &= !k.skip_start_blanks;
    unused.skip_end_blanks &= !k.skip_end_blanks;
    unused.month &= !k.month;
    unused.numeric &= !k.numeric;
    unused.general_numeric &= !k.general_numeric;
    unused.human_numeric &= !k.human_numeric;
    unused.version &= !k.version;
    unused.time &= !k.time;
    unused.random &= !k.random;
    unused.reverse &= !k.reverse;
  }
  // GNU's checks, with its quirks: without -t a blank thousands separator is
  // checked as such and the decimal point only where there is a separator;
  // -t's byte compares as a (signed) char.
  const LocaleNumbers numbers = locale ? locale->numbers() : LocaleNumbers{};
  const int tab = o.tab == kNoTab ? kNoTab : static_cast<int>(static_cast<signed char>(o.tab));
  const int separator = numbers.thousands_separator;
  const bool has_separator = separator != kNoThousandsSeparator;
  const auto as_text = [](int c) { return std::string(1, static_cast<char>(c)); };
  bool separator_warned = false;
  if (basic_span &&
      (tab == kNoTab ? has_separator && is_blank(static_cast<unsigned char>(separator)) : tab == separator)) {
    w.push_back("field separator " + quote(as_text(separator)) + " is treated as a group separator in numbers");
    separator_warned = true;
  }
  const int point = numbers.decimal_point;
  if (basic_span || general_span) {
    if (tab == kNoTab ? has_separator && is_blank(static_cast<unsigned char>(point)) : tab == point) {
      w.push_back("field separator " + quote(as_text(point)) + " is treated as a decimal point in numbers");
      separator_warned = true;
    } else if (tab == '-') {
      w.push_back("field separator " + quote("-") + " is treated as a minus sign in numbers");
    } else if (general_span && tab == '+') {
      w.push_back("field separator " + quote("+") + " is treated as a plus sign in numbers");
    }
  }
  if ((basic_numeric || general_numeric) && !separator_warned)
    w.push_back(std::string(tab == point ? "" : "note ") + "numbers use " + quote(as_text(point)) +
                " as a decimal point in this locale");
  if (basic_numeric && numbers.multibyte_separator_ignored)
    w.push_back("the multi-byte number group separator in this locale is not supported");
  const bool no_last_resort = o.stable || o.unique;
  const bool keyed = !o.keys.empty();
  if (!unused.is_default() || (unused.reverse && no_last_resort && keyed)) {
    KeyField shown = unused;
    shown.reverse &= no_last_resort;
    const std::string letters = shown.letters();
    w.push_back(letters.size() == 1 ? "option '-" + letters + "' is ignored" : "options '-" + letters + "' are ignored");
  }
  if (unused.reverse && !no_last_resort && keyed) w.push_back("option '-r' only applies to last-resort comparison");
  return w;
}

}  // namespace corank::text
