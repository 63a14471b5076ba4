#include "corank/text/libc_collation.hpp"

#include <locale.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

#include "corank/errors.hpp"
#include "corank/text/glibc_collation.hpp"
#include "corank/text/icu_collation.hpp"

namespace corank::text {

namespace {

// A locale opened for its LC_COLLATE, freed with the collation that uses it.
class LibcCollation final : public Collation {
public:
  LibcCollation(locale_t loc, const std::string& name) : loc_(loc), glibc_(loc, name) {}
  ~LibcCollation() override { freelocale(loc_); }
  LibcCollation(const LibcCollation&) = delete;
  LibcCollation& operator=(const LibcCollation&) = delete;

  int compare(std::string_view a, std::string_view b) const override {
    if (const int c = glibc_.compare(a, b)) return c;
    const int c = a.compare(b);
    return (c > 0) - (c < 0);
  }
  // Texts strcoll holds equal have equal level-one weights: the prefix stays
  // order-preserving with the bytes breaking ties.
  void prefix(std::string_view text, unsigned char* out, std::size_t n) const override {
    glibc_.prefix(text, out, n);
  }
  // Equal only for equal texts, as compare() says.
  void sort_key(std::string_view text, std::string& out) const override {
    glibc_.sort_key(text, out);
    out.append(text);
  }
  const std::string& name() const override { return glibc_.name(); }

private:
  locale_t loc_;
  GlibcCollation glibc_;  // destroyed before loc_ is freed
};

// memcmp order: prefixes are the first bytes, zeros after the text's end.
class ByteOrder final : public Collation {
public:
  int compare(std::string_view a, std::string_view b) const override {
    const int c = a.compare(b);
    return (c > 0) - (c < 0);
  }
  void prefix(std::string_view text, unsigned char* out, std::size_t n) const override {
    const std::size_t k = std::min(n, text.size());
    std::memcpy(out, text.data(), k);
    std::memset(out + k, 0, n - k);
  }
  void sort_key(std::string_view text, std::string& out) const override { out.assign(text); }
  const std::string& name() const override { return name_; }

private:
  std::string name_ = "C";
};


std::shared_ptr<const Collation> open_libc(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Collation>> opened;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = opened.find(name); it != opened.end()) return it->second;
  locale_t loc = newlocale(LC_COLLATE_MASK, name.c_str(), nullptr);
  if (!loc)
    throw UsageError("unknown collation '" + name + "': no such locale on this system (`locale -a` lists them)");
  std::shared_ptr<const Collation> c;
  if (glibc_collation_rules(loc) == 0)
    freelocale(loc);  // no rules (C.UTF-8): strcoll is strcmp, the bytes' order
  else
    c = std::make_shared<LibcCollation>(loc, name);
  opened.emplace(name, c);
  return c;
}

}  // namespace

bool is_libc_locale_name(std::string_view name) noexcept {
  if (name == "POSIX") return true;
  const std::size_t dot = name.find('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < name.size();
}

std::shared_ptr<const Collation> byte_order_collation() {
  static const auto bytes = std::make_shared<const ByteOrder>();
  return bytes;
}

std::shared_ptr<const Collation> collation_named(const std::string& name) {
  if (name == "C" || name == "POSIX") return nullptr;
  if (is_libc_locale_name(name)) return open_libc(name);
  return icu_collation(name);
}

}  // namespace corank::text
