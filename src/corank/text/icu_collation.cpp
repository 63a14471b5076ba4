#include "corank/text/icu_collation.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include "corank/errors.hpp"
#include "corank/text/icu_library.hpp"

namespace corank::text {

namespace {

struct CloseCollator {
  void operator()(UCollator* c) const noexcept { icu_library().close(c); }
};
using CollatorPtr = std::unique_ptr<UCollator, CloseCollator>;

[[noreturn]] void unknown(const std::string& name, const std::string& why) {
  throw UsageError("unknown collation '" + name + "': " + why);
}

// ICU reads lengths as int32_t; a text longer than that is ordered by its
// first 2 GiB, then (as equal texts are) by its bytes.
std::int32_t icu_length(std::string_view s) noexcept {
  return static_cast<std::int32_t>(std::min<std::size_t>(s.size(), INT32_MAX));
}

int bytes_compare(std::string_view a, std::string_view b) noexcept {
  const int c = a.compare(b);
  return (c > 0) - (c < 0);
}

// The languages ICU has locale data for.
const std::set<std::string>& known_languages() {
  static const std::set<std::string> languages = [] {
    const IcuLibrary& lib = icu_library();
    std::set<std::string> out;
    for (std::int32_t i = 0, n = lib.count_available(); i < n; ++i) {
      char lang[ULOC_LANG_CAPACITY];
      UErrorCode status = U_ZERO_ERROR;
      lib.language(lib.available(i), lang, sizeof lang, &status);
      if (U_SUCCESS(status)) out.insert(lang);
    }
    return out;
  }();
  return languages;
}

// The ICU locale ID for `name`, checked.
std::string locale_id(const std::string& name) {
  std::string tag = name;
  if (tag.size() > 6 && tag.ends_with("-x-icu")) tag.resize(tag.size() - 6);  // PostgreSQL's collation names
  std::string id = tag;
  if (tag.find_first_of("@_") == std::string::npos) {  // a language tag, not already an ICU ID
    char buf[ULOC_FULLNAME_CAPACITY];
    std::int32_t parsed = 0;
    UErrorCode status = U_ZERO_ERROR;
    const std::int32_t n = icu_library().for_language_tag(tag.c_str(), buf, sizeof buf, &parsed, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING || parsed != static_cast<std::int32_t>(tag.size()))
      unknown(name, "not a BCP 47 language tag");
    id.assign(buf, static_cast<std::size_t>(n));
  }
  char lang[ULOC_LANG_CAPACITY];
  UErrorCode status = U_ZERO_ERROR;
  icu_library().language(id.c_str(), lang, sizeof lang, &status);
  const std::string language = U_SUCCESS(status) ? lang : "?";
  if (!language.empty() && language != "root" && language != "und" && !known_languages().count(language))
    unknown(name, "ICU has no data for language '" + language + "'");
  return id;
}

class IcuCollation final : public Collation {
public:
  IcuCollation(const std::string& name, CollatorPtr collator) : name_(name), base_(collator.release(), CloseCollator{}) {}

  int compare(std::string_view a, std::string_view b) const override {
    UErrorCode status = U_ZERO_ERROR;
    const UCollationResult r =
        icu_library().strcoll_utf8(for_this_thread(), a.data(), icu_length(a), b.data(), icu_length(b), &status);
    if (U_SUCCESS(status) && r != UCOL_EQUAL) return r == UCOL_LESS ? -1 : 1;
    return bytes_compare(a, b);
  }

  void prefix(std::string_view text, unsigned char* out, std::size_t n) const override {
    UCharIterator it;
    icu_library().iterate_utf8(&it, text.data(), icu_length(text));
    std::uint32_t state[2] = {0, 0};
    UErrorCode status = U_ZERO_ERROR;
    const std::int32_t got =
        icu_library().next_sort_key_part(for_this_thread(), &it, state, out, static_cast<std::int32_t>(n), &status);
    const std::size_t k = U_SUCCESS(status) ? static_cast<std::size_t>(got) : 0;
    std::memset(out + k, 0, n - k);  // a key's end, as its terminating 0 would be
  }

  const std::string& name() const override { return name_; }

  void sort_key(std::string_view text, std::string& out) const override {
    out.clear();
    UCharIterator it;
    icu_library().iterate_utf8(&it, text.data(), icu_length(text));
    std::uint32_t state[2] = {0, 0};
    unsigned char part[256];
    for (;;) {
      UErrorCode status = U_ZERO_ERROR;
      const std::int32_t got = icu_library().next_sort_key_part(for_this_thread(), &it, state, part, sizeof part, &status);
      if (U_FAILURE(status) || got <= 0) break;
      out.append(reinterpret_cast<const char*>(part), static_cast<std::size_t>(got));
      if (got < static_cast<std::int32_t>(sizeof part)) break;
    }
  }

private:
  // This thread's clone of the collator, made on first use. The clones of
  // collations that are gone (their base expired) are closed as others are made.
  const UCollator* for_this_thread() const {
    struct Clone {
      std::weak_ptr<UCollator> base;
      CollatorPtr collator;
    };
    thread_local std::vector<Clone> clones;
    for (const Clone& c : clones)
      if (!c.base.owner_before(base_) && !base_.owner_before(c.base)) return c.collator.get();
    std::erase_if(clones, [](const Clone& c) { return c.base.expired(); });
    UErrorCode status = U_ZERO_ERROR;
    CollatorPtr clone(icu_library().clone(base_.get(), &status));
    if (U_FAILURE(status) || !clone) throw std::runtime_error("cannot clone ICU collator '" + name_ + "'");
    clones.push_back({base_, std::move(clone)});
    return clones.back().collator.get();
  }

  std::string name_;
  std::shared_ptr<UCollator> base_;
};

}  // namespace

std::shared_ptr<const Collation> icu_collation(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Collation>> opened;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = opened.find(name); it != opened.end()) return it->second;
  const std::string id = locale_id(name);
  UErrorCode status = U_ZERO_ERROR;
  CollatorPtr collator(icu_library().open(id.c_str(), &status));
  if (U_FAILURE(status) || !collator) unknown(name, icu_library().error_name(status));
  auto c = std::make_shared<IcuCollation>(name, std::move(collator));
  opened.emplace(name, c);
  return c;
}

}  // namespace corank::text
