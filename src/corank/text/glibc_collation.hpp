#pragma once
// A glibc locale's LC_COLLATE as GNU sort uses it: strcoll_l piece by piece
// between NUL bytes (gnulib's memcoll0, so texts it calls equal stay equal:
// GNU settles no ties by the bytes), and as prefixes the level-one weights of
// strxfrm_l, which order texts as strcoll_l does and ignore what only later
// levels (accents, case) decide.
#include <locale.h>

#include <cstdint>
#include <optional>
#include <string>

#include "corank/text/collation.hpp"
#include "corank/text/glibc_level_one.hpp"

namespace corank::text {

// The number of collation rules of `loc`'s LC_COLLATE: 0 where strcoll_l is
// strcmp (C, POSIX, C.UTF-8).
std::uint32_t glibc_collation_rules(locale_t loc) noexcept;

class GlibcCollation final : public Collation {
public:
  // `loc` must have collation rules (nrules > 0) and outlive this object;
  // `name` is its LC_COLLATE's.
  GlibcCollation(locale_t loc, std::string name);

  int compare(std::string_view a, std::string_view b) const override;
  // Level one of the text up to its first NUL: what follows a NUL only
  // matters where the pieces before it are equal at every level.
  void prefix(std::string_view text, unsigned char* out, std::size_t n) const override;
  // strxfrm_l of each piece, each followed by a NUL.
  void sort_key(std::string_view text, std::string& out) const override;
  const std::string& name() const override { return name_; }

  // Whether prefixes come from the locale's tables (else from strxfrm_l).
  bool reads_tables() const noexcept { return level_one_.has_value(); }

private:
  locale_t loc_;
  std::string name_;
  std::optional<GlibcLevelOne> level_one_;
};

}  // namespace corank::text
