#!/usr/bin/env bash
# Two builds of corank on the same files, alternating: whether a change made a
# sort slower. For each case, corank-gen writes the input into WORK, then for
# each rep the new and the old binary sort it (new first), and the engine copy
# of the same file is the peer. Wall seconds, one line each, in
# OUT/summary.txt; the new build's first output of each case is validated.
#   tools/ab-bench.sh NEW_BIN_DIR OLD_BIN_DIR OUT_DIR
# NEW_BIN_DIR holds src/corank, tools/gen/corank-gen, tools/validate/corank-validate
# and tools/bench/corank-bench (a build tree does); OLD_BIN_DIR needs only src/corank.
# Environment: WORK (default /dev/shm/corank-ab), REPS (3), GPU ("on off", or
# "off" without a GPU), CASES (default "gensort:100M u64:1000M"; FORMAT:N,
# or lines:SIZE for corank-loggen text), EXTRA (more corank arguments, e.g. "-S 200M -T /tmp").
set -u
new=$(cd "${1:?usage: ab-bench.sh NEW_BIN_DIR OLD_BIN_DIR OUT_DIR}" && pwd)
old=$(cd "${2:?usage: ab-bench.sh NEW_BIN_DIR OLD_BIN_DIR OUT_DIR}" && pwd)
OUT=${3:?usage: ab-bench.sh NEW_BIN_DIR OLD_BIN_DIR OUT_DIR}
work=${WORK:-/dev/shm/corank-ab}
mkdir -p "$OUT" "$work"
S=$OUT/summary.txt
trap 'rm -rf "$work"' EXIT

wall() {  # command...: prints "SECONDS rc=RC"
  local s e rc
  s=$(date +%s.%N)
  "$@" > /dev/null 2>> "$OUT/stderr.log"
  rc=$?
  e=$(date +%s.%N)
  awk -v a="$s" -v b="$e" -v r="$rc" 'BEGIN{printf "%.3f rc=%d", b - a, r}'
}

echo "date: $(date -u +%F)  cpus: $(nproc)  $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null)" >> "$S"
for c in ${CASES:-gensort:100M u64:1000M}; do
  fmt=${c%%:*} n=${c#*:} in=$work/in out=$work/out
  if [[ $fmt == lines ]]; then
    "$new/tools/loggen/corank-loggen" --size "$n" -o "$in"
    args=()
  else
    "$new/tools/gen/corank-gen" --format "$fmt" -n "$n" -o "$in"
    args=(--format "$fmt")
  fi
  echo "$c copy: $("$new/tools/bench/corank-bench" copy --input "$in" --output "$out.copy" --reps 3 | tail -1)" >> "$S"
  rm -f "$out.copy"
  for ((rep = 1; rep <= ${REPS:-3}; rep++)); do
    for g in ${GPU:-on off}; do
      for which in new old; do
        b=$new
        [[ $which == old ]] && b=$old
        # shellcheck disable=SC2086
        echo "$c $which --gpu=$g rep $rep: $(wall "$b/src/corank" "${args[@]}" --gpu="$g" ${EXTRA:-} -o "$out" "$in")" >> "$S"
        if [[ $rep == 1 && $which == new && $fmt != lines ]]; then
          echo "  validate: $("$new/tools/validate/corank-validate" "${args[@]}" --input "$in" "$out" 2>&1 | tail -1)" >> "$S"
        fi
        rm -f "$out"
      done
    done
  done
  rm -f "$in"
done
cat "$S"
