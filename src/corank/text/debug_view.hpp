#pragma once
// GNU sort's --debug for lines, in the C locale or the ordering's locale
// (line_locale.hpp: its notes, decimal point, quotes, month names and column
// widths): the warnings it prints about
// the key definitions before sorting, and how it shows each output line: the
// line with tabs as '>' and a newline for its terminator, then one line per key
// that underlines the bytes the key compares ("^ no match for key" where there
// are none), and one for the whole line where the last-resort comparison applies.
// CSV/TSV rows and JSON lines are shown the same way, each key marked where
// its value lies in the record (csv_format.hpp, jsonl_format.hpp).
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "corank/text/collation.hpp"
#include "corank/text/key_spec.hpp"

namespace corank::text {

// The warnings, each without the program name and newline, first of all how
// text is ordered ("text ordering performed using simple byte comparison").
// `global` holds the global ordering options; `global_only` says no -k was given.
std::vector<std::string> debug_warnings(const LineOrdering& ordering, const KeyField& global, bool global_only);

// Appends `line` (without its terminator) as --debug shows it.
void append_debug_view(const LineOrdering& ordering, std::string_view line, std::string& out);

// Where a key's value lies in a record: bytes [begin, end). A key without a
// value (a missing field, a NULL) has found false, and begin is where its
// "^ no match for key" goes.
struct KeyExtent {
  std::size_t begin = 0, end = 0;
  bool found = true;
};

// Appends `record` (without its terminator) as --debug shows it, tabs as '>',
// then one line per key: underscores under its bytes, or "^ no match for key"
// where it has none. Columns are counted as for lines.
void append_record_view(std::string_view record, std::span<const KeyExtent> keys, std::string& out);

// The warnings for the keys of CSV/TSV and JSON lines: those of lines that
// apply to whole values (how text is ordered: by bytes, or by --collation's
// `collation`, and the keys with collations of their own, `key_collations`
// in the order of `keys`; the decimal point of numeric keys). `keys` empty:
// records compare as text under the global options `global`.
std::vector<std::string> value_key_warnings(std::span<const KeyField> keys, const KeyField& global,
                                            const Collation* collation = nullptr,
                                            std::span<const Collation* const> key_collations = {});

}  // namespace corank::text
