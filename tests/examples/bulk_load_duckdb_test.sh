#!/usr/bin/env bash
# corank's order against DuckDB's own ORDER BY, DuckDB the reference: the
# accounts export of bulk_load_test.sh (tests/examples/accounts.awk) sorted by
# corank with keys that state DuckDB's order, then DuckDB (the npm package
# @duckdb/node-api, run by tests/examples/duckdb_order.mjs) loads each sorted
# file and checks its rows against the input's and its order (rowid) against
# ORDER BY ..., id. What differs from PostgreSQL: DuckDB puts NULLs last under
# ASC and DESC alike (corank's default; PostgreSQL's DESC puts them first); its
# text order is bytes unless COLLATE names one (its ICU collations: en, de, sv,
# ...; no und), and a collation's equal texts are equal, where PostgreSQL and
# corank order them by their bytes, so the export has no decomposed accents;
# its DECIMAL holds no NaN or infinity, so amounts are DOUBLEs (corank's
# :float). A file in PostgreSQL's order is shown not to be in DuckDB's.
#   tests/examples/bulk_load_duckdb_test.sh /path/to/corank [ROWS=100000]
# DUCKDB_NODE_MODULES names a directory where `npm install @duckdb/node-api`
# ran; otherwise the test installs the package into its scratch directory
# (network). Exits 77 (skipped) without Node.js 18 or later, npm, or the
# package.
set -euo pipefail
corank=$(realpath "$1")
rows=${2:-100000}
here=$(realpath "$(dirname "$0")")
package=@duckdb/node-api@1.5.6-r.1  # DuckDB 1.5.6

skip() { echo "bulk_load_duckdb_test: skipped: $*"; exit 77; }
command -v node >/dev/null || skip "no Node.js (node)"
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 18 ] || skip "Node.js $(node --version) is older than 18"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

modules=${DUCKDB_NODE_MODULES:-}
if [ -z "$modules" ]; then
  command -v npm >/dev/null || skip "no npm to install $package"
  modules=$work/npm
  mkdir "$modules"
  # Bounded: without a network npm would retry for minutes.
  if ! (cd "$modules" && timeout 300 npm install --no-audit --no-fund --no-save --loglevel=error \
    --fetch-retries=1 "$package") >"$work/npm.log" 2>&1; then
    skip "npm could not install $package: $(tail -n 3 "$work/npm.log" | tr '\n' ' ')"
  fi
fi
[ -d "$modules/node_modules/@duckdb/node-api" ] || skip "$modules/node_modules has no @duckdb/node-api"

awk -v rows="$rows" -v seed=32 -v decomposed=0 -f "$here/accounts.awk" >"$work/accounts.csv"
sort_csv() {  # sort_csv NAME KEY...: corank's order into $work/NAME.csv
  local name=$1
  shift
  "$corank" --format csv --header "$@" -o "$work/$name.csv" "$work/accounts.csv"
}
# DuckDB's defaults: NULLS LAST for ASC and DESC (corank's), binary text.
sort_csv default --key name:text:collate=en --key amount:float:desc --key ts:time
sort_csv binary --key name:text --key note:text:desc
# Places and collations spelled out.
sort_csv spelled --key ts:time:desc:nulls_first --key amount:float:nulls_first --key name:text:desc:collate=sv
# PostgreSQL's defaults (DESC NULLS FIRST), as load.sh sorts for its index.
sort_csv postgresql --key name:text:nulls_last:collate=en --key amount:float:desc:nulls_first --key ts:time:nulls_last

node "$here/duckdb_order.mjs" "$modules" "$work/accounts.csv" \
  "$work/default.csv" "name COLLATE en, amount DESC, ts" \
  "$work/binary.csv" "name, note DESC" \
  "$work/spelled.csv" "ts DESC NULLS FIRST, amount NULLS FIRST, name COLLATE sv DESC" \
  "$work/postgresql.csv" "name COLLATE en NULLS LAST, amount DESC NULLS FIRST, ts NULLS LAST" \
  "$work/postgresql.csv" "!name COLLATE en, amount DESC, ts"
