#!/usr/bin/env bash
# examples/bulk-load against a real PostgreSQL: a server of its own in a fresh
# temporary directory (unix socket only), a generated events CSV loaded by
# load.sh with the given corank, then PostgreSQL itself checks the table: as
# many rows as the input, the same rows (the input loaded unsorted beside it),
# the heap in the order of ORDER BY ts (NULLs last, ties in input order), and
# the B-tree index on ts built and consistent with the heap (amcheck).
#   tests/examples/bulk_load_test.sh /path/to/corank [ROWS=300000]
# Exits 77 (skipped) without PostgreSQL's server programs (Debian: postgresql;
# PG_BINDIR names their directory elsewhere). As root the server runs as the
# postgres user, since initdb refuses root.
set -euo pipefail
corank=$(realpath "$1")
rows=${2:-300000}
example=$(realpath "$(dirname "$0")/../../examples/bulk-load")

bindir=${PG_BINDIR:-}
if [ -z "$bindir" ]; then
  bindir=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)  # the newest
  [ -x "$bindir/initdb" ] || bindir=$(dirname "$(command -v initdb 2>/dev/null || echo .)")
fi
if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ] || [ ! -x "$bindir/psql" ]; then
  echo "bulk_load_test: skipped: no PostgreSQL server programs (initdb, pg_ctl, psql)"
  exit 77
fi
as_server=()
if [ "$(id -u)" -eq 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "bulk_load_test: skipped: running as root and there is no postgres user to run the server"
    exit 77
  fi
  as_server=(runuser -u postgres --)
fi

work=$(mktemp -d)
pg=$(mktemp -d)  # data directory and socket, the server's own
started=0
cleanup() {
  if ((started)); then
    "${as_server[@]}" "$bindir/pg_ctl" -D "$pg/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work" "$pg"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
[ ${#as_server[@]} -eq 0 ] || chown postgres: "$pg"
cd "$pg"  # a directory the server's user may enter

"${as_server[@]}" "$bindir/initdb" -D "$pg/data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
  >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log" >&2; exit 1; }
# The socket lives in $pg, so the port only names it and clashes with nothing.
# The server's TimeZone is not UTC, so that it is load.sh's own setting that
# reads offsetless timestamps as UTC, as corank does.
cat >>"$pg/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$pg'
port = 54329
timezone = 'America/New_York'
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
started=1
if ! "${as_server[@]}" "$bindir/pg_ctl" -D "$pg/data" -l "$pg/server.log" -w -t 60 start >/dev/null; then
  cat "$pg/server.log" >&2
  exit 1
fi
export PATH=$bindir:$PATH PGHOST=$pg PGPORT=54329 PGUSER=postgres PGDATABASE=postgres
sql() { psql --no-psqlrc -v ON_ERROR_STOP=1 -At "$@"; }

awk -v rows="$rows" -v seed=7 -f "$example/events.awk" >"$work/events.csv"
CORANK=$corank "$example/load.sh" "$work/events.csv"

# The input as it came, for the comparison of contents.
sql -q -c 'CREATE TABLE events_input (LIKE events)'
PGTZ=UTC sql -q -c 'COPY events_input FROM STDIN WITH (FORMAT csv, HEADER true)' <"$work/events.csv"

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
expect "rows loaded" "$rows" 'SELECT count(*) FROM events'
expect "rows of the input" "$rows" 'SELECT count(*) FROM events_input'
expect "rows that differ from the input's" 0 \
  'SELECT count(*) FROM ((TABLE events EXCEPT ALL TABLE events_input)
                         UNION ALL (TABLE events_input EXCEPT ALL TABLE events)) d'
# The generator wrote what the checks are about.
expect "NULL times, details with a comma, a newline, empty, NULL" t \
  "SELECT bool_and(n > 0) FROM (VALUES
     ((SELECT count(*) FROM events WHERE ts IS NULL)),
     ((SELECT count(*) FROM events WHERE detail LIKE '%,%')),
     ((SELECT count(*) FROM events WHERE detail LIKE E'%\n%')),
     ((SELECT count(*) FROM events WHERE detail = '')),
     ((SELECT count(*) FROM events WHERE detail IS NULL)),
     ((SELECT count(ts) - count(DISTINCT ts) FROM events))) v(n)"
# The heap's order (ctid: COPY appends) against PostgreSQL's own ORDER BY; ids
# follow the input's order, so they order the ties.
order='SELECT row_number() OVER (ORDER BY ctid) AS heap,
              row_number() OVER (ORDER BY ts ASC NULLS LAST, id) AS sorted, id, ts FROM events'
expect "rows out of ORDER BY ts order" 0 "SELECT count(*) FROM ($order) o WHERE heap <> sorted"
if ((failures)); then
  echo "bulk_load_test: the first rows out of order (heap position, sorted position, id, ts):" >&2
  sql -q -F ' ' -c "SET TimeZone = 'UTC'; SELECT * FROM ($order) o WHERE heap <> sorted ORDER BY heap LIMIT 5" >&2
fi
# What the load is for: the heap in index order (ANALYZE ran in load.sh).
expect "correlation of ts with the heap" 1 \
  "SELECT correlation FROM pg_stats WHERE tablename = 'events' AND attname = 'ts'"
expect "the index" "CREATE INDEX events_ts_idx ON public.events USING btree (ts)" \
  "SELECT indexdef FROM pg_indexes WHERE tablename = 'events'"
# Every heap row is in the index, and the index is a valid B-tree.
if [[ $(sql -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'") == 1 ]]; then
  sql -q -c 'CREATE EXTENSION amcheck' -c "SELECT bt_index_check('events_ts_idx', true)" >/dev/null ||
    failures=$((failures + 1))
fi

if ((failures)); then
  echo "bulk_load_test: $failures failed" >&2
  exit 1
fi
echo "bulk_load_test: $rows rows sorted, loaded and indexed in order"
