#!/usr/bin/env bash
# examples/bulk-load/load.sh against a real PostgreSQL: a server of its own in a
# fresh temporary directory (unix socket only), generated exports loaded by
# load.sh with the given corank in the order of an index that PostgreSQL reads
# from DDL, then PostgreSQL itself checks each table: as many rows as the
# input, the same rows (EXCEPT ALL both ways against the input loaded unsorted
# beside it), the heap (ctid: one COPY FREEZE into a new table appends in file
# order) in the order of the index's ORDER BY, row for row, ties in input
# order; pg_stats.correlation 1 for the index's first column; and every index
# of the table a valid B-tree holding every heap row (amcheck).
#   tests/examples/bulk_load_test.sh /path/to/corank [ROWS=100000]
# The loads: the example's events by time; accounts (tests/examples/
# accounts.awk: accented and punctuated texts, numeric NaN and +-Infinity,
# timestamps with +-infinity, NULLs) as CSV by (name COLLATE "und-x-icu",
# amount DESC, ts NULLS FIRST), as COPY's text format into a LIKE copy by (ts,
# amount DESC NULLS LAST, name COLLATE "sv-x-icu" DESC), and into a database
# whose default collation is ICU's Swedish. Then keys load.sh must refuse, each
# with its message, nothing loaded.
# Exits 77 (skipped) without PostgreSQL's server programs (Debian: postgresql;
# PG_BINDIR names their directory elsewhere) or its ICU collations. As root the
# server runs as the postgres user, since initdb refuses root.
set -euo pipefail
corank=$(realpath "$1")
rows=${2:-100000}
example=$(realpath "$(dirname "$0")/../../examples/bulk-load")
accounts_awk=$(realpath "$(dirname "$0")/accounts.awk")

# The server's TimeZone is not UTC, so that it is load.sh's own setting that
# reads offsetless timestamps as UTC, as corank does.
source "$(dirname "$0")/../pg_server.sh" bulk_load_test 54329 "timezone = 'America/New_York'"
export CORANK=$corank PGOPTIONS='-c client_min_messages=warning'
if [ "$(sql -c "SELECT count(*) FROM pg_collation WHERE collname IN ('und-x-icu', 'sv-x-icu')")" != 2 ]; then
  echo "bulk_load_test: skipped: this PostgreSQL has no ICU collations"
  exit 77
