#!/usr/bin/env bash
# Records that are their 8-byte key, sorted in memory file to file on a GPU
# machine: corank --gpu=on (words-only sort) against --gpu=off (the CPU path),
# alternating, in /dev/shm so that neither waits on a disk.
#   tools/gpu-words-bench.sh BIN_DIR OUT_DIR ["SIZES"] [FORMAT]
# BIN_DIR holds src/corank and tools/gen/corank-gen (a build tree does);
# SIZES are record counts for corank-gen (default "100M 1000M"); FORMAT
# defaults to u64. Per run: wall time, corank's --verbose breakdown and
# --stats seconds; the two outputs are compared byte for byte.
set -u
B=$(cd "${1:?usage: gpu-words-bench.sh BIN_DIR OUT_DIR [SIZES] [FORMAT]}" && pwd)
O=${2:?usage: gpu-words-bench.sh BIN_DIR OUT_DIR [SIZES] [FORMAT]}
sizes=${3:-100M 1000M}
fmt=${4:-u64}
mkdir -p "$O"
for n in $sizes; do
  "$B/tools/gen/corank-gen" --format "$fmt" -n "$n" -o /dev/shm/words.in
  for gpu in on off on off; do
    t0=$(date +%s.%N)
    "$B/src/corank" --format "$fmt" --gpu=$gpu --verbose --stats "$O/$n-$gpu.json" -o /dev/shm/words-$gpu.out \
      /dev/shm/words.in 2> "$O/$n-$gpu.err"
    rc=$?
    t1=$(date +%s.%N)
    echo "$fmt $n gpu=$gpu rc=$rc wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b - a}')" \
      "$(grep -h 'words-only' "$O/$n-$gpu.err")" "$(grep -o '"seconds": {[^}]*}' "$O/$n-$gpu.json")" \
      "$(grep -o '"gpu_seconds": {[^}]*}' "$O/$n-$gpu.json")"
  done
  cmp /dev/shm/words-on.out /dev/shm/words-off.out && echo "$fmt $n outputs identical"
  rm -f /dev/shm/words.in /dev/shm/words-on.out /dev/shm/words-off.out
done
