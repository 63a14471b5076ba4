#!/usr/bin/env bash
# corank-mpi end to end on the CPU path: for NP ranks, every case's output is
# byte-identical to corank's single-process sort of the same input.
#   mpi_sort_test.sh BUILD_DIR NP [MPIRUN]
# Prints each case and the measured partition skew; asserts skew <= 1.05 only
# on inputs large enough for it to mean something (>= 10^5 records).
set -euo pipefail
build=$(cd "$1" && pwd)
np=$2
mpirun=${3:-mpirun}
corank=$build/src/corank
mpi=$build/src/mpi/corank-mpi
gen=$build/tools/gen/corank-gen
here=$(cd "$(dirname "$0")" && pwd)
# Under tools/sanitize.sh: Open MPI's allocations that outlive MPI_Finalize are
# not leaks of corank's. Its libraries have no frame pointers, so only the slow
# unwinder finds them in a leak's stack, and its components stay loaded to be named.
export LSAN_OPTIONS="suppressions=$here/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
if [ -n "${ASAN_OPTIONS:-}" ]; then
  export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
  export OMPI_MCA_mca_base_component_disable_dlclose=1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/corank-mpi-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# Root in a container, no network: shared memory and loopback only.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
run_mpi() { "$mpirun" --allow-run-as-root --oversubscribe -np "$np" "$mpi" --gpu=off --parallel 1 "$@"; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

skew_of() { sed -n 's/.*"partition_skew": *\([0-9.e+-]*\).*/\1/p' "$1" | head -1; }

# same NAME MIN_RECORDS_FOR_SKEW RECORDS [option]... -- INPUT...: corank and
# corank-mpi (--verify, --stats) give the same bytes.
same() {
  local name=$1 records=$2
  shift 2
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  rm -f ref out stats.json
  "$corank" --gpu=off "${opts[@]}" -o ref "$@"
  if ! run_mpi "${opts[@]}" --verify --stats stats.json -o out "$@"; then
    fail "$name: corank-mpi failed"
    return
  fi
  local skew
  skew=$(skew_of stats.json)
  echo "$name: np=$np records=$records skew=$skew"
  cmp -s ref out || fail "$name: output differs from corank's"
  if [ "$np" -gt 1 ] && [ "$records" -ge 100000 ]; then
    awk -v s="$skew" 'BEGIN { exit !(s <= 1.05) }' || fail "$name: partition skew $skew > 1.05"
  fi
}

n=100000
"$gen" -n $n --dist uniform -o uniform.dat
"$gen" -n $n --dist skewed -o skewed.dat
"$gen" -n $n --dist all-equal -o equal.dat
"$gen" -n $n --dist zipf --seed 7 -o zipf.dat
"$gen" -n 50000 --format u64 --dist few-unique -o few.u64
"$gen" -n 50000 --format i32 --dist uniform -o uniform.i32
"$gen" -n 20000 --dist uniform --seed 3 -o part-a.dat
"$gen" -n 30000 --dist uniform --seed 4 -o part-b.dat
: > empty.dat
"$gen" -n 1 -o one.dat
"$gen" -n 3 --dist all-equal -o three.dat

same "gensort uniform" $n --format gensort -- uniform.dat
same "gensort skewed" $n --format gensort -- skewed.dat
same "gensort all-equal keys (stable)" $n --format gensort -- equal.dat
same "gensort zipf -u" 0 --format gensort -u -- zipf.dat
same "gensort zipf -r" $n --format gensort -r -- zipf.dat
same "gensort -S 4M (rounds, spills)" $n --format gensort -S 4M -- skewed.dat
same "fixed:100 two keys" $n --format fixed:100 -k 10:4:bytes:desc -k 0:2 -- zipf.dat
same "u64 few-unique" 50000 --format u64 -- few.u64
same "i32 -r" 50000 --format i32 -r -- uniform.i32
same "two inputs" 50000 --format gensort -- part-a.dat part-b.dat
same "empty input" 0 --format gensort -- empty.dat
same "one record" 0 --format gensort -- one.dat
same "three records, equal keys" 0 --format gensort -- three.dat
same "empty and one" 0 --format gensort -- empty.dat one.dat empty.dat

# Lines: random words and numbers with many duplicates, one file without its
# last newline, an empty one.
awk 'BEGIN { srand(11); for (i = 0; i < 120000; i++)
  printf "%s %d,%c%c\n", (rand() < 0.3 ? "dup" : "w" int(rand() * 50000)), int(rand() * 1000), 97 + int(rand() * 26), 97 + i % 26 }' > words.txt
