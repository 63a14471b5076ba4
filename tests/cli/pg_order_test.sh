#!/usr/bin/env bash
# corank's order against PostgreSQL's own ORDER BY, PostgreSQL the reference:
# a server of its own (unix socket only, C locale) loads a generated CSV whose
# numeric column holds NaN and +-Infinity in numeric_in's spellings, a float8
# column NaN, +-Infinity, -0 and subnormals, a timestamptz column infinity and
# -infinity, a text column quotes, commas, tabs, backslashes and newlines, and
# NULLs everywhere. Then for ASC and DESC keys with the default and explicit
# NULL places, corank sorts the file (stably), PostgreSQL loads corank's
# output into a table whose serial column records the order, and PostgreSQL
# checks that the rows are the input's and that their order is its ORDER BY's
# (ties by id, the input's order). The same for PostgreSQL's COPY text format:
# COPY ... TO STDOUT, corank --format pgtext, COPY ... FROM STDIN. And times
# that PostgreSQL writes with offsets of seconds.
#   tests/cli/pg_order_test.sh /path/to/corank [ROWS=20000]
# Exits 77 (skipped) without PostgreSQL's server programs (Debian: postgresql;
# PG_BINDIR names their directory elsewhere). As root the server runs as the
# postgres user, since initdb refuses root.
set -euo pipefail
corank=$(realpath "$1")
rows=${2:-20000}

source "$(dirname "$0")/../pg_server.sh" pg_order_test 54331
# Timestamps without an offset are UTC to corank; the session says the same.
export PGTZ=UTC

# The rows, ids in input order. Numbers as numeric_in and float8in accept them
# (any case, signs, exponents, blanks, hexadecimal floats, subnormals), times
# with offsets, fractions up to microseconds (PostgreSQL keeps no more), and
# the dates alone; an unquoted empty field is NULL, a quoted "" the empty text
# (no "." in texts: a line \\. is the end of COPY's data, in quotes too).
awk -v rows="$rows" -v seed=32 '
function pick(s,   a, n) { n = split(s, a, "|"); return a[1 + int(rand() * n)] }
function digits(n,   s) { s = ""; while (n-- > 0) s = s int(rand() * 10); return s }
function num(   r, s) {
  r = rand()
  if (r < 0.08) return ""
  if (r < 0.11) return pick("NaN|nan|NAN|\" NaN \"")
  if (r < 0.14) return pick("Infinity|inf|+inf|+Infinity|INF|infinity")
  if (r < 0.17) return pick("-Infinity|-inf|-INFINITY")
  if (r < 0.19) return pick("0|-0|0.000|+0e5|\" 7 \"|123456789012345678901234567890.5|123456789012345678901234567890.4")
  s = (rand() < 0.4 ? "-" : "") int(rand() * 1000)
  if (rand() < 0.5) s = s "." digits(1 + int(rand() * 4))
  if (rand() < 0.2) s = s "e" (int(rand() * 7) - 3)
  return s
}
function flt(   r, s) {
  r = rand()
  if (r < 0.08) return ""
  if (r < 0.11) return pick("NaN|nan|-nan|NAN")
  if (r < 0.14) return pick("Infinity|inf|+inf|INFINITY")
  if (r < 0.17) return pick("-Infinity|-inf")
  if (r < 0.21) return pick("0|-0|1e-320|-4.9e-324|0x1p-2|0.1|0.1000000000000000000001|1.7976931348623157e308")
  s = (rand() < 0.4 ? "-" : "") int(rand() * 100) "." digits(1 + int(rand() * 17))
  if (rand() < 0.2) s = s "e" (int(rand() * 41) - 20)
  return s
}
function ts(   r, s, off) {
  r = rand()
  if (r < 0.08) return ""
  if (r < 0.11) return pick("infinity|Infinity|INFINITY")
  if (r < 0.14) return pick("-infinity|-Infinity")
  s = sprintf("%04d-%02d-%02d", 1990 + int(rand() * 41), 1 + int(rand() * 12), 1 + int(rand() * 28))
  if (rand() < 0.1) return s
  s = s pick("T| ") sprintf("%02d:%02d:%02d", int(rand() * 24), int(rand() * 60), int(rand() * 60))
  if (rand() < 0.5) s = s "." digits(1 + int(rand() * 6))
  off = pick("Z||+02:00|-05:00|+05:30|-09:30|+14:00")
  return s off
}
function txt(   r, s, n) {
  r = rand()
  if (r < 0.08) return ""
  if (r < 0.12) return "\"\""
  s = ""
  for (n = 1 + int(rand() * 6); n > 0; n--) s = s pick("a|b|B|z| |,|\"\"|\t|\\|\n|é|0|10|9|N")
  return "\"" s "\""
}
BEGIN {
  srand(seed)
  print "id,n,f,ts,t"
  for (i = 1; i <= rows; i++) printf "%d,%s,%s,%s,%s\n", i, num(), flt(), ts(), txt()
}' >"$work/in.csv"

