#!/usr/bin/env bash
# Sets corank up on a fresh Debian/Ubuntu machine and runs the main job on a
# generated sample: generate gensort records, sort them, validate the result.
#   tools/demo.sh [RECORDS]        (default 1000000 records = 100 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-1000000}
tools/setup.sh build
work=$(mktemp -d "${TMPDIR:-/tmp}/corank-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
bin=build
echo "== generating $records gensort records"
"$bin/tools/gen/corank-gen" --format gensort --records "$records" --seed 1 -o "$work/input.dat"
echo "== sorting"
"$bin/src/corank" --format gensort --verify --stats "$work/stats.json" -o "$work/sorted.dat" "$work/input.dat"
cat "$work/stats.json"
echo "== validating"
"$bin/tools/validate/corank-validate" --format gensort --input "$work/input.dat" "$work/sorted.dat"
