#include "corank/text/icu_library.hpp"

#include <dlfcn.h>
#include <unicode/uversion.h>

#include <cstdint>
#include <string>

#include "corank/errors.hpp"

namespace corank::text {

namespace {

// ICU's symbols carry its major version (ucol_open is ucol_open_72): the
// headers' renaming macros give the names to look up.
#define CORANK_ICU_NAME2(f) #f
#define CORANK_ICU_NAME(f) CORANK_ICU_NAME2(f)

#if U_ICU_VERSION_MAJOR_NUM < 71
UCollator* (*safe_clone)(const UCollator*, void*, std::int32_t*, UErrorCode*);
UCollator* clone_safely(const UCollator* c, UErrorCode* status) { return safe_clone(c, nullptr, nullptr, status); }
#endif

template <class F>
bool find(void* handle, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(handle, name));
  return f != nullptr;
}

const IcuLibrary* load(std::string& why) {
  const std::string soname = std::string("libicui18n.so.") + U_ICU_VERSION_SHORT;
  void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    why = "cannot load " + soname + " (Debian: libicu" + U_ICU_VERSION_SHORT + ")";
    return nullptr;
  }
  static IcuLibrary lib;
  bool ok = find(handle, CORANK_ICU_NAME(ucol_open), lib.open) && find(handle, CORANK_ICU_NAME(ucol_close), lib.close) &&
            find(handle, CORANK_ICU_NAME(ucol_strcollUTF8), lib.strcoll_utf8) &&
            find(handle, CORANK_ICU_NAME(ucol_nextSortKeyPart), lib.next_sort_key_part) &&
            find(handle, CORANK_ICU_NAME(uiter_setUTF8), lib.iterate_utf8) &&
            find(handle, CORANK_ICU_NAME(uloc_forLanguageTag), lib.for_language_tag) &&
            find(handle, CORANK_ICU_NAME(uloc_getLanguage), lib.language) &&
            find(handle, CORANK_ICU_NAME(uloc_countAvailable), lib.count_available) &&
            find(handle, CORANK_ICU_NAME(uloc_getAvailable), lib.available) &&
            find(handle, CORANK_ICU_NAME(u_errorName), lib.error_name);
#if U_ICU_VERSION_MAJOR_NUM >= 71
  ok = ok && find(handle, CORANK_ICU_NAME(ucol_clone), lib.clone);
#else
  ok = ok && find(handle, CORANK_ICU_NAME(ucol_safeClone), safe_clone);
  lib.clone = clone_safely;
#endif
  if (!ok) {
    why = std::string("cannot use ") + soname + ": " + dlerror();
    return nullptr;
  }
  return &lib;  // the library stays loaded: collators may live until exit
}

}  // namespace

const IcuLibrary& icu_library() {
  static std::string why;
  static const IcuLibrary* lib = load(why);
  if (!lib) throw UsageError("collations need ICU: " + why);
  return *lib;
}

}  // namespace corank::text
