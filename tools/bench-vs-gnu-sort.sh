#!/usr/bin/env bash
# corank against GNU sort on the same gensort ASCII file, same memory budget,
# same thread count, in the same run. Prints a Markdown table row per budget.
#   tools/bench-vs-gnu-sort.sh RECORDS "BUDGET..." [REPS] [BUILD_DIR] [WORK_DIR]
# e.g. tools/bench-vs-gnu-sort.sh 10000000 "4G 256M" 3
set -euo pipefail
records=$1
budgets=$2
reps=${3:-3}
build=${4:-build}
work=${5:-${TMPDIR:-/tmp}}
threads=$(nproc)
in="$work/bench-gensort-ascii-$records.txt"
[ -s "$in" ] || "$build/tools/gen/corank-gen" --format gensort-ascii -n "$records" --seed 7 -o "$in"
bytes=$(stat -c %s "$in")

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }

for S in $budgets; do
  c=() g=()
  for ((i = 0; i < reps; i++)); do
    g+=("$(seconds env LC_ALL=C sort -S "$S" --parallel="$threads" -T "$work" -o "$work/bench-gnu.out" "$in")")
    c+=("$(seconds "$build/src/corank" --format gensort -S "$S" --parallel "$threads" -T "$work" -o "$work/bench-corank.out" "$in")")
  done
  cmp -s "$work/bench-gnu.out" "$work/bench-corank.out" && same=identical || same=DIFFERENT
  cm=$(printf '%s\n' "${c[@]}" | median)
  gm=$(printf '%s\n' "${g[@]}" | median)
  printf '| %s | %s B | -S %s | %s s | %s s | %.2fx | %s |\n' "$(date +%F)" "$bytes" "$S" "$cm" "$gm" \
    "$(awk -v g="$gm" -v c="$cm" 'BEGIN {print g / c}')" "$same"
done
rm -f "$work/bench-gnu.out" "$work/bench-corank.out"
