#!/usr/bin/env bash
# Line-sorting benchmark: corank against GNU sort (LC_ALL=C) on the same
# log-like file, with the same memory budget and thread count, one after the
# other in the same run; checks that both outputs are byte-identical.
#   tools/bench-lines.sh [BUILD_DIR] [SIZE] [BUDGET] [WORK_DIR] [THREADS]
# defaults: build 4G 1G /tmp/corank-bench-lines $(nproc)
set -euo pipefail
build=${1:-build}
size=${2:-4G}
budget=${3:-1G}
work=${4:-/tmp/corank-bench-lines}
threads=${5:-$(nproc)}
corank=$(realpath "$build/src/corank")
loggen=$(realpath "$build/tools/loggen/corank-loggen")
mkdir -p "$work/tmp"
input="$work/logs-$size.txt"
[[ -f $input ]] || "$loggen" --size "$size" --seed 42 -o "$input"
bytes=$(stat -L -c %s "$input")
lines=$(wc -l < "$input")
echo "input: $input, $bytes bytes, $lines lines; -S $budget --parallel=$threads; $(nproc) cores"

# Prints the wall-clock seconds of the command it runs.
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}'
}

for keys in "-k1,1" ""; do
  name=${keys:-whole line}
  sync
  gnu=$(seconds env LC_ALL=C sort $keys -S "$budget" --parallel=$threads -T "$work/tmp" -o "$work/gnu.out" "$input")
  sync
  ours=$(seconds "$corank" $keys -S "$budget" --parallel=$threads -T "$work/tmp" --stats "$work/stats.json" \
    -o "$work/corank.out" "$input")
  if cmp -s "$work/gnu.out" "$work/corank.out"; then same=identical; else same=DIFFERENT; fi
  printf '%-10s  GNU sort %8.2f s   corank %8.2f s   ratio %5.2fx   outputs %s\n' "$name" "$gnu" "$ours" \
    "$(awk -v g="$gnu" -v c="$ours" 'BEGIN {print g / c}')" "$same"
  echo "            corank phases: $(grep -o '"seconds": {[^}]*}' "$work/stats.json")"
  rm -f "$work/gnu.out" "$work/corank.out" "$work/stats.json"
done
