#pragma once
// ICU's collation functions, loaded on first use (dlopen of the libicui18n
// that corank was built against, its libicuuc with it): linked in, ICU's two
// libraries would be mapped and relocated in every run, about 1.6 MB of
// resident memory and a millisecond of start-up, for the sorts that name no
// collation too.
#include <unicode/ucol.h>
#include <unicode/uiter.h>
#include <unicode/uloc.h>
#include <unicode/utypes.h>

namespace corank::text {

struct IcuLibrary {
  decltype(&::ucol_open) open;
  decltype(&::ucol_close) close;
  UCollator* (*clone)(const UCollator*, UErrorCode*);  // ucol_clone (ucol_safeClone before ICU 71)
  decltype(&::ucol_strcollUTF8) strcoll_utf8;
  decltype(&::ucol_nextSortKeyPart) next_sort_key_part;
  decltype(&::uiter_setUTF8) iterate_utf8;
  decltype(&::uloc_forLanguageTag) for_language_tag;
  decltype(&::uloc_getLanguage) language;
  decltype(&::uloc_countAvailable) count_available;
  decltype(&::uloc_getAvailable) available;
  decltype(&::u_errorName) error_name;
};

// The library, loaded once. Throws UsageError where it cannot be loaded.
const IcuLibrary& icu_library();

}  // namespace corank::text
