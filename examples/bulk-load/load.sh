#!/usr/bin/env bash
# Bulk-loads a CSV export of events into PostgreSQL in the order of their
# timestamps: corank sorts the rows by `ts` as instants (whatever UTC offset
# each was written with), COPY appends them to a new table in that order, and
# the B-tree index on ts is built over a heap that is already in index order,
# so a range of times reads neighbouring pages (pg_stats.correlation 1).
#   examples/bulk-load/load.sh EVENTS.CSV
# EVENTS.CSV has a header and the columns id,ts,user_id,action,detail; an
# unquoted empty field is NULL (as COPY reads it), and NULL times sort last, as
# ORDER BY ts puts them. Timestamps without an offset are UTC to corank, so the
# session's TimeZone is UTC too. psql connects as it always does (PGHOST,
# PGPORT, PGUSER, PGDATABASE); CORANK names the corank binary (default: the one
# on PATH). The table is created, filled and indexed in one transaction: a
# failure leaves no table behind, and an existing `events` is an error.
set -euo pipefail
input=${1:?usage: load.sh EVENTS.CSV}
corank=${CORANK:-corank}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$corank" --format csv --header --key ts:time -o "$work/sorted.csv" "$input"

# COPY ... FROM STDIN reads psql's standard input: the server needs no access
# to the file. FREEZE: the rows are written frozen (the table is new in this
# transaction), so the first VACUUM does not rewrite every page.
PGTZ=UTC psql --no-psqlrc --single-transaction -v ON_ERROR_STOP=1 \
  -c 'CREATE TABLE events (id bigint NOT NULL, ts timestamptz, user_id bigint, action text, detail text)' \
  -c 'COPY events (id, ts, user_id, action, detail) FROM STDIN WITH (FORMAT csv, HEADER true, FREEZE true)' \
  -c 'CREATE INDEX events_ts_idx ON events USING btree (ts)' \
  -c 'ANALYZE events' \
  <"$work/sorted.csv"