printf 'zeta 5\nalpha 10\nalpha 2' > tail.txt
: > empty.txt
same "lines" 120000 -- words.txt
same "lines -n -k2,2" 0 -n -k2,2 -- words.txt
same "lines -s -k1,1 (stable)" 120000 -s -k1,1 -- words.txt
same "lines -u -k1,1" 0 -u -k1,1 -- words.txt
same "lines -r -t, -k2" 0 -r -t, -k2 -- words.txt
same "lines, several files" 0 -- tail.txt empty.txt words.txt tail.txt
same "lines, no final newline" 0 -- tail.txt
same "lines, empty" 0 -- empty.txt
head -c 64 uniform.dat > random-source
same "lines -R -k1,1 --random-source" 0 -R -k1,1 --random-source random-source -- words.txt
tr '\n' '\0' < words.txt > words.z
same "lines -z -k1,1 -s" 0 -z -k1,1 -s -- words.z

# Part files concatenate to the sorted whole; one per rank.
rm -f parts.part-*
"$corank" --gpu=off --format gensort -o ref skewed.dat
run_mpi --format gensort --part-files -o parts skewed.dat || fail "part files: corank-mpi failed"
count=$(ls parts.part-* | wc -l)
[ "$count" -eq "$np" ] || fail "part files: $count parts for $np ranks"
cat parts.part-* | cmp -s - ref || fail "part files: concatenation differs from corank's output"
echo "part files: $count parts"

# In place: the output names the input.
cp words.txt inplace.txt
"$corank" --gpu=off -o ref words.txt
run_mpi -o inplace.txt inplace.txt || fail "in place: corank-mpi failed"
cmp -s ref inplace.txt || fail "in place: output differs"

# A bad input: exit 2, one message from rank 0, no output, no temporaries.
mkdir -p bad
head -c 150 uniform.dat > bad/short.dat
set +e
run_mpi --format gensort -o bad/out uniform.dat bad/short.dat 2> bad/err
rc=$?
set -e
msgs=$(grep -c '^corank-mpi:' bad/err || true)
echo "bad input: rc=$rc, $(grep '^corank-mpi:' bad/err | head -1)"
[ "$rc" -ne 0 ] || fail "bad input: exit status 0"
[ "$msgs" -eq 1 ] || { cat bad/err; fail "bad input: $msgs messages, want 1"; }
grep -q 'not a multiple of the record size' bad/err || fail "bad input: message does not say why"
[ "$(ls -A bad)" = "$(printf 'err\nshort.dat')" ] || fail "bad input: left $(ls -A bad | tr '\n' ' ')"

# An unwritable output directory: the same, no partial output.
set +e
run_mpi --format gensort -o /nonexistent-dir/out uniform.dat 2> bad/err2
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$(grep -c '^corank-mpi:' bad/err2)" -eq 1 ] || { cat bad/err2; fail "unwritable output: rc=$rc"; }
# A failure on rank 0 alone (its --stats target): the others stop too.
set +e
run_mpi --format gensort --stats /nonexistent-dir/stats.json -o bad/out4 uniform.dat 2> bad/err4
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$(grep -c '^corank-mpi:' bad/err4)" -eq 1 ] && [ ! -e bad/out4 ] ||
  { cat bad/err4; fail "rank 0 failing alone: rc=$rc"; }
# Usage errors the distributed sort refuses.
set +e
run_mpi --format csv -o bad/out3 words.txt 2> bad/err3
rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q 'not distributed' bad/err3 || fail "csv: not refused clearly"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all cases passed with $np rank(s)"
