#!/usr/bin/env bash
# Issue 31's speed bars on a log corpus (tools/logcorpus.py): corank --time
# against corank -k1,1 and GNU sort -k1,1 on the same files, alternating for
# ROUNDS rounds, wall seconds of each run; corank's -k1,1 output is compared
# with GNU's byte for byte, and --time's -v notes are kept. Each round also
# times `cat` of the inputs into one file in the same directory: reading and
# writing every byte once, what any sort of them costs at least.
#   tools/bench-logs.sh BIN_DIR CORPUS_DIR OUT_DIR
# Environment: ROUNDS (default 3), ZONE (default Europe/Berlin), S (corank's
# -S, default: corank's own default), GNU_S (GNU sort's -S, default 50%),
# THREADS (default: the CPUs), TMP (default OUT_DIR/tmp), OLD_BIN (another
# build's directory: its --time and -k1,1 run too each round, after the new
# ones', for a comparison in the same run), FSYNC (default 1; 0: corank's
# runs take --no-fsync, and so are as durable as GNU sort's output, which is
# not fsynced: on a disk whose cache flush is slow, the like-for-like
# figure), SETTLE (default 5: seconds idle before each run, after a sync that
# writes back the outputs of the runs before: neither corank with --no-fsync
# nor GNU sort waits for its output to reach the disk, and the kernel's
# writeback of one run's output would otherwise fall into the next run).
# Every run starts with the inputs read once, untimed, into the page cache: a
# VM that reclaims pages idle for a few seconds would otherwise hand some
# runs their inputs from disk. The idle seconds before it put every run in the same state: on
# a VM that hands memory freed a few seconds ago back to its host, a run that
# follows another at once finds the memory the other freed still backed and
# touches it at a tenth of the cost, so that the order of the runs would
# decide their times (BENCHMARKS.md, "What a first touch of memory costs").
set -u
bin=$(cd "${1:?usage: bench-logs.sh BIN_DIR CORPUS_DIR OUT_DIR}" && pwd)
corpus=${2:?usage: bench-logs.sh BIN_DIR CORPUS_DIR OUT_DIR}
OUT=${3:?usage: bench-logs.sh BIN_DIR CORPUS_DIR OUT_DIR}
rounds=${ROUNDS:-3} zone=${ZONE:-Europe/Berlin} threads=${THREADS:-$(nproc)}
tmp=${TMP:-$OUT/tmp}
mkdir -p "$OUT" "$tmp"
files=("$corpus"/*.log)
budget=()
[[ -n ${S:-} ]] && budget=(-S "$S")
sync=()
[[ ${FSYNC:-1} == 0 ]] && sync=(--no-fsync)
S_=$OUT/summary.txt

wall() {  # name, command...: appends "name: SECONDS rc=RC" to the summary
  local name=$1 s e rc
  shift
  # The outputs of the runs before written back first: a run must not share
  # the cores and the disk with the kernel's writeback of another's output.
  sync
  sleep "${SETTLE:-5}"
  cat "${files[@]}" > /dev/null
  s=$(date +%s.%N)
  "$@" > /dev/null 2>> "$OUT/stderr.log"
  rc=$?
  e=$(date +%s.%N)
  awk -v n="$name" -v a="$s" -v b="$e" -v r="$rc" 'BEGIN{printf "%s: %.3f rc=%d\n", n, b - a, r}' >> "$S_"
}

export LC_ALL=C
{
  echo "date: $(date -u +%F)  cpus: $(nproc)  corank: $bin"
  echo "corpus: ${#files[@]} files, $(cat "${files[@]}" | wc -c) bytes, $(cat "${files[@]}" | wc -l) lines"
  echo "corank ${budget[*]:-(default -S)} ${sync[*]:-(fsynced output)} --parallel $threads; GNU sort -S ${GNU_S:-50%} --parallel=$threads"
} >> "$S_"
builds=("$bin")
[[ -n ${OLD_BIN:-} ]] && builds+=("$(cd "$OLD_BIN" && pwd)")
time_run() {  # build dir, round, tag
  wall "round $2 corank --time$3" "$1/src/corank" --time --time-zone "$zone" "${budget[@]}" "${sync[@]}" \
    --parallel "$threads" -v -T "$tmp" -o "$OUT/time.out" "${files[@]}"
}
k1_run() {
  wall "round $2 corank -k1,1$3" "$1/src/corank" -k1,1 "${budget[@]}" "${sync[@]}" --parallel "$threads" -T "$tmp" \
    -o "$OUT/k1${3:+-old}.out" "${files[@]}"
}
for ((round = 1; round <= rounds; round++)); do
  for b in "${builds[@]}"; do
    tag=""
    [[ $b != "$bin" ]] && tag=" (old)"
    # --time first in odd rounds, -k1,1 first in even ones: neither always
    # follows GNU's run.
    if ((round % 2)); then
      time_run "$b" "$round" "$tag"
      k1_run "$b" "$round" "$tag"
    else
      k1_run "$b" "$round" "$tag"
      time_run "$b" "$round" "$tag"
    fi
  done
  wall "round $round GNU sort -k1,1" sort -k1,1 -S "${GNU_S:-50%}" --parallel="$threads" -T "$tmp" \
    -o "$OUT/gnu.out" "${files[@]}"
  wall "round $round cat (a copy)" sh -c 'cat "$@" > "$0"' "$OUT/cat.out" "${files[@]}"
done
cmp -s "$OUT/k1.out" "$OUT/gnu.out" && echo "corank -k1,1 output: identical to GNU's" >> "$S_" ||
  echo "corank -k1,1 output: DIFFERS from GNU's" >> "$S_"
if [[ -n ${OLD_BIN:-} ]]; then
  cmp -s "$OUT/k1-old.out" "$OUT/gnu.out" && echo "old corank -k1,1 output: identical to GNU's" >> "$S_" ||
    echo "old corank -k1,1 output: DIFFERS from GNU's" >> "$S_"
fi
grep -h "time:" "$OUT/stderr.log" | sort -u | sed 's/^/--time -v: /' >> "$S_"
rm -rf "$OUT"/*.out "$tmp"
cat "$S_"
