#pragma once
// What a locale changes in GNU sort's ordering of lines (coreutils 9.1's
// sort.c, without distributions' i18n patches), read once per sort into a
// locale_t that every thread may use:
//   LC_COLLATE  text keys and the last-resort comparison by strcoll
//               (GlibcCollation), unless the locale is C or POSIX or has no
//               collation rules (C.UTF-8 orders by code point: bytes);
//   LC_CTYPE    the bytes -d, -i ignore and -f folds (isalnum, isprint,
//               toupper of each byte; blanks are space, tab and newline in
//               every glibc locale), and --debug's quotes and column widths;
//   LC_NUMERIC  -n and -h's decimal point and thousands separator (one byte
//               each, else '.' and none, as GNU), -g's strtold;
//   LC_TIME     -M's month names (abbreviated, upper-cased, blanks dropped).
// An ICU collation (--collation) may replace LC_COLLATE's order.
#include <locale.h>

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/char_classes.hpp"
#include "corank/text/collation.hpp"

namespace corank::text {

// GNU's NON_CHAR (CHAR_MAX + 1): the thousands separator of a locale without
// one. GNU compares it with each byte as an unsigned char, so a byte 0x80
// after a digit is skipped as a separator; corank does the same in a locale.
inline constexpr int kNoThousandsSeparator = 128;

struct LocaleNumbers {
  char decimal_point = '.';
  int thousands_separator = kNoThousandsSeparator;
  bool multibyte_separator_ignored = false;  // the locale's is longer than a byte
};

struct MonthName {
  std::string name;  // upper-cased by the locale's toupper, byte by byte, blanks dropped
  int month;         // 1..12
};

class LineLocale {
public:
  // `name` "" takes each category from LC_ALL, LC_<CATEGORY> or LANG as
  // setlocale(LC_ALL, "") does; any other name is every category's. Where
  // the locale cannot be loaded (not installed), the C locale is used and
  // failed() says so, as GNU sort does. `collation`, when given, orders text
  // instead of LC_COLLATE.
  static std::shared_ptr<const LineLocale> load(const std::string& name, std::shared_ptr<const Collation> collation);
  ~LineLocale();
  LineLocale(const LineLocale&) = delete;
  LineLocale& operator=(const LineLocale&) = delete;

  locale_t handle() const noexcept { return loc_; }
  bool failed() const noexcept { return failed_; }
  // The order of text keys and of whole lines; null: their bytes.
  const Collation* collation() const noexcept { return collation_.get(); }
  bool icu() const noexcept { return icu_; }
  const std::string& collation_name() const noexcept { return collation_name_; }
  // GNU's hard_LC_COLLATE: LC_COLLATE is neither C nor POSIX (--debug names it).
  bool hard_collate() const noexcept { return hard_collate_; }
  const LocaleNumbers& numbers() const noexcept { return numbers_; }
  // -M's names in GNU's search order (strcmp order).
  const std::vector<MonthName>& months() const noexcept { return months_; }
  // The locale's table for one of char_classes.hpp's (-d's, -i's).
  const ByteTable* ignore_table(const ByteTable* c_table) const noexcept;
  const std::array<unsigned char, 256>& upper() const noexcept { return upper_; }
  // LC_CTYPE's character set is UTF-8: --debug quotes with ‘ ’ (else ' ').
  bool utf8() const noexcept { return utf8_; }
  // LC_CTYPE has characters of several bytes: --debug counts columns by character.
  bool multibyte() const noexcept { return multibyte_; }
  // Every order the locale decides is the C locale's: lines may take the C path.
  bool orders_as_c() const noexcept { return orders_as_c_; }

  // `text` quoted as GNU's quote() does in this locale.
  std::string quote(std::string_view text) const;
  // --debug's first lines: "failed to set locale" where it failed, then how text is ordered.
  std::vector<std::string> debug_notes() const;

private:
  LineLocale() = default;
  void read_ctype();
  void read_numbers();
  void read_months(bool hard_time);

  locale_t loc_ = nullptr;
  bool failed_ = false;
  std::shared_ptr<const Collation> collation_;
  bool icu_ = false;
  bool given_ = false;  // --collation named the collation (ICU's or a libc locale's)
  bool bytes_ = false;  // --collation named byte order ("C", "C.UTF-8")
  std::string collation_name_;
  bool hard_collate_ = false;
  LocaleNumbers numbers_;
  std::vector<MonthName> months_;
  ByteTable nonprinting_{}, nondictionary_{};
  std::array<unsigned char, 256> upper_{};
  bool utf8_ = false, multibyte_ = false, orders_as_c_ = false;
};

// -M's month of a key (after its blanks) by `months`, 0 for none; *end, when
// given, receives where the name ends (for --debug).
int month_in_locale(std::string_view key, const LineLocale& locale, std::size_t* end = nullptr) noexcept;

}  // namespace corank::text
