#pragma once
// ICU collations by name, as PostgreSQL's ICU collations and DuckDB's ICU
// extension name them: a BCP 47 language tag ("und", "en", "de-u-co-phonebk",
// "sv", "und-u-ks-level2") or an ICU locale ID ("de@collation=phonebook");
// PostgreSQL's "und-x-icu" is accepted for "und". Texts are read as UTF-8 (an
// ill-formed sequence is U+FFFD to ICU); prefixes are the first bytes of ICU's
// sort keys (ucol_nextSortKeyPart); texts ICU holds equal are ordered by their
// bytes, as PostgreSQL orders them under a deterministic collation.
//
// An ICU collator is not safe for concurrent use, so each thread compares
// with its own clone of the opened collator (ucol_clone), made the first time
// it needs one and closed when the thread ends or the collation is gone.
#include <memory>
#include <string>

#include "corank/text/collation.hpp"

namespace corank::text {

// The collation `name`; one object per name and process. Throws UsageError
// ("unknown collation 'NAME'") for a name ICU cannot read or a language it
// has no data for.
std::shared_ptr<const Collation> icu_collation(const std::string& name);

}  // namespace corank::text