fi
version=$(sql -c 'SHOW server_version_num')
has_amcheck=$(sql -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'")

failures=0
# expect WHAT WANT SQL: the query's single result is WANT.
expect() {
  local got
  got=$(sql -c "$3")
  if [[ $got != "$2" ]]; then
    echo "bulk_load_test: $1: got '$got', expected '$2'" >&2
    failures=$((failures + 1))
  fi
}

# check_load WHAT TABLE INPUT_TABLE ORDER FIRST_COLUMN: TABLE, loaded by
# load.sh, holds INPUT_TABLE's rows, its heap in ORDER BY ORDER, id order
# (the input's) among ties, FIRST_COLUMN correlated 1 (ANALYZE ran in
# load.sh), and its indexes are sound. In the database PGDATABASE names.
check_load() {
  local what=$1 table=$2 input=$3 order=$4 first=$5
  expect "$what: rows loaded" "$rows" "SELECT count(*) FROM $table"
  expect "$what: rows that differ from the input's" 0 \
    "SELECT count(*) FROM ((TABLE $table EXCEPT ALL TABLE $input) UNION ALL (TABLE $input EXCEPT ALL TABLE $table)) d"
  local positions="SELECT row_number() OVER (ORDER BY ctid) AS heap,
                          row_number() OVER (ORDER BY $order, id) AS sorted, * FROM $table"
  local before=$failures
  expect "$what: rows out of ORDER BY $order" 0 "SELECT count(*) FROM ($positions) p WHERE heap <> sorted"
  if ((failures > before)); then
    echo "bulk_load_test: $what: the first rows out of place (heap position, sorted position, row):" >&2
    sql -q -F ' ' -c "SET TimeZone = 'UTC'; SELECT * FROM ($positions) p WHERE heap <> sorted ORDER BY heap LIMIT 5" >&2
  fi
  expect "$what: correlation of $first with the heap" 1 \
    "SELECT correlation FROM pg_stats WHERE tablename = '$table' AND attname = '$first'"
  if ((has_amcheck)); then
    # Every index of the table: a valid B-tree, and every heap row in it.
    sql -q -c 'CREATE EXTENSION IF NOT EXISTS amcheck' \
      -c "SELECT bt_index_check(indexrelid, true) FROM pg_index WHERE indrelid = '$table'::regclass" >/dev/null ||
      { echo "bulk_load_test: $what: amcheck failed" >&2; failures=$((failures + 1)); }
  fi
}

# The example's events, by time, from two files with a header each.
awk -v rows="$rows" -v seed=7 -f "$example/events.awk" >"$work/events.csv"
# (A record ends at a newline outside quotes: where the quotes so far are even.)
awk -v half=$((rows / 2)) -v one="$work/events-1.csv" -v two="$work/events-2.csv" '
  NR == 1 { print > one; print > two; next }
  { print > (records < half ? one : two); quotes += gsub(/"/, "\""); if (quotes % 2 == 0) records++ }
' "$work/events.csv"
"$example/load.sh" "$example/events.sql" "$example/events_ts_idx.sql" "$work/events-1.csv" "$work/events-2.csv"
sql -q -c 'CREATE TABLE events_input (LIKE events)'
PGTZ=UTC sql -q -c 'COPY events_input FROM STDIN WITH (FORMAT csv, HEADER true)' <"$work/events.csv"
expect "the example's index" "CREATE INDEX events_ts_idx ON public.events USING btree (ts)" \
  "SELECT indexdef FROM pg_indexes WHERE tablename = 'events'"
check_load "events by ts" events events_input "ts" ts

# Accounts as CSV, by a text key under ICU's root collation (the column's), a
# numeric DESC with PostgreSQL's default NULLS FIRST and a timestamp NULLS
# FIRST.
awk -v rows="$rows" -v seed=32 -f "$accounts_awk" >"$work/accounts.csv"
cat >"$work/accounts.sql" <<'SQL'
CREATE TABLE accounts (id bigint NOT NULL, name text COLLATE "und-x-icu", amount numeric, ts timestamptz, note text);
SQL
cat >"$work/accounts_idx.sql" <<'SQL'
CREATE INDEX accounts_idx ON accounts (name COLLATE "und-x-icu", amount DESC, ts NULLS FIRST);
SQL
"$example/load.sh" "$work/accounts.sql" "$work/accounts_idx.sql" "$work/accounts.csv"
sql -q -c 'CREATE TABLE accounts_input (LIKE accounts)'
PGTZ=UTC sql -q -c 'COPY accounts_input FROM STDIN WITH (FORMAT csv, HEADER true)' <"$work/accounts.csv"
# The generator wrote what the checks are about.
expect "NaN, +-Infinity, NULL amounts; +-infinity, NULL times; NULL, empty names, names written composed and decomposed" t \
  "SELECT bool_and(n > 0) FROM (VALUES
     ((SELECT count(*) FROM accounts_input WHERE amount = 'NaN')),
     ((SELECT count(*) FROM accounts_input WHERE amount = 'Infinity')),
     ((SELECT count(*) FROM accounts_input WHERE amount = '-Infinity')),
     ((SELECT count(*) FROM accounts_input WHERE amount IS NULL)),
     ((SELECT count(*) FROM accounts_input WHERE ts = 'infinity')),
     ((SELECT count(*) FROM accounts_input WHERE ts = '-infinity')),
     ((SELECT count(*) FROM accounts_input WHERE ts IS NULL)),
     ((SELECT count(*) FROM accounts_input WHERE name IS NULL)),
     ((SELECT count(*) FROM accounts_input WHERE name = '')),
     ((SELECT count(DISTINCT name) - count(DISTINCT normalize(name, NFC)) FROM accounts_input))) v(n)"
check_load "accounts, CSV" accounts accounts_input 'name COLLATE "und-x-icu", amount DESC, ts NULLS FIRST' name

# The same rows as COPY writes them (text format, id order), into a LIKE
# copy: by time, a numeric DESC NULLS LAST, a text DESC under Swedish rules.
sql -c 'COPY (SELECT * FROM accounts_input ORDER BY id) TO STDOUT WITH (FORMAT text, HEADER true)' \
  >"$work/accounts.txt"
echo 'CREATE TABLE accounts_by_time (LIKE accounts INCLUDING ALL);' >"$work/by_time.sql"
cat >"$work/by_time_idx.sql" <<'SQL'
CREATE INDEX accounts_by_time_idx ON accounts_by_time (ts, amount DESC NULLS LAST, name COLLATE "sv-x-icu" DESC);
SQL
"$example/load.sh" --format pgtext "$work/by_time.sql" "$work/by_time_idx.sql" "$work/accounts.txt"
check_load "accounts, COPY text, LIKE" accounts_by_time accounts_input \
  'ts, amount DESC NULLS LAST, name COLLATE "sv-x-icu" DESC' ts

# A database whose default collation is ICU's (PostgreSQL 15): an index on a
# column of the default collation orders by it. A CSV file without a header.
if ((version >= 150000)); then
  sql -q -c "CREATE DATABASE swedish TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'sv' LOCALE 'C'"
  export PGDATABASE=swedish
  sql -q -c 'CREATE TABLE accounts_input (id bigint, name text, amount numeric, ts timestamptz, note text)'
  PGTZ=UTC sql -q -c 'COPY accounts_input FROM STDIN WITH (FORMAT csv, HEADER true)' <"$work/accounts.csv"
  echo 'CREATE TABLE accounts (LIKE accounts_input);' >"$work/swedish.sql"
  echo 'CREATE INDEX ON accounts (name, ts DESC);' >"$work/swedish_idx.sql"
  tail -n +2 "$work/accounts.csv" >"$work/accounts-headless.csv"
  "$example/load.sh" --no-header "$work/swedish.sql" "$work/swedish_idx.sql" "$work/accounts-headless.csv"
  check_load "accounts, default collation sv" accounts accounts_input 'name, ts DESC' name
  export PGDATABASE=postgres