sql -q <<'SQL'
CREATE TABLE t (id int PRIMARY KEY, n numeric, f float8, ts timestamptz, t text);
CREATE TABLE sorted (LIKE t, ord bigserial);
SQL
sql -q -c 'COPY t FROM STDIN WITH (FORMAT csv, HEADER true)' <"$work/in.csv"

failures=0
expect() {
  local got
  got=$(sql -c "$3")
  if [[ $got != "$2" ]]; then
    echo "pg_order_test: $1: got '$got', expected '$2'" >&2
    failures=$((failures + 1))
  fi
}
# The generator wrote what the checks are about.
expect "rows loaded" "$rows" 'SELECT count(*) FROM t'
expect "NaN, +-Infinity, NULL numerics; -0, subnormal floats; +-infinity times; empty and NULL texts" t \
  "SELECT bool_and(n > 0) FROM (VALUES
     ((SELECT count(*) FROM t WHERE n = 'NaN')), ((SELECT count(*) FROM t WHERE n = 'Infinity')),
     ((SELECT count(*) FROM t WHERE n = '-Infinity')), ((SELECT count(*) FROM t WHERE n IS NULL)),
     ((SELECT count(*) FROM t WHERE f = 'NaN')), ((SELECT count(*) FROM t WHERE f = '-Infinity')),
     ((SELECT count(*) FROM t WHERE f::text = '-0')), ((SELECT count(*) FROM t WHERE f = 1e-320)),
     ((SELECT count(*) FROM t WHERE ts = 'infinity')), ((SELECT count(*) FROM t WHERE ts = '-infinity')),
     ((SELECT count(*) FROM t WHERE ts IS NULL)), ((SELECT count(*) FROM t WHERE t = '')),
     ((SELECT count(*) FROM t WHERE t IS NULL)), ((SELECT count(*) FROM t WHERE t LIKE E'%\n%'))) v(n)"

# check WHAT FORMAT FILE "CORANK KEYS" "ORDER BY": corank sorts FILE, COPY
# loads the result in order, and PostgreSQL compares it with its own ORDER BY.
check() {
  local what=$1 format=$2 file=$3 keys=$4 order=$5 t=${6:-t} copy
  # shellcheck disable=SC2086 # the keys are words
  if ! "$corank" --format "$format" --header -s $keys -o "$work/out" "$file" 2>"$work/err"; then
    echo "pg_order_test: $what: corank failed: $(cat "$work/err")" >&2
    failures=$((failures + 1))
    return
  fi
  copy=$([ "$format" = csv ] && echo "FORMAT csv, HEADER true" || echo "FORMAT text, HEADER true")
  sql -q -c 'TRUNCATE sorted; ALTER SEQUENCE sorted_ord_seq RESTART'
  sql -q -c "COPY sorted (id, n, f, ts, t) FROM STDIN WITH ($copy)" <"$work/out"
  expect "$what: rows that differ from the input's" 0 \
    "SELECT count(*) FROM ((SELECT id, n, f, ts, t FROM sorted EXCEPT ALL TABLE $t)
                           UNION ALL (TABLE $t EXCEPT ALL SELECT id, n, f, ts, t FROM sorted)) d"
  local positions="SELECT a.id, a.r AS corank, b.r AS postgresql
      FROM (SELECT id, row_number() OVER (ORDER BY ord) r FROM sorted) a
      FULL JOIN (SELECT id, row_number() OVER (ORDER BY $order, id) r FROM $t) b USING (id)
      WHERE a.r IS DISTINCT FROM b.r"
  local before=$failures
  expect "$what: rows out of ORDER BY $order" 0 "SELECT count(*) FROM ($positions) p"
  if ((failures > before)); then
    echo "pg_order_test: $what: the first rows out of place (id, corank's position, PostgreSQL's):" >&2
    sql -q -F ' ' -c "SELECT * FROM ($positions) p ORDER BY corank LIMIT 5" >&2
  fi
}

