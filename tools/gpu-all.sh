#!/usr/bin/env bash
# Every GPU test and benchmark of corank on a CUDA machine, in one go:
#   tools/gpu-all.sh BIN_DIR OUT_DIR
# BIN_DIR is a build tree (or a copy with its layout: src/corank,
# tools/gen/corank-gen, tools/bench/corank-bench, tools/loggen/corank-loggen,
# tests/*/corank_*_test).
# Parts, each with its own logs under OUT_DIR:
#   check/     gpu-check.sh: kernel tests, compute-sanitizer, merge benchmark
#   tests/     gpu-pipeline-tests.sh: record device, GPU CLI and the CPU suites,
#              memcheck and racecheck of the record device
#   bench/     gpu-pipeline-bench.sh: gensort and u64 in /dev/shm, data larger
#              than the GPU budget, a file on disk, each against an engine copy
#   hostsort.log  corank-bench hostsort: HOSTSORT_BYTES (default 16G) of u64
#              keys with all device memory, then with --gpu-memory 4G
#   lines.log  bench-lines.sh: LINES_SIZE (default 4G) of log lines, GNU sort
#              against corank on the CPU and the GPU, with and without fsync
#   nearly/    nearly-sorted-bench.sh, where NEARLY_OLD names the build before
#              (a BIN_DIR with src/corank): NEARLY_SIZE (default 10G) of nearly
#              sorted log lines with -S 1G, --gpu=off and --gpu=on, against the
#              engine copy, that build and GNU sort
#   mpi.log    mpi-bench.sh, where the build has corank-mpi and mpirun runs:
#              MPI_RECORDS (default 2*10^8) gensort records sorted with --gpu=on
#              by 1 rank and by one rank per GPU (at least 2), each validated
#              (for a machine without Open MPI: tools/openmpi-carry.sh)
# Environment: SKIP_CHECK=1, SKIP_TESTS=1, SKIP_BENCH_PIPELINE=1,
# SKIP_HOSTSORT=1, SKIP_LINES=1, SKIP_MPI=1 leave a part out; gpu-check.sh's and
# gpu-pipeline-bench.sh's own variables (SKIP_BENCH, PARTS, ...) pass through.
# Prints the parts' summaries last.
set -u
B=$(cd "${1:?usage: gpu-all.sh BIN_DIR OUT_DIR}" && pwd)
OUT=${2:?usage: gpu-all.sh BIN_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"

[[ ${SKIP_CHECK:-0} == 1 ]] || "$here/gpu-check.sh" "$OUT/check" "$B" > "$OUT/check.log" 2>&1
[[ ${SKIP_TESTS:-0} == 1 ]] || "$here/gpu-pipeline-tests.sh" "$B" "$OUT/tests" > "$OUT/tests.log" 2>&1
[[ ${SKIP_BENCH_PIPELINE:-0} == 1 ]] || "$here/gpu-pipeline-bench.sh" "$B" "$OUT/bench" > "$OUT/bench.log" 2>&1
if [[ ${SKIP_HOSTSORT:-0} != 1 ]]; then
  bytes=${HOSTSORT_BYTES:-16G}
  { "$B/tools/bench/corank-bench" hostsort --bytes "$bytes" --reps 3
    "$B/tools/bench/corank-bench" hostsort --bytes "$bytes" --gpu-memory 4G --reps 3; } > "$OUT/hostsort.log" 2>&1
fi

if [[ ${SKIP_LINES:-0} != 1 ]]; then
  "$here/bench-lines.sh" "$B" "${LINES_SIZE:-4G}" 32G /tmp/corank-bench-lines "$(nproc)" > "$OUT/lines.log" 2>&1
  rm -rf /tmp/corank-bench-lines
fi

if [[ -n ${NEARLY_OLD:-} ]]; then
  WORK=/tmp/corank-nearly SIZE=${NEARLY_SIZE:-10G} BUDGET=1G REPS=2 GPU="off on" SKIP="random" \
    "$here/nearly-sorted-bench.sh" "$B" "$NEARLY_OLD" "$OUT/nearly" > "$OUT/nearly.log" 2>&1
fi

if [[ ${SKIP_MPI:-0} != 1 && -x $B/src/mpi/corank-mpi ]] && command -v mpirun >/dev/null; then
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  WORK_DIR=${MPI_WORK_DIR:-/dev/shm} MPIRUN_ARGS="--bind-to none" CORANK_ARGS="--gpu=on" \
    "$here/mpi-bench.sh" "$B" "${MPI_RECORDS:-200000000}" 1 $((gpus > 2 ? gpus : 2)) > "$OUT/mpi.log" 2>&1
fi

for f in check/summary.txt tests/summary.txt bench/summary.txt hostsort.log lines.log nearly/summary.txt mpi.log; do
  if [[ -f $OUT/$f ]]; then
    echo "==== $f"
    cat "$OUT/$f"
  fi
done
