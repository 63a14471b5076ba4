#!/usr/bin/env bash
# gpu-check.sh LOGDIR [BINDIR]: on a CUDA machine, run every GPU test
# executable, compute-sanitizer memcheck and racecheck on the small test
# cases, and the merge benchmark; one log per step in LOGDIR, a summary table
# printed last (and saved as LOGDIR/summary.txt).
#
# BINDIR holds corank_gpu_host_test, corank_gpu_test and corank-bench; by
# default the script's own directory if they are there, else build/.
# Environment:
#   BENCH_ARGS    arguments for 'corank-bench merge' (default: its default sweep)
#   SWEEP_ARGS    if set, a second benchmark run with --sweep and these arguments
#   SANITIZE_S    time limit per sanitizer run in seconds (default 240)
#   SKIP_BENCH=1  tests and sanitizers only
set -u

out=${1:?usage: gpu-check.sh LOGDIR [BINDIR]}
here=$(cd "$(dirname "$0")" && pwd)
bin=${2:-}
if [[ -z $bin ]]; then
  if [[ -x $here/corank_gpu_test ]]; then bin=$here; else bin=$here/../build; fi
fi
find_exe() { # name -> path (flat copy or build tree)
  for p in "$bin/$1" "$bin/tests/gpu/$1" "$bin/tools/bench/$1"; do [[ -x $p ]] && { echo "$p"; return; }; done
  echo "missing:$1"
}
host_test=$(find_exe corank_gpu_host_test)
gpu_test=$(find_exe corank_gpu_test)
bench=$(find_exe corank-bench)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
mkdir -p "$out"

summary=()
# step NAME LIMIT_S CMD...: runs CMD with a time limit, log in $out/NAME.log.
step() {
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  echo "== $name: $*" | tee -a "$out/commands.txt"
  timeout --kill-after=10 "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  local info=""
  if grep -q '^\[==========\]' "$out/$name.log"; then
    local passed failed skipped
    passed=$(grep -oP '^\[  PASSED  \] \K[0-9]+' "$out/$name.log" | tail -1)
    failed=$(grep -oP '^\[  FAILED  \] \K[0-9]+(?= test)' "$out/$name.log" | tail -1)
    skipped=$(grep -oP '^\[  SKIPPED \] \K[0-9]+(?= test)' "$out/$name.log" | tail -1)
    info="passed=${passed:-0} failed=${failed:-0} skipped=${skipped:-0}"
  fi
  local san
  san=$(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/$name.log" | tail -1)
  [[ -n $san ]] && info="$info | $san"
  [[ $rc -eq 124 || $rc -eq 137 ]] && info="$info | TIMED OUT after ${limit}s"
  summary+=("$(printf '%-14s rc=%-3s %4ss  %s' "$name" "$rc" "$((SECONDS - t0))" "$info")")
}

nvidia-smi -L >"$out/device.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.limit --format=csv >>"$out/device.txt" 2>&1
date -u >>"$out/device.txt"

step host_test 60 "$host_test"
step gpu_test 300 "$gpu_test"
if [[ ${SKIP_BENCH:-0} != 1 ]]; then
  # shellcheck disable=SC2086
  step bench 400 "$bench" merge ${BENCH_ARGS:-}
  if [[ -n ${SWEEP_ARGS:-} ]]; then
    # shellcheck disable=SC2086
    step sweep 300 "$bench" merge --sweep $SWEEP_ARGS
  fi
fi
# Small cases only: the million-element and 2^31 cases would take hours
# under instrumentation. The tests that provoke API errors on purpose (a
# 4 PiB cudaMalloc, an invalid launch) are left out, since memcheck reports
# every failing API call. basic uses no shared memory, so racecheck skips it.
san_s=${SANITIZE_S:-240}
step memcheck "$san_s" "$sanitizer" --tool memcheck --leak-check full --error-exitcode 99 \
  "$gpu_test" --gtest_filter='-*Medium*:*Large*:*AllocationFailure*:CudaError.BadLaunch*'
step racecheck "$san_s" "$sanitizer" --tool racecheck --error-exitcode 99 \
  "$gpu_test" --gtest_filter='Merge*Test/*tiled*.*:Merge*Test/*circular*.*:Merge*Test/*tuned*.*:-*Medium*:*Large*'

{
  echo
  echo "==== gpu-check summary ($(head -1 "$out/device.txt"))"
  printf '%s\n' "${summary[@]}"
  if [[ -f $out/bench.log ]]; then
    echo "---- bench: tuned/automatic vs thrust"
    grep -E '^#|^type|automatic|thrust ' "$out/bench.log"
  fi
  if [[ -f $out/sweep.log ]]; then
    echo "---- sweep"
    grep -E 'thrust |tuned<|automatic' "$out/sweep.log"
  fi
} | tee "$out/summary.txt"
