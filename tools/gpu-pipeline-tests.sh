#!/usr/bin/env bash
# The GPU pipeline's tests on a CUDA machine: the record device and transfer
# ring tests, the end-to-end GPU CLI tests, the kernel tests, and beside them
# the core, CLI, lines, CSV, JSON lines, compress-program and I/O suites
# (which use the GPU here where they are large enough), and the nearly
# sorted suite again with every sort --gpu=on; then compute-sanitizer
# memcheck and racecheck of the record device on its small cases.
#   tools/gpu-pipeline-tests.sh BIN_DIR OUT_DIR
# BIN_DIR is a build tree. GPU_SUITES and CPU_SUITES pick test binaries (as
# paths under tests/; default: all); SANITIZE=0 skips the sanitizers. The
# summary is printed last and saved as OUT_DIR/summary.txt.
set -u
B=$(cd "$1" && pwd)
OUT=$2
mkdir -p "$OUT"
S="$OUT/summary.txt"
: > "$S"
export CORANK_BIN_DIR=$B
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >> "$S" 2>&1
echo "cpus: $(nproc)  mem: $(free -g | awk '/Mem:/{print $2}') GiB  date: $(date -u +%F)" >> "$S"

summarize() {  # name rc log
  echo "$1 rc=$2 $(grep -E '^\[  (PASSED|SKIPPED) +\] [0-9]+ test|^\[  FAILED  \]|ERROR SUMMARY|RACECHECK SUMMARY' "$3" | tr '\n' ' ')" >> "$S"
}
run_suite() {  # tests/PATH [NAME]: runs it, logs under OUT as NAME, one summary line
  local t=$1 name=${2:-${1#*/}}
  [ -x "$B/tests/$t" ] || { echo "$name missing" >> "$S"; return; }
  timeout "${TEST_LIMIT_S:-400}" "$B/tests/$t" > "$OUT/$name.log" 2>&1
  summarize "$name" $? "$OUT/$name.log"
}
# The GPU suites one after another (each takes most of the device's memory);
# the CPU suites beside them, all at once.
for t in ${CPU_SUITES-src/corank_core_test cli/corank_cli_test cli/corank_lines_test cli/corank_csv_test cli/corank_jsonl_test cli/corank_compress_program_test io/corank_io_test cli/corank_limits_test cli/corank_input_integrity_test cli/corank_nearly_sorted_test cli/corank_rejects_test cli/corank_crash_safety_test cli/corank_single_key_test cli/corank_pgtext_test cli/corank_options_test cli/corank_terminal_test mpi/corank_mpi_stages_test}; do
  run_suite "$t" &
done
for t in ${GPU_SUITES-gpu/corank_gpu_record_test gpu/corank_gpu_cli_test gpu/corank_gpu_test gpu/corank_gpu_host_test}; do
  run_suite "$t"
done
# Nearly sorted lines, CSV and JSON lines with every chunk sorted on the GPU.
[[ -n ${GPU_SUITES+set} ]] || CORANK_NEARLY_GPU=1 run_suite cli/corank_nearly_sorted_test corank_nearly_sorted_test_on_gpu
wait
[[ ${SANITIZE:-1} == 1 ]] || { cat "$S"; exit 0; }
small='GpuRecordSorter.SortedSegmentsMergeStably:GpuRecordSorter.UniqueContinuesAcrossSorts:GpuRecordSorter.BudgetBoundsTheCapacity:GpuTransferRing.*:GpuKeyExtraction.*'
timeout 300 "$sanitizer" --tool memcheck --error-exitcode 99 "$B/tests/gpu/corank_gpu_record_test" \
  --gtest_filter="$small" > "$OUT/memcheck.log" 2>&1
summarize memcheck $? "$OUT/memcheck.log"
timeout 300 "$sanitizer" --tool racecheck --error-exitcode 99 "$B/tests/gpu/corank_gpu_record_test" \
  --gtest_filter="$small" > "$OUT/racecheck.log" 2>&1
summarize racecheck $? "$OUT/racecheck.log"
cat "$S"
