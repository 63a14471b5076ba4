#include "corank/text/line_locale.hpp"

#include <langinfo.h>

#include <algorithm>
#include <clocale>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <new>

#include "corank/text/glibc_collation.hpp"
#include "corank/text/libc_collation.hpp"

namespace corank::text {

namespace {

// GNU's hard_locale(): any name but C and POSIX (so C.UTF-8 is hard too).
bool hard(std::string_view name) { return name != "C" && name != "POSIX"; }

std::string category_name(int category, locale_t loc) { return nl_langinfo_l(_NL_LOCALE_NAME(category), loc); }

// The C locale's month names in strcmp order, as GNU's static table.
std::vector<MonthName> c_months() {
  static const char* const kNames[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                       "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
  std::vector<MonthName> m;
  for (int i = 0; i < 12; ++i) m.push_back({kNames[i], i + 1});
  std::sort(m.begin(), m.end(), [](const MonthName& a, const MonthName& b) { return a.name < b.name; });
  return m;
}

}  // namespace

std::shared_ptr<const LineLocale> LineLocale::load(const std::string& name,
                                                   std::shared_ptr<const Collation> collation) {
  std::shared_ptr<LineLocale> l(new LineLocale);
  l->loc_ = newlocale(LC_ALL_MASK, name.c_str(), nullptr);
  if (!l->loc_) {
    // As setlocale(LC_ALL, "") failing leaves GNU sort in the C locale.
    l->failed_ = true;
    l->loc_ = newlocale(LC_ALL_MASK, "C", nullptr);
    if (!l->loc_) throw std::bad_alloc();
  }
  const std::string collate = category_name(LC_COLLATE, l->loc_);
  l->hard_collate_ = hard(collate);
  if (collation) {
    l->icu_ = collation != byte_order_collation() && !is_libc_locale_name(collation->name());
    l->bytes_ = collation == byte_order_collation();
    l->given_ = true;
    l->collation_name_ = collation->name();
    l->collation_ = std::move(collation);
  } else {
    l->collation_name_ = collate;
    // No rules (C.UTF-8): strcoll_l is strcmp, whose order, piece by piece
    // between NULs, is the bytes'.
    if (l->hard_collate_ && glibc_collation_rules(l->loc_) > 0)
      l->collation_ = std::make_shared<GlibcCollation>(l->loc_, collate);
  }
  l->read_ctype();
  l->read_numbers();
  l->read_months(hard(category_name(LC_TIME, l->loc_)));
  const LocaleNumbers c_numbers;
  bool c_tables = true;
  for (int i = 0; i < 256; ++i)
    c_tables = c_tables && l->nonprinting_[i] == kNonPrinting[i] && l->nondictionary_[i] == kNonDictionary[i] &&
               l->upper_[i] == to_upper(static_cast<unsigned char>(i));
  const auto c_month_names = c_months();
  const bool c_month_table = std::equal(l->months_.begin(), l->months_.end(), c_month_names.begin(), c_month_names.end(),
                                        [](const MonthName& a, const MonthName& b) {
                                          return a.name == b.name && a.month == b.month;
                                        });
  l->orders_as_c_ = !l->collation_ && c_tables && c_month_table &&
                    l->numbers_.decimal_point == c_numbers.decimal_point &&
                    l->numbers_.thousands_separator == c_numbers.thousands_separator;
  return l;
}

LineLocale::~LineLocale() {
  collation_.reset();  // a GlibcCollation uses loc_
  if (loc_) freelocale(loc_);
}

void LineLocale::read_ctype() {
  for (int i = 0; i < 256; ++i) {
    // GNU's field_sep: isblank or newline. In every glibc locale that is
    // space, tab and newline, the blanks field_finder.hpp knows.
    const bool separator = isblank_l(i, loc_) || i == '\n';
    nonprinting_[i] = !isprint_l(i, loc_);
    nondictionary_[i] = !isalnum_l(i, loc_) && !separator;
    upper_[i] = static_cast<unsigned char>(toupper_l(i, loc_));
  }
  utf8_ = std::strcmp(nl_langinfo_l(CODESET, loc_), "UTF-8") == 0;
  const locale_t previous = uselocale(loc_);
  multibyte_ = MB_CUR_MAX > 1;
  uselocale(previous);
}

void LineLocale::read_numbers() {
  // GNU takes localeconv()'s: a decimal point of one byte, else '.'; a
  // thousands separator of one byte (as a char, so a byte above 0x7f never
  // matches), else none, noting a longer one for --debug.
  const char* point = nl_langinfo_l(RADIXCHAR, loc_);
  numbers_.decimal_point = point[0] && !point[1] ? point[0] : '.';
  const char* sep = nl_langinfo_l(THOUSEP, loc_);
  numbers_.multibyte_separator_ignored = sep[0] && sep[1];
  numbers_.thousands_separator = sep[0] && !sep[1] ? static_cast<int>(static_cast<signed char>(sep[0]))
                                                   : kNoThousandsSeparator;
}

void LineLocale::read_months(bool hard_time) {
  if (!hard_time) {
    months_ = c_months();
    return;
  }
  for (int i = 0; i < 12; ++i) {
    std::string name;
    for (const char* s = nl_langinfo_l(ABMON_1 + i, loc_); *s; ++s) {
      const auto c = static_cast<unsigned char>(*s);
      if (!isblank_l(c, loc_)) name += static_cast<char>(upper_[c]);
    }
    months_.push_back({std::move(name), i + 1});
  }
  std::sort(months_.begin(), months_.end(), [](const MonthName& a, const MonthName& b) { return a.name < b.name; });
}

const ByteTable* LineLocale::ignore_table(const ByteTable* c_table) const noexcept {
  if (c_table == &kNonDictionary) return &nondictionary_;
  if (c_table == &kNonPrinting) return &nonprinting_;
  return c_table;
}

std::string LineLocale::quote(std::string_view text) const {
  // gnulib's quote(): the locale's quotation marks where its character set is UTF-8.
  const std::string_view open = utf8_ ? "\u2018" : "'", close = utf8_ ? "\u2019" : "'";
  std::string out;
  out.reserve(open.size() + text.size() + close.size());
  out.append(open).append(text).append(close);
  return out;
}

std::vector<std::string> LineLocale::debug_notes() const {
  std::vector<std::string> notes;
  if (failed_) notes.push_back("failed to set locale");
  if (bytes_)
    notes.push_back("text ordering performed using simple byte comparison");
  else if (icu_)
    notes.push_back("text ordering performed using ICU collation " + quote(collation_name_));
  else if (given_ || hard_collate_)
    notes.push_back("text ordering performed using " + quote(collation_name_) + " sorting rules");
  else
    notes.push_back("text ordering performed using simple byte comparison");
  return notes;
}

int month_in_locale(std::string_view key, const LineLocale& locale, std::size_t* end) noexcept {
  // GNU's getmonth: a binary search of the names in strcmp order, a name
  // matching when the key (upper-cased) starts with it; the key's end reads
  // as a NUL, as GNU's terminated copy does.
  std::size_t start = 0;
  while (start < key.size() && is_blank(static_cast<unsigned char>(key[start]))) ++start;
  const auto& months = locale.months();
  const auto& upper = locale.upper();
  std::size_t lo = 0, hi = months.size();
  do {
    const std::size_t ix = (lo + hi) / 2;
    const std::string& name = months[ix].name;
    for (std::size_t i = 0;; ++i) {
      if (i == name.size()) {
        if (end) *end = start + i;
        return months[ix].month;
      }
      const std::size_t at = start + i;
      const unsigned char m = at < key.size() ? upper[static_cast<unsigned char>(key[at])] : 0;
      const auto n = static_cast<unsigned char>(name[i]);
      if (m < n) {
        hi = ix;
        break;
      }
      if (m > n) {
        lo = ix + 1;
        break;
      }
    }
  } while (lo < hi);
  return 0;
}

}  // namespace corank::text
