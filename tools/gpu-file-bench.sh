#!/usr/bin/env bash
# File-to-file gensort sort on a GPU machine: corank --gpu=on against a copy of
# the same number of bytes through corank's I/O engine, and against GNU sort
# with the input cached in RAM, in the same run.
#   tools/gpu-file-bench.sh BIN_DIR OUT_DIR [RECORDS] [WORK_DIR]
# BIN_DIR holds src/corank, tools/gen/corank-gen, tools/bench/corank-bench (a
# build tree does). RECORDS defaults to 10^8 (10 GB); WORK_DIR to /tmp.
# Environment: GNU_SORT=0 skips the GNU sort step; CORANK_ARGS adds options to
# every corank run (e.g. "-S 4G" to make runs spill); CACHE_MODES picks the
# input states of the --gpu=on runs ("cold warm"); CPU_RUN=0 skips the
# --gpu=off run. One line per measurement goes to OUT_DIR/summary.txt,
# printed last.
set -u
B=$(cd "$1" && pwd)
OUT=$2
records=${3:-100000000}
work=${4:-/tmp}
mkdir -p "$OUT"
S="$OUT/summary.txt"
: > "$S"
threads=$(nproc)
in=$work/file-bench-in.txt
out=$work/file-bench-out.txt
gnu=$work/file-bench-gnu.txt

drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || echo "(page cache not dropped: not root)" >> "$S"; }
seconds() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
note() { echo "$*" | tee -a "$S"; }

note "date: $(date -u +%F)  cpus: $threads  mem: $(free -g | awk '/Mem:/{print $2}') GiB  work: $work ($(df -h "$work" | awk 'NR==2{print $2}'))"
"$B/tools/gen/corank-gen" --format gensort-ascii -n "$records" --seed 11 -o "$in"
bytes=$(stat -c %s "$in")
note "input: $records gensort-ascii records, $bytes bytes"

# The copy peer: read and write the same number of bytes through the engine
# (O_DIRECT, fsync), page cache dropped first; its own scratch file.
"$B/tools/bench/corank-bench" io --file "$work/file-bench-copy" --size "$bytes" --repeat 1 > "$OUT/io.log" 2>&1
note "io: $(grep -i -E 'copy|write|read' "$OUT/io.log" | tr -s ' ' | tr '\n' ';')"
rm -f "$work"/file-bench-copy*

for cache in ${CACHE_MODES:-cold warm}; do
  if [ $cache = cold ]; then drop_caches; else cat "$in" > /dev/null; fi
  t=$(seconds "$B/src/corank" --format gensort ${CORANK_ARGS:-} --gpu=on --verbose --stats "$OUT/stats-$cache.json" -o "$out" "$in")
  note "corank ${CORANK_ARGS:-} gpu input=$cache: $t s  $(grep -o '"mode": "[a-z-]*"\|"spilled_runs": [0-9]*\|"merge_slabs": [0-9]*\|"runs": [0-9]*\|"seconds": {[^}]*}' "$OUT/stats-$cache.json" | tr '\n' ' ')"
  "$B/tools/validate/corank-validate" --format gensort --input "$in" "$out" > "$OUT/validate-$cache.log" 2>&1 \
    && note "  validate: $(tail -1 "$OUT/validate-$cache.log")" || note "  validate FAILED: $(tail -3 "$OUT/validate-$cache.log")"
done
if [ "${CPU_RUN:-1}" = 1 ]; then
  cat "$in" > /dev/null
  t=$(seconds "$B/src/corank" --format gensort ${CORANK_ARGS:-} --gpu=off --stats "$OUT/stats-cpu.json" -o "$out" "$in")
  note "corank cpu input=warm: $t s"
fi

if [ "${GNU_SORT:-1}" = 1 ]; then
  cat "$in" > /dev/null
  t=$(seconds env LC_ALL=C sort -S 50% --parallel="$threads" -T "$work" -o "$gnu" "$in")
  note "GNU sort -S 50% --parallel=$threads input=warm: $t s"
  cmp -s "$gnu" "$out" && note "  outputs identical" || note "  outputs DIFFERENT"
fi
rm -f "$in" "$out" "$gnu"
cat "$S"
