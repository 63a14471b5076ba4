#pragma once
// GNU sort's comparison of keys and lines under a locale, and their prefixes:
// keycompare's branch for a hard LC_COLLATE (the key copied with -d/-i's bytes
// dropped and -f's folded by the locale's tables, then an empty key first and
// strcoll for the rest), -n -h -g -M with the locale's numbers and month
// names, and compare()'s last resort by the collation. A text key's prefix is
// the first bytes of its collation sort key (collation.hpp); other keys' are
// their values' codes, as in the C locale (line_comparator.hpp).
//
// The same text rules serve the CSV/TSV and JSON lines keys that name an ICU
// collation, with the C locale's character tables.
#include <string_view>

#include "corank/text/collation.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/line_comparator.hpp"
#include "corank/text/line_locale.hpp"

namespace corank::text {

// -1, 0, 1; -r included.
int compare_key_in_locale(const KeyField& key, std::string_view a, std::string_view b, const LineLocale& locale);
Prefix key_prefix_in_locale(const KeyField& key, std::string_view key_bytes, const LineLocale& locale);

// The last-resort comparison of two whole lines (the global -r not applied),
// and the prefix of a line that has no keys.
int compare_lines_in_locale(std::string_view a, std::string_view b, const LineLocale& locale);
Prefix line_prefix_in_locale(std::string_view line, const LineLocale& locale, bool reverse);
// The first n bytes of that prefix (its collation's digest of the line, which
// keeps compare_lines_in_locale's order at any length) into p, inverted under
// `reverse`: what follows a time key's code in the prefix of a line sorted by
// the key and then by the last resort.
void line_digest_in_locale(std::string_view line, const LineLocale& locale, bool reverse, unsigned char* p,
                           std::size_t n);

// Whether a collation orders `key`: a text key, not a number, month, version,
// time or random one.
bool takes_collation(const KeyField& key) noexcept;
// A text key under `collation`, -d -i -f by the C locale's tables; -r included.
int compare_collated_key(const KeyField& key, std::string_view a, std::string_view b, const Collation& collation);
Prefix collated_key_prefix(const KeyField& key, std::string_view key_bytes, const Collation& collation);

}  // namespace corank::text
