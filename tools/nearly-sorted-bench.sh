#!/usr/bin/env bash
# The bars of adaptive run formation (issue 33), each against its peer in the
# same run, wall seconds per line in OUT/summary.txt:
#  1. nearly sorted log lines (corank-loggen --late LATE), sorted with -S
#     BUDGET file to file: corank (--gpu=off; --gpu=on --gpu-memory 1G too
#     where GPU says so) against corank's engine copy of the same file, with
#     the bytes spilled and whether the output was written in one pass (from
#     --stats); the build before (OLD_BIN_DIR) and GNU sort (LC_ALL=C, the
#     same -S and -T) for the record;
#  2. already sorted gensort records (corank-gen --dist sorted): the same;
#     and gensort records each at most DISPLACEMENT records from their place
#     (--dist nearly-sorted), for the record;
#  3. random log lines and random gensort records: this build against
#     OLD_BIN_DIR's, through tools/ab-bench.sh (CASES "lines:SIZE
#     gensort:RECORDS", the same -S).
# Each output of 1 and 2 is checked: GNU sort -c for lines, corank-validate
# for gensort.
#   tools/nearly-sorted-bench.sh NEW_BIN_DIR OLD_BIN_DIR OUT_DIR
# NEW_BIN_DIR is a build tree (src/corank, tools/gen/corank-gen,
# tools/loggen/corank-loggen, tools/bench/corank-bench,
# tools/validate/corank-validate); OLD_BIN_DIR needs only src/corank.
# Environment: WORK (default /tmp/corank-nearly: on disk, as the bars are),
# SIZE (default 10G), RECORDS (default 100M), BUDGET (default 1G), LATE
# (seconds, default 5), DISPLACEMENT (records, default 100000), REPS (default
# 3), GPU ("off", default, or "off on"; AB_GPU for the random cases),
# RANDOM_CASES (ab-bench's CASES), SKIP (any of "logs gensort nearly
# random gnu old" to leave out; "old": the build before is not run,
# OLD_BIN_DIR is then any directory).
set -u
new=$(cd "${1:?usage: nearly-sorted-bench.sh NEW_BIN_DIR OLD_BIN_DIR OUT_DIR}" && pwd)
old=$(cd "${2:?usage: nearly-sorted-bench.sh NEW_BIN_DIR OLD_BIN_DIR OUT_DIR}" && pwd)
OUT=${3:?usage: nearly-sorted-bench.sh NEW_BIN_DIR OLD_BIN_DIR OUT_DIR}
work=${WORK:-/tmp/corank-nearly}
size=${SIZE:-10G} records=${RECORDS:-100M} budget=${BUDGET:-1G} late=${LATE:-5} reps=${REPS:-3}
displacement=${DISPLACEMENT:-100000}
mkdir -p "$OUT" "$work/tmp"
S=$OUT/summary.txt
trap 'rm -rf "$work"' EXIT
skip() { [[ " ${SKIP:-} " == *" $1 "* ]]; }

wall() {  # command...: prints "SECONDS rc=RC"
  local s e rc
  s=$(date +%s.%N)
  "$@" > /dev/null 2>> "$OUT/stderr.log"
  rc=$?
  e=$(date +%s.%N)
  awk -v a="$s" -v b="$e" -v r="$rc" 'BEGIN{printf "%.3f rc=%d", b - a, r}'
}

stat_of() {  # key: the value of "key" in the last --stats
  grep -o "\"$1\": [^,]*" "$OUT/stats.json" | head -1 | cut -d' ' -f2
}

# case name, input, corank's format arguments...
bars() {
  local name=$1 in=$2 out=$work/out
  shift 2
  echo "$name copy: $("$new/tools/bench/corank-bench" copy --input "$in" --output "$out.copy" --reps "$reps" | tail -1)" >> "$S"
  rm -f "$out.copy"
  for ((rep = 1; rep <= reps; rep++)); do
    for g in ${GPU:-off}; do
      local gpu=(--gpu="$g")
      [[ $g == on ]] && gpu+=(--gpu-memory 1G)
      echo "$name corank ${gpu[*]} -S $budget rep $rep: $(wall "$new/src/corank" "$@" "${gpu[@]}" -S "$budget" \
        -T "$work/tmp" --stats "$OUT/stats.json" -o "$out" "$in")" \
        "runs=$(stat_of runs) spill_bytes=$(stat_of spill_bytes) side_records=$(stat_of side_records)" \
        "one_pass=$(stat_of one_pass)" >> "$S"
      if ! skip old; then
        echo "$name old corank ${gpu[*]} -S $budget rep $rep: $(wall "$old/src/corank" "$@" "${gpu[@]}" -S "$budget" \
          -T "$work/tmp" --stats "$OUT/stats.json" -o "$out.old" "$in")" \
          "runs=$(stat_of runs) spill_bytes=$(stat_of spill_bytes)" >> "$S"
        rm -f "$out.old"
      fi
      if [[ $rep == 1 ]]; then
        if [[ $# -eq 0 ]]; then
          echo "  check: $(LC_ALL=C sort -c "$out" 2>&1 && echo sorted)" >> "$S"
        else
          echo "  validate: $("$new/tools/validate/corank-validate" "$@" --input "$in" "$out" 2>&1 | tail -1)" >> "$S"
        fi
      fi
      rm -f "$out"
    done
  done
  if [[ $# -eq 0 ]] && ! skip gnu; then
    echo "$name GNU sort -S $budget: $(LC_ALL=C wall sort -S "$budget" -T "$work/tmp" -o "$out" "$in")" >> "$S"
    rm -f "$out"
  fi
}

echo "date: $(date -u +%F)  cpus: $(nproc)  $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null)" >> "$S"
echo "new: $new  old: $old  size: $size  records: $records  -S $budget  late: ${late}s" >> "$S"
if ! skip logs; then
  "$new/tools/loggen/corank-loggen" --size "$size" --late "$late" -o "$work/logs"
  bars "logs:$size late ${late}s" "$work/logs"
  rm -f "$work/logs"
fi
if ! skip gensort; then
  "$new/tools/gen/corank-gen" --format gensort --dist sorted -n "$records" -o "$work/gensort"
  bars "gensort:$records sorted" "$work/gensort" --format gensort
  rm -f "$work/gensort"
fi
if ! skip nearly; then
  "$new/tools/gen/corank-gen" --format gensort --dist nearly-sorted --displacement "$displacement" -n "$records" \
    -o "$work/gensort"
  bars "gensort:$records displaced <= $displacement" "$work/gensort" --format gensort
  rm -f "$work/gensort"
fi
if ! skip random; then
  WORK=$work/ab REPS=$reps GPU=${AB_GPU:-${GPU:-off}} CASES=${RANDOM_CASES:-"lines:$size gensort:$records"} \
    EXTRA="-S $budget -T $work/tmp" \
    "$(dirname "$0")/ab-bench.sh" "$new" "$old" "$OUT/ab" > /dev/null
  sed 's/^/random /' "$OUT/ab/summary.txt" >> "$S"
fi
cat "$S"
