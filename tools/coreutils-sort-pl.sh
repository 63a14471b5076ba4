#!/usr/bin/env bash
# Runs coreutils' own table of sort tests (tests/sort/sort.pl, driven by
# tests/Coreutils.pm) against corank, from a coreutils checkout that is given
# (this script fetches nothing; use the tag of the GNU sort corank follows,
# v9.4). Prints sort.pl's findings, then a tally:
#   tools/coreutils-sort-pl.sh COREUTILS_DIR [CORANK_BINARY]
# e.g. git -C coreutils archive v9.4 tests | tar -x -C /tmp/coreutils-9.4
#      tools/coreutils-sort-pl.sh /tmp/coreutils-9.4 build/src/corank
# What stands in for the coreutils build:
# - `sort` on PATH runs corank. corank names itself in its messages, and
#   sort.pl compares stderr byte for byte with its program's name ("sort: ...",
#   "Try 'sort --help'"), so the stand-in turns corank's name into sort's at
#   those places and nowhere else; the exit status is corank's.
# - `getlimits` (a coreutils helper program) prints the limits sort.pl asks
#   for, those of an LP64 Linux system.
# - LOCALE_FR_UTF8 is passed on when set (coreutils' configure finds one);
#   unset, sort.pl runs its multibyte-locale tests (18g, 23) in the C locale.
set -uo pipefail
coreutils=$(realpath "${1:?usage: $0 COREUTILS_DIR [CORANK_BINARY]}")
corank=$(realpath "${2:-build/src/corank}")
for f in tests/sort/sort.pl tests/Coreutils.pm tests/CuSkip.pm tests/CuTmpdir.pm; do
  [[ -f $coreutils/$f ]] || { echo "$0: $coreutils/$f is missing" >&2; exit 2; }
done
[[ -x $corank ]] || { echo "$0: $corank is not a program" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
cat >"$work/bin/sort" <<EOF
#!/usr/bin/env bash
{ "$corank" "\$@" 2>&1 1>&3 3>&- | sed -e 's/^corank: /sort: /' -e "s/'corank --help'/'sort --help'/" >&2
  exit "\${PIPESTATUS[0]}"; } 3>&1
EOF
cat >"$work/bin/getlimits" <<'EOF'
#!/bin/sh
for t in SIZE UINTMAX ULONG; do echo "${t}_MAX=18446744073709551615"; echo "${t}_OFLOW=18446744073709551616"; done
for t in SSIZE INTMAX LONG OFF_T; do
  echo "${t}_MAX=9223372036854775807"; echo "${t}_OFLOW=9223372036854775808"
  echo "${t}_MIN=-9223372036854775808"; echo "${t}_UFLOW=-9223372036854775809"
done
EOF
chmod +x "$work/bin/sort" "$work/bin/getlimits"

# sort.pl makes its files in a directory of its own under the current one.
(cd "$work" && env PATH="$work/bin:$PATH" srcdir="$coreutils" built_programs=sort VERBOSE=1 \
  perl -w -I"$coreutils/tests" -MCuSkip -MCoreutils -M"CuTmpdir qw(sort.pl)" "$coreutils/tests/sort/sort.pl") \
  >"$work/log" 2>&1
status=$?
grep -v -E '^[^ ]+\.\.\.$' "$work/log"
# VERBOSE=1 names each test as it runs ("NAME..."); a failure is told as
# "sort: test NAME: ..." or "sort: test NAME failed: ...".
ran=$(grep -cE '^[^ ]+\.\.\.$' "$work/log")
failed=$(grep -oE '^sort: test [^ :]+' "$work/log" | sort -u | wc -l)
skipped=0
if ((status == 77)); then
  skipped=1  # sort.pl as a whole
fi
echo "sort.pl (exit $status): $((ran - failed)) passed, $failed failed, $skipped skipped"
((status == 0))
