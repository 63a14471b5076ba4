#!/usr/bin/env bash
# GPU run formation on a GPU machine: the GPU tests (and the core, CLI, lines
# and CSV suites, which use the GPU here), then corank --gpu=on
# against --gpu=off on RAM-resident inputs, and pinned PCIe bandwidth.
#   tools/gpu-run-formation.sh BIN_DIR OUT_DIR
# BIN_DIR holds src/corank, tools/gen/corank-gen, tools/bench/corank-bench and
# tests/gpu/corank_gpu_{run_sorter,cli}_test (a build tree does). Inputs go to
# /dev/shm (sizes: N_U64=100M, N_GENSORT=10M). The summary is printed last; logs and stats JSON land in OUT_DIR.
set -u
B=$(cd "$1" && pwd)
OUT=$2
mkdir -p "$OUT"
S="$OUT/summary.txt"
: > "$S"
export CORANK_BIN_DIR=$B
nvidia-smi --query-gpu=name,memory.total,driver_version,pcie.link.gen.current,pcie.link.width.current \
  --format=csv >> "$S" 2>&1
echo "cpus: $(nproc)  mem: $(free -g | awk '/Mem:/{print $2}') GiB  date: $(date -u +%F)" >> "$S"

# The GPU tests, then the core and CLI suites, which run on the GPU by default here.
for t in gpu/corank_gpu_run_sorter_test gpu/corank_gpu_cli_test src/corank_core_test cli/corank_cli_test \
  cli/corank_lines_test cli/corank_csv_test; do
  [ -x "$B/tests/$t" ] || continue
  timeout 400 "$B/tests/$t" > "$OUT/${t#*/}.log" 2>&1
  echo "${t#*/} rc=$? $(grep -E '^\[  (PASSED|SKIPPED) +\] [0-9]+ test|^\[  FAILED  \]' "$OUT/${t#*/}.log" | tr '\n' ' ')" >> "$S"
done

CORANK=$B/src/corank
"$B/tools/gen/corank-gen" --format u64 -n "${N_U64:-100M}" -o /dev/shm/u64.bin
"$B/tools/gen/corank-gen" --format gensort -n "${N_GENSORT:-10M}" -o /dev/shm/gensort.bin
for fmt in u64 gensort; do
  in=/dev/shm/$fmt.bin
  cat "$in" > /dev/null
  for rep in 1 2; do
    for gpu in off on; do
      out=/dev/shm/out-$fmt-$gpu.bin
      t0=$(date +%s.%N)
      "$CORANK" --format "$fmt" --gpu=$gpu --verbose --stats "$OUT/stats.json" -o "$out" "$in" \
        2> "$OUT/verbose.tmp"
      rc=$?
      t1=$(date +%s.%N)
      { echo "== $fmt gpu=$gpu rep=$rep"; cat "$OUT/verbose.tmp" "$OUT/stats.json"; } >> "$OUT/bench-details.log"
      total=$(grep -o '"total": [0-9.]*' "$OUT/stats.json" | awk '{print $2}')
      rf=$(grep -o '"run_formation": [0-9.]*' "$OUT/stats.json" | awk '{print $2}')
      mg=$(grep -o '"merge": [0-9.]*' "$OUT/stats.json" | head -1 | awk '{print $2}')
      be=$(grep -o '"backend": "[a-z]*"' "$OUT/stats.json")
      g=$(grep -o '"gpu_seconds": {[^}]*}\|"gpu_bytes": {[^}]*}' "$OUT/stats.json" | tr '\n' ' ')
      echo "bench $fmt gpu=$gpu rep=$rep rc=$rc wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b - a}') total=$total run_formation=$rf merge=$mg $be $g" >> "$S"
    done
    cmp /dev/shm/out-$fmt-off.bin /dev/shm/out-$fmt-on.bin && echo "bench $fmt rep=$rep outputs identical" >> "$S"
  done
  rm -f /dev/shm/out-$fmt-*.bin
done
for bytes in 800000000 1000000000 1600000000; do
  "$B/tools/bench/corank-bench" pcie --bytes $bytes >> "$S" 2>&1
done
rm -f /dev/shm/u64.bin /dev/shm/gensort.bin "$OUT/stats.json" "$OUT/verbose.tmp"
cat "$S"