fi

# refused WHAT TABLE.sql INDEX.sql MESSAGE: load.sh exits 2 with MESSAGE (an
# extended regular expression) on stderr, and no table refused_t exists.
refused() {
  local what=$1 message=$4 status=0
  printf '%s\n' "$2" >"$work/refused.sql"
  printf '%s\n' "$3" >"$work/refused_idx.sql"
  "$example/load.sh" "$work/refused.sql" "$work/refused_idx.sql" "$work/accounts.csv" >/dev/null 2>"$work/err" ||
    status=$?
  if [ "$status" -ne 2 ] || ! grep -Eq "$message" "$work/err"; then
    echo "bulk_load_test: refused $what: exit $status, expected 2 and '$message' on stderr: $(cat "$work/err")" >&2
    failures=$((failures + 1))
  fi
  expect "refused $what: nothing loaded" t "SELECT to_regclass('refused_t') IS NULL"
  sql -q -c 'DROP TABLE IF EXISTS refused_t'  # where it was loaded all the same
}
columns='id bigint, name text, amount numeric, ts timestamptz, note text'
libc=$(sql -c "SELECT collname FROM pg_collation WHERE collprovider = 'c' AND collencoding IN (-1, 6)
                 AND collcollate NOT IN ('C', 'POSIX') AND collcollate NOT ILIKE 'C.utf%8' LIMIT 1")
if [ -n "$libc" ]; then
  refused "a libc collation" "CREATE TABLE refused_t ($columns);" \
    "CREATE INDEX ON refused_t (name COLLATE \"$libc\");" "collation \"$libc\" is the C library's locale"
else
  echo "bulk_load_test: no libc collation but C here; that refusal is not tried"
fi
refused "a custom type" "CREATE TYPE mood AS ENUM ('sad', 'ok'); CREATE TABLE refused_t ($columns, m mood);" \
  'CREATE INDEX ON refused_t (m);' "column m \(mood\): corank has no order for this type"
refused "character(n)" "CREATE TABLE refused_t (id bigint, name char(20), amount numeric, ts timestamptz, note text);" \
  'CREATE INDEX ON refused_t (name);' "character\(n\) compares without trailing spaces"
refused "an expression" "CREATE TABLE refused_t ($columns);" \
  'CREATE INDEX ON refused_t (lower(name));' "key 1 is an expression"
refused "a partial index" "CREATE TABLE refused_t ($columns);" \
  'CREATE INDEX ON refused_t (ts) WHERE amount > 0;' "is partial"
refused "a hash index" "CREATE TABLE refused_t ($columns);" \
  'CREATE INDEX ON refused_t USING hash (id);' "uses hash: only a B-tree"
# An operator class that orders numbers backwards: ASC through it is DESC.
refused "an operator class of its own" "
  CREATE FUNCTION backwards(numeric, numeric) RETURNS int IMMUTABLE LANGUAGE sql AS 'SELECT numeric_cmp(\$2, \$1)';
  CREATE OPERATOR CLASS numeric_backwards FOR TYPE numeric USING btree AS
    OPERATOR 1 >, OPERATOR 2 >=, OPERATOR 3 =, OPERATOR 4 <=, OPERATOR 5 <, FUNCTION 1 backwards(numeric, numeric);
  CREATE TABLE refused_t ($columns);" \
  'CREATE INDEX ON refused_t (amount numeric_backwards);' "operator class numeric_backwards orders unlike"
if ((version >= 160000)); then
  refused "ICU rules" "CREATE COLLATION custom (provider = icu, locale = 'und', rules = '&a < g');
                       CREATE TABLE refused_t ($columns);" \
    'CREATE INDEX ON refused_t (name COLLATE custom);' "custom ICU rules"
fi
refused "a nondeterministic collation before another key" \
  "CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
   CREATE TABLE refused_t ($columns);" 'CREATE INDEX ON refused_t (name COLLATE ci, id);' "is nondeterministic"
refused "two indexes" "CREATE TABLE refused_t ($columns);" \
  'CREATE INDEX ON refused_t (id); CREATE INDEX ON refused_t (ts);' "creates 2 indexes"

if ((failures)); then
  echo "bulk_load_test: $failures failed" >&2
  exit 1
fi
echo "bulk_load_test: $rows rows loaded in index order: events by time; accounts by ICU text, numeric DESC and time, CSV and COPY text; refusals"
