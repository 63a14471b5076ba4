#!/usr/bin/env bash
# Every GPU test and benchmark of corank on a CUDA machine, in one go:
#   tools/gpu-all.sh BIN_DIR OUT_DIR
# BIN_DIR is a build tree (or a copy with its layout: src/corank,
# tools/gen/corank-gen, tools/bench/corank-bench, tools/loggen/corank-loggen,
# tests/*/corank_*_test).
# Parts, each with its own logs under OUT_DIR:
#   check/     gpu-check.sh: kernel tests, compute-sanitizer, merge benchmark
#   pipeline/  gpu-run-formation.sh: pipeline and CLI tests, --gpu=on/off, PCIe
#   hostsort.log  corank-bench hostsort: HOSTSORT_BYTES (default 16G) of u64
#              keys with all device memory, then with --gpu-memory 4G
#   memcheck-host.log  compute-sanitizer memcheck of the host-array,
#              run-formation and prefix-sort tests on small cases
#   lines.log  bench-lines.sh: LINES_SIZE (default 4G) of log lines, GNU sort
#              against corank on the CPU and the GPU, with and without fsync
# Environment: SKIP_CHECK=1, SKIP_PIPELINE=1, SKIP_HOSTSORT=1, SKIP_MEMCHECK=1,
# SKIP_LINES=1 leave a part out; gpu-check.sh's own variables (SKIP_BENCH, BENCH_ARGS, ...)
# pass through. Prints the parts' summaries last.
set -u
B=$(cd "${1:?usage: gpu-all.sh BIN_DIR OUT_DIR}" && pwd)
OUT=${2:?usage: gpu-all.sh BIN_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

[[ ${SKIP_CHECK:-0} == 1 ]] || "$here/gpu-check.sh" "$OUT/check" "$B" > "$OUT/check.log" 2>&1
[[ ${SKIP_PIPELINE:-0} == 1 ]] || "$here/gpu-run-formation.sh" "$B" "$OUT/pipeline" > "$OUT/pipeline.log" 2>&1
if [[ ${SKIP_MEMCHECK:-0} != 1 ]]; then
  timeout 300 "$sanitizer" --tool memcheck --error-exitcode 99 "$B/tests/gpu/corank_gpu_run_sorter_test" \
    --gtest_filter='HostArraySort.EmptyAndTiny:HostArraySort.OnePass:HostArraySort.ManyRunsAndSlabs:GpuRunFormation.Stats*:GpuSlabMerger.OneWord*:PrefixSorter.Budget*' \
    > "$OUT/memcheck-host.log" 2>&1
  echo "memcheck-host rc=$? $(grep 'ERROR SUMMARY' "$OUT/memcheck-host.log" | tail -1)" > "$OUT/memcheck-host.txt"
fi
if [[ ${SKIP_HOSTSORT:-0} != 1 ]]; then
  bytes=${HOSTSORT_BYTES:-16G}
  { "$B/tools/bench/corank-bench" hostsort --bytes "$bytes" --reps 3
    "$B/tools/bench/corank-bench" hostsort --bytes "$bytes" --gpu-memory 4G --reps 3; } > "$OUT/hostsort.log" 2>&1
fi

if [[ ${SKIP_LINES:-0} != 1 ]]; then
  "$here/bench-lines.sh" "$B" "${LINES_SIZE:-4G}" 32G /tmp/corank-bench-lines "$(nproc)" > "$OUT/lines.log" 2>&1
  rm -rf /tmp/corank-bench-lines
fi

for f in check/summary.txt pipeline/summary.txt memcheck-host.txt hostsort.log lines.log; do
  if [[ -f $OUT/$f ]]; then
    echo "==== $f"
    cat "$OUT/$f"
  fi
done
