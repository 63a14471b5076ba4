#!/usr/bin/env bash
# corank against DuckDB on the same machine, in one run: 10^8 u64 keys,
# 10^8 (u64 key, u64 value) pairs and 10^7 gensort records (sizes scale with
# SCALE, default 1). corank sorts files to files (its reading and writing
# included); DuckDB sorts an in-memory table (CREATE TABLE AS ... ORDER BY),
# which is what a database user compares with. Each case runs REPEATS times,
# alternating the two; the lines "corank CASE SECONDS" and "duckdb CASE
# SECONDS" go to stdout.
#   tools/bench-vs-duckdb.sh BUILD_DIR [WORK_DIR=/dev/shm/corank-duckdb] [REPEATS=3]
# Installs the npm package @duckdb/node-api (needs node and npm, and the
# network the first time) under WORK_DIR/../corank-duckdb-node.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:?usage: bench-vs-duckdb.sh BUILD_DIR [WORK_DIR] [REPEATS]}" && pwd)
work=${2:-/dev/shm/corank-duckdb}
repeats=${3:-3}
scale=${SCALE:-1}
corank=$B/src/corank
gen=$B/tools/gen/corank-gen
node_dir=${DUCKDB_NODE_DIR:-$(dirname "$work")/corank-duckdb-node}
mkdir -p "$work" "$node_dir"
trap 'rm -rf "$work"' EXIT
if [ ! -d "$node_dir/node_modules/@duckdb/node-api" ]; then
  (cd "$node_dir" && npm init -y >/dev/null && npm install --silent @duckdb/node-api >/dev/null)
fi
cp "$here/duckdb/order_by.mjs" "$node_dir/"
echo "# $(date -u +%FT%TZ) $(nproc) threads; duckdb $(cd "$node_dir" && node -e "console.log(require('@duckdb/node-api/package.json').version)")"

n_u64=$((100000000 * scale))
n_gs=$((10000000 * scale))
"$gen" --format u64 -n "$n_u64" -o "$work/u64"
"$gen" --format u64 -n $((2 * n_u64)) --seed 2 -o "$work/pairs"
"$gen" --format gensort -n "$n_gs" -o "$work/gensort"

run_corank() {  # case args...
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  "$corank" "$@" -o "$work/out"
  t1=$(date +%s.%N)
  echo "corank $name $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}')"
  rm -f "$work/out"
}
for r in $(seq 1 "$repeats"); do
  run_corank u64 --format u64 "$work/u64"
  (cd "$node_dir" && node order_by.mjs u64 "$n_u64" 1)
  run_corank pairs --format fixed:16 --key 0:8:u64 "$work/pairs"
  (cd "$node_dir" && node order_by.mjs pairs "$n_u64" 1)
  run_corank gensort --format gensort "$work/gensort"
  (cd "$node_dir" && node order_by.mjs gensort "$n_gs" 1)
done
