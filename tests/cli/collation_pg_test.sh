#!/usr/bin/env bash
# corank's ICU collations against PostgreSQL's own: 20,000 CSV rows of text
# keys (mixed case, accents, punctuation, digits, Swedish and German letters,
# quoted commas, NULLs) sorted by corank --collation and by ORDER BY ...
# COLLATE "und-x-icu" (and "sv-x-icu", a de-u-co-phonebk collation, DESC) in
# a PostgreSQL server of the test's own; the row orders must be equal, and so
# must the lines that corank --collation und sorts and PostgreSQL's order of
# the same texts. The same for PostgreSQL's libc collations (en_US.utf8,
# sv_SE.utf8), where the system has those locales.
#   tests/cli/collation_pg_test.sh /path/to/corank [ROWS=20000]
# Exits 77 (skipped) without PostgreSQL's server programs (Debian: postgresql;
# PG_BINDIR names their directory elsewhere) or ICU collations in it.
set -euo pipefail
corank=$(realpath "$1")
rows=${2:-20000}

source "$(dirname "$0")/../pg_server.sh" collation_pg_test 54331

if [ "$(sql -c "SELECT count(*) FROM pg_collation WHERE collname IN ('und-x-icu', 'sv-x-icu')")" != 2 ]; then
  echo "collation_pg_test: skipped: this PostgreSQL has no ICU collations"
  exit 77
fi
echo "PostgreSQL $(sql -c 'SHOW server_version'), ICU collation version $(sql -c "SELECT collversion FROM pg_collation WHERE collname = 'und-x-icu'")"

# Names from pieces that collations order unlike bytes; some fields quoted
# (a comma or a quote inside), some NULL (empty and unquoted).
awk -v rows="$rows" -v seed=11 'BEGIN {
  srand(seed)
  n = split("a A b B e E z Z \303\251 \303\211 \303\266 \303\226 \303\245 \303\205 \303\244 \303\204 \303\274 \303\237 ss SS ch aa ae oe - . , '"'"' _ 1 2 9 0 \342\202\254 \303\261 \305\223 \357\254\201 \344\270\255 \360\237\230\200 o u i y", piece, " ")
  m = split("Berlin M\303\274nchen Muenchen \303\226rebro Orebro \303\205re Are Malm\303\266 G\303\266teborg K\303\266ln Koeln \303\204lmhult Almhult", city, " ")
  print "id,name,city"
  for (i = 1; i <= rows; i++) {
    if (rand() < 0.02) { name = "" }
    else {
      name = ""
      len = 1 + int(rand() * 9)
      for (k = 0; k < len; k++) name = name piece[1 + int(rand() * n)]
      if (rand() < 0.1) name = name " " piece[1 + int(rand() * n)]
    }
    if (index(name, ",") || index(name, "\"") || index(name, "'"'"'")) {
      gsub(/"/, "\"\"", name)
      name = "\"" name "\""
    }
    print i "," name "," city[1 + int(rand() * m)]
  }
}' >"$work/rows.csv"

sql -q -c 'CREATE TABLE t (id int, name text, city text)'
sql -q -c "CREATE COLLATION phonebook (provider = icu, locale = 'de-u-co-phonebk')"
sql -q -c 'COPY t FROM STDIN WITH (FORMAT csv, HEADER true)' <"$work/rows.csv"

failures=0
# same WHAT CORANK_ARGS SQL_ORDER: corank's order of the rows (their ids) is PostgreSQL's.
same() {
  local what=$1 args=$2 order=$3
  # shellcheck disable=SC2086
  "$corank" --format csv --header $args "$work/rows.csv" | tail -n +2 | cut -d, -f1 >"$work/got"
  sql -c "SELECT id FROM t ORDER BY $order" >"$work/want"
  if cmp -s "$work/got" "$work/want"; then
    echo "ok: $what"
  else
    echo "FAIL: $what: corank $args differs from ORDER BY $order at row $(cmp "$work/got" "$work/want" | awk '{print $NF}')"
    failures=$((failures + 1))
  fi
}

same "und-x-icu" "--collation und --key name --key id:n" 'name COLLATE "und-x-icu" NULLS LAST, id'
same "PostgreSQL's name for it" "--collation und-x-icu --key name --key id:n" 'name COLLATE "und-x-icu" NULLS LAST, id'
same "descending" "--collation und --key name:desc --key id:n" 'name COLLATE "und-x-icu" DESC NULLS LAST, id'
same "a collation per key" "--key city:collate=de-u-co-phonebk --key name:text:collate=sv --key id:n" \
  'city COLLATE phonebook, name COLLATE "sv-x-icu" NULLS LAST, id'
same "bytes for one key beside --collation" "--collation sv --key city:collate=C --key name --key id:n" \
  'city COLLATE "C", name COLLATE "sv-x-icu" NULLS LAST, id'

# PostgreSQL's libc collations, where initdb found the locale: glibc's order,
# texts it holds equal by their bytes.
for libc in en_US.utf8 sv_SE.utf8; do
  if [ "$(sql -c "SELECT count(*) FROM pg_collation WHERE collname = '$libc' AND collprovider = 'c'")" = 1 ]; then
    same "libc $libc" "--key name:collate=$libc --key id:n" "name COLLATE \"$libc\" NULLS LAST, id"
    same "libc $libc, --collation, descending" "--collation $libc --key city:desc --key name --key id:n" \
      "city COLLATE \"$libc\" DESC, name COLLATE \"$libc\" NULLS LAST, id"
  else
    echo "skipped: libc $libc (no such collation in this PostgreSQL)"
  fi
done

# Lines: the texts themselves, one a line (those without quotes), equal ones by their bytes.
sql -c "SELECT name FROM t WHERE name IS NOT NULL AND strpos(name, '\"') = 0 AND strpos(name, ',') = 0" >"$work/names"
"$corank" --collation und "$work/names" >"$work/got"
sql -c "SELECT name FROM t WHERE name IS NOT NULL AND strpos(name, '\"') = 0 AND strpos(name, ',') = 0
        ORDER BY name COLLATE \"und-x-icu\"" >"$work/want"
if cmp -s "$work/got" "$work/want"; then
  echo "ok: lines under --collation und"
else
  echo "FAIL: lines under --collation und differ from ORDER BY name COLLATE \"und-x-icu\""
  failures=$((failures + 1))
fi

[ "$failures" -eq 0 ] || exit 1
