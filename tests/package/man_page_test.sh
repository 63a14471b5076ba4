#!/usr/bin/env bash
# A generated man page (corank.1, corank-mpi.1) has the options from the
# program's --help (GNU-style headings, as for sort(1)), corank's among them,
# and the sections from its packaging/*.h2m; rendered on an 80-column
# terminal, its EXAMPLES show each of --help's examples as a command of its
# own (help2man alone would fill them into one paragraph), none wider than
# the terminal. Further extended regular expressions the page must match may
# follow.
#   tests/package/man_page_test.sh corank.1 /path/to/corank ['^\.BR sort \(1\)' ...]
set -euo pipefail
page=$1 corank=$2
shift 2
title=$(basename "$corank" | tr '[:lower:]' '[:upper:]')
status=0
for want in "^\\.TH $title \"1\"" '^\.SH DESCRIPTION' '^\.SS "Other options:"' '\\-\\-format' \
            '\\-\\-buffer\\-size' '^\.SH "EXIT STATUS"' '^\.SH EXAMPLES' '^\.SH "SEE ALSO"' "$@"; do
  grep -qE -- "$want" "$page" || { echo "man_page_test: $page lacks /$want/" >&2; status=1; }
done

# The EXAMPLES section as man shows it (nroff where man is missing), a command
# continued with " \" joined to its next line.
if command -v man >/dev/null; then
  rendered=$(LC_ALL=C MANWIDTH=80 man -l "$page" 2>/dev/null)
else
  rendered=$(LC_ALL=C nroff -man -rLL=80n "$page" 2>/dev/null)
fi
examples=$(sed -n '/^EXAMPLES/,/^[A-Z]/p' <<<"$rendered")
[[ -n $examples ]] || { echo "man_page_test: no EXAMPLES rendered" >&2; exit 1; }
while IFS= read -r line; do
  if ((${#line} > 80)); then echo "man_page_test: wider than 80 columns: '$line'" >&2; status=1; fi
done <<<"$examples"
commands=$(sed -e ':a' -e '/\\$/{N;s/ *\\\n */ /;ba' -e '}' -e 's/^ *//' <<<"$examples")
while IFS= read -r example; do
  [[ -z $example ]] && continue
  grep -qxF -- "$example" <<<"$commands" ||
    { echo "man_page_test: EXAMPLES lacks --help's '$example' on a line of its own" >&2; status=1; }
done < <("$corank" --help | sed -n '/^Examples:/,$p' | sed -e '1d' -e 's/^ *//')
exit $status
