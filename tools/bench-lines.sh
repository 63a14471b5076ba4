#!/usr/bin/env bash
# Line-sorting benchmark: corank against GNU sort (LC_ALL=C) on the same
# log-like file, with the same memory budget and thread count, one after the
# other in the same run; checks that every output is byte-identical to GNU's.
#   tools/bench-lines.sh [BUILD_DIR] [SIZE] [BUDGET] [WORK_DIR] [THREADS]
# defaults: build 4G 1G /tmp/corank-bench-lines $(nproc)
# For each key (the timestamp field, -k1,1, and the whole line) it times GNU
# sort, then the `sync` that writes GNU's output to disk (GNU sort does not
# fsync; corank does unless --no-fsync), then corank once per variant:
# VARIANTS, '|'-separated corank options, default
#   "--gpu=off|--gpu=auto|--gpu=off --no-fsync|--gpu=auto --no-fsync"
# Ratios: GNU / corank for the --no-fsync variants (neither syncs), and
# (GNU + sync) / corank for the others (both durable).
set -euo pipefail
build=${1:-build}
size=${2:-4G}
budget=${3:-1G}
work=${4:-/tmp/corank-bench-lines}
threads=${5:-$(nproc)}
variants=${VARIANTS:-"--gpu=off|--gpu=auto|--gpu=off --no-fsync|--gpu=auto --no-fsync"}
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

IFS='|' read -r -a variant_list <<< "$variants"
for keys in "-k1,1" ""; do
  name=${keys:-whole line}
  sync
  gnu=$(seconds env LC_ALL=C sort $keys -S "$budget" --parallel=$threads -T "$work/tmp" -o "$work/gnu.out" "$input")
  gnu_sync=$(seconds sync)
  printf '%-10s  GNU sort %8.2f s, then sync %5.2f s\n' "$name" "$gnu" "$gnu_sync"
  for v in "${variant_list[@]}"; do
    sync
    # shellcheck disable=SC2086  # keys and v are option lists
    ours=$(seconds "$corank" $keys $v -S "$budget" --parallel $threads -T "$work/tmp" --stats "$work/stats.json" \
      -o "$work/corank.out" "$input")
    if cmp -s "$work/gnu.out" "$work/corank.out"; then same=identical; else same=DIFFERENT; fi
    if [[ $v == *--no-fsync* ]]; then peer=$gnu; how="GNU / corank"; else
      peer=$(awk -v g="$gnu" -v s="$gnu_sync" 'BEGIN {print g + s}'); how="(GNU + sync) / corank"; fi
    printf '            corank %-24s %8.2f s   %s %5.2fx   outputs %s\n' "$v" "$ours" "$how" \
      "$(awk -v g="$peer" -v c="$ours" 'BEGIN {print g / c}')" "$same"
    echo "              backend $(grep -o '"backend": "[a-z]*"' "$work/stats.json" | cut -d'"' -f4);" \
      "phases: $(grep -o '"seconds": {[^}]*}' "$work/stats.json")"
    echo "              gpu: $(grep -o '"gpu_seconds": {[^}]*}' "$work/stats.json")"
    rm -f "$work/corank.out" "$work/stats.json"
  done
  rm -f "$work/gnu.out"
done
