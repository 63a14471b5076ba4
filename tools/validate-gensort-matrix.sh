#!/usr/bin/env bash
# Sorts RECORDS gensort records in both layouts, uniform and skewed keys, with
# the default budget (in memory) and with a budget that forces spilled runs,
# and checks each result with corank-validate against its input.
#   tools/validate-gensort-matrix.sh [RECORDS] [SPILL_BUDGET] [BUILD_DIR] [WORK_DIR]
set -euo pipefail
records=${1:-10000000}
spill=${2:-200M}
build=${3:-build}
work=${4:-${TMPDIR:-/tmp}}
fail=0
printf '| layout | keys | budget | plan | runs | sort s | validator |\n|---|---|---|---|---|---|---|\n'
for layout in gensort gensort-ascii; do
  for dist in uniform skewed; do
    in="$work/matrix-$layout-$dist.dat"
    "$build/tools/gen/corank-gen" --format "$layout" --dist "$dist" -n "$records" --seed 3 -o "$in"
    for budget in default "$spill"; do
      S=(); [ "$budget" = default ] || S=(-S "$budget")
      "$build/src/corank" --format gensort "${S[@]}" -T "$work" --stats "$work/matrix.json" -o "$work/matrix.out" "$in"
      plan=$(grep -o '"mode": "[a-z-]*"' "$work/matrix.json" | cut -d'"' -f4)
      runs=$(grep -o '"runs": [0-9]*' "$work/matrix.json" | awk '{print $2}')
      secs=$(grep -o '"total": [0-9.]*' "$work/matrix.json" | awk '{print $2}')
      if "$build/tools/validate/corank-validate" --format gensort --input "$in" "$work/matrix.out" >"$work/matrix.log"; then
        verdict="VALID, input checksum matches"
      else
        verdict="INVALID"; fail=1; cat "$work/matrix.log" >&2
      fi
      printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$layout" "$dist" "$budget" "$plan" "$runs" "$secs" "$verdict"
    done
    rm -f "$in"
  done
done
rm -f "$work/matrix.out" "$work/matrix.json" "$work/matrix.log"
exit $fail
