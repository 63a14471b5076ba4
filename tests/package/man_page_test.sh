#!/usr/bin/env bash
# The generated man page has the options from --help (GNU-style headings, as
# for sort(1)) and the sections from
# packaging/corank.h2m.
#   tests/package/man_page_test.sh corank.1
set -euo pipefail
page=$1
status=0
for want in '^\.TH CORANK "1"' '^\.SH DESCRIPTION' '^\.SS "Other options:"' '\\-\\-format' '\\-\\-buffer\\-size' \
            '^\.SH "EXIT STATUS"' '^\.SH EXAMPLES' '^\.SH "SEE ALSO"' '^\.BR sort \(1\)'; do
  grep -qE -- "$want" "$page" || { echo "man_page_test: $page lacks /$want/" >&2; status=1; }
done
exit $status
