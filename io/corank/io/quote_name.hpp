#pragma once
// A file name as GNU's tools write it in their messages (gnulib's quotef:
// the shell-escape quoting style, with ':' quoted too), so that corank's
// "cannot read: 'a b': No such file or directory" reads as GNU sort's:
// - a name a shell reads back unchanged stays as it is (`in.txt`, `a#`);
// - a name with a single quote and otherwise only such characters goes in
//   double quotes (`"it's"`);
// - any other goes in single quotes, a single quote in it as '\'', and the
//   bytes that are not printable characters of the locale's LC_CTYPE (a
//   tab, a byte that is not UTF-8) as $'...' escapes: 'a'$'\t''b', and
//   the empty name as ''.
// Written here rather than taken from gnulib, which Debian does not ship as
// a library. Names that mix single quotes with unprintable bytes, which
// gnulib quotes with an extra leading '', are quoted without it.
#include <string>
#include <string_view>

namespace corank::io {

// Leaves errno as it found it.
std::string quote_name(std::string_view name);

// The same, but always quoted (gnulib's quoteaf, which GNU sort gives the
// directory of "cannot create temporary file in '/tmp'"): a name that
// quote_name leaves as it is goes in single quotes.
std::string quote_name_always(std::string_view name);

}  // namespace corank::io
