#pragma once
// Collations by name, for --collation and a key's :collate=NAME: PostgreSQL's
// libc collations ("en_US.utf8", CREATE COLLATION ... (provider = libc)) as
// well as ICU's (icu_collation.hpp). A libc collation is a glibc locale's
// LC_COLLATE (glibc_collation.hpp) whose ties, texts it holds equal, are
// ordered by their bytes, as PostgreSQL's deterministic collations order them
// (varstr_cmp: strcmp after strcoll returned 0).
#include <memory>
#include <string>
#include <string_view>

#include "corank/text/collation.hpp"

namespace corank::text {

// A glibc locale's name: a codeset after a dot ("en_US.utf8", "de_DE.UTF-8",
// "sv_SE.UTF-8@euro"), as `locale -a` and PostgreSQL's libc collations name
// them; "C.UTF-8", "C.utf8" and "POSIX" too.
bool is_libc_locale_name(std::string_view name) noexcept;

// The collation that NAME opens: none (byte order: "C", "POSIX", "C.UTF-8",
// any locale without collation rules), a glibc locale's, or an ICU
// collation's (a BCP 47 tag, an ICU locale ID, PostgreSQL's "und-x-icu").
// Throws UsageError naming NAME where there is no such collation.
std::shared_ptr<const Collation> collation_named(const std::string& name);

// Byte order as a collation object, where none would mean another order
// (lines' --collation C under LC_ALL=en_US.UTF-8: not the locale's).
std::shared_ptr<const Collation> byte_order_collation();

}  // namespace corank::text