csv=$work/in.csv
# corank's NULLs go last under ASC and DESC alike (DuckDB's default);
# PostgreSQL's DESC puts them first: :nulls_first says so.
check "numeric ASC" csv "$csv" "--key n:n" "n"
check "numeric DESC (corank's default: NULLS LAST)" csv "$csv" "--key n:decimal:desc" "n DESC NULLS LAST"
check "numeric DESC NULLS FIRST (PostgreSQL's default)" csv "$csv" "--key n:n:desc:nulls_first" "n DESC"
check "numeric ASC NULLS FIRST" csv "$csv" "--key 2:n:nulls_first" "n NULLS FIRST"
check "--nulls first, numeric DESC" csv "$csv" "--nulls first --key n:n:desc" "n DESC NULLS FIRST"
check "float8 ASC" csv "$csv" "--key f:float" "f"
check "float8 DESC NULLS FIRST" csv "$csv" "--key f:float:desc:nulls_first" "f DESC"
check "timestamptz ASC NULLS FIRST" csv "$csv" "--key ts:time:nulls_first" "ts NULLS FIRST"
check "timestamptz DESC" csv "$csv" "--key ts:time:desc" "ts DESC NULLS LAST"
check "text (C collation)" csv "$csv" "--key t" "t"
check "text DESC, numeric NULLS FIRST, time DESC NULLS FIRST, spilled runs" csv "$csv" \
  "-S 256K --key t:desc:nulls_last --key n:n:nulls_first --key ts:time:desc:nulls_first" \
  "t DESC NULLS LAST, n NULLS FIRST, ts DESC"

# A CRLF export whose last row has no line ending (a spreadsheet's): corank
# ends every row in CR LF, the last one included, so COPY, which takes a file's
# newline from its first line, loads it (a bare LF among CR LF rows fails it:
# "unquoted newline found in data"). Texts without newlines here, so that each
# line is a row.
sql -q -c "CREATE TABLE t1 AS SELECT id, n, f, ts, translate(t, E'\\n\\r', '  ') t FROM t"
sql -c 'COPY (SELECT * FROM t1 ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER true)' | sed 's/$/\r/' |
  head -c -2 >"$work/crlf.csv"
check "CRLF rows, the last without its line ending" csv "$work/crlf.csv" "--key n:n" "n" t1
check "CRLF rows, spilled runs" csv "$work/crlf.csv" "-S 256K --key t:desc" "t DESC NULLS LAST" t1

# PostgreSQL's text format, as COPY writes it (escapes, \N, its own spellings
# of numbers and times), sorted by corank and read back by COPY. In id order:
# the heap's may differ (a row goes where the free space map finds room).
sql -q -c 'COPY (SELECT * FROM t ORDER BY id) TO STDOUT WITH (FORMAT text, HEADER true)' >"$work/dump.txt"
check "COPY text: text" pgtext "$work/dump.txt" "--key t" "t"
check "COPY text: numeric DESC NULLS FIRST, text" pgtext "$work/dump.txt" "--key n:n:desc:nulls_first --key 5" "n DESC, t"
check "COPY text: float8 DESC, spilled runs" pgtext "$work/dump.txt" "-S 256K --key f:float:desc" "f DESC NULLS LAST"
check "COPY text: timestamptz" pgtext "$work/dump.txt" "--key ts:time" "ts"

# Instants as PostgreSQL writes them in a zone whose offsets once had seconds
# (Africa/Monrovia's local mean time, -00:44:30, until 1972): the offset read
# whole, not the value cut short before it.
sql -q -c "SELECT setseed(0.34); CREATE TABLE t2 AS SELECT id, n, f,
  timestamptz '1900-01-01 00:00:00+00' + random() * interval '80 years' AS ts, t FROM t"
PGTZ=Africa/Monrovia sql -c 'COPY (SELECT * FROM t2 ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER true)' \
  >"$work/monrovia.csv"
expect "offsets with seconds written" t "SELECT $(grep -c -- '-00:44:30' "$work/monrovia.csv") > 0"
check "timestamptz with offsets of seconds (Africa/Monrovia)" csv "$work/monrovia.csv" "--key ts:time" "ts" t2

if ((failures)); then
  echo "pg_order_test: $failures failed" >&2
  exit 1
fi
echo "pg_order_test: $rows rows in PostgreSQL's ORDER BY order, CSV and COPY text"
