#!/usr/bin/env bash
# The sanitizer job: builds corank with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer over the whole tree (CORANK_BUILD_FUZZERS=ON), runs
# every test but those labelled "repeat" (a test again with another I/O engine
# or rank count, whose paths the others take) and "kill" (processes killed
# outright, on which no sanitizer reports; the release job runs it), the
# sweeps of option sets under budgets rotating through the budgets and
# corank-mpi's rank-count cases (CORANK_TEST_SWEEP=rotate:
# tests/cli/cli_test_util.hpp, tests/mpi/mpi_sort_test.sh), then every
# libFuzzer target for FUZZ_SECONDS each.
#   tools/sanitize.sh [BUILD_DIR=build-sanitize]
# Installs clang and libFuzzer's runtime when missing (Debian: clang-14,
# libclang-rt-14-dev, or the default clang). Any report fails the job.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-sanitize}
secs=${FUZZ_SECONDS:-30}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [ -z "$cxx" ] || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang-14 libclang-rt-14-dev >/dev/null
  cxx=$(command -v clang++-14)
fi
cc=${cxx/clang++/clang}
# Release-like speed with line numbers in reports (line tables only: the
# reports need no more debug information than that); the tests need the
# tools, but not corank-bench; that each header compiles alone is the
# release build's check, and runs nothing to instrument.
CC=$cc CXX=$cxx cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCORANK_ENABLE_CUDA=OFF \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" -DCORANK_BUILD_FUZZERS=ON -DCORANK_BUILD_BENCH=OFF \
  -DCORANK_CHECK_HEADERS=OFF >/dev/null
start=$SECONDS
cmake --build "$build" -j"$(nproc)"
echo "sanitize: build took $((SECONDS - start)) s" >&2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export CORANK_TEST_SWEEP=${CORANK_TEST_SWEEP:-rotate}
start=$SECONDS
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 1500 --label-exclude "^(repeat|kill)$"
echo "sanitize: tests took $((SECONDS - start)) s" >&2
start=$SECONDS
tools/fuzz-smoke.sh "$build" "$secs"
echo "sanitize: fuzzing took $((SECONDS - start)) s" >&2
