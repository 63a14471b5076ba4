#!/usr/bin/env bash
# Peak RSS against -S: log lines (corank-loggen) and gensort records of MB
# MiB each, sorted file to file on the CPU at each budget, with no open-file
# limit and under `ulimit -n 32`. Prints a Markdown table: the peak RSS of
# the sort, the program's own (the same command on a two-record input), and
# (peak - own) / S, which the budget promises to keep within 1.1.
#   tools/rss-table.sh BUILD_DIR WORK_DIR [MB] [BUDGETS...]
# (defaults: 2048 MiB; 5M 10M 50M 100M 200M 500M 1G). WORK_DIR holds the
# inputs, the output and the runs; it is removed at the end.
set -euo pipefail
bin=${1:?usage: rss-table.sh BUILD_DIR WORK_DIR [MB] [BUDGETS...]}
work=${2:?usage: rss-table.sh BUILD_DIR WORK_DIR [MB] [BUDGETS...]}
mb=${3:-2048}
shift $(( $# < 3 ? $# : 3 ))
budgets=("$@")
[ "${#budgets[@]}" -gt 0 ] || budgets=(5M 10M 50M 100M 200M 500M 1G)
corank=$bin/src/corank
mkdir -p "$work/tmp"
trap 'rm -rf "$work"' EXIT
"$bin/tools/gen/corank-gen" --format gensort --seed 11 --bytes "${mb}M" -o "$work/g"
"$bin/tools/loggen/corank-loggen" --size "${mb}M" --seed 11 -o "$work/t"
printf 'b\na\n' > "$work/tiny.t"
head -c 200 "$work/g" > "$work/tiny.g"

# peak LIMIT ARGS...: the sort's peak RSS in KiB into kib, its seconds into secs.
peak() {
  local lim=$1 t0 rc=0; shift
  t0=$(date +%s.%N)
  (if [ "$lim" != none ]; then ulimit -n "$lim"; fi
   exec /usr/bin/time -f %M -o "$work/rss" "$corank" --gpu=off "$@" -T "$work/tmp" -o "$work/out") \
    2> "$work/err" || rc=$?
  if [ "$rc" != 0 ]; then echo "exit $rc: $(head -c 300 "$work/err")" >&2; exit 1; fi
  kib=$(tail -n 1 "$work/rss")
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
}

echo "| input | -S | ulimit -n | peak RSS (MiB) | own (MiB) | (peak - own) / S | seconds |"
echo "|---|---|---|---|---|---|---|"
for f in t g; do
  fa=(); name="${mb} MiB log lines"
  [ "$f" = g ] && fa=(--format gensort) name="${mb} MiB gensort"
  for S in "${budgets[@]}"; do
    for n in none 32; do
      peak "$n" "${fa[@]}" -S "$S" "$work/tiny.$f"
      own=$kib
      peak "$n" "${fa[@]}" -S "$S" "$work/$f"
      "$corank" "${fa[@]}" -c "$work/out" || { echo "$name -S $S: output not in order" >&2; exit 1; }
      [ -z "$(ls -A "$work/tmp")" ] || { echo "$name -S $S: left in -T" >&2; exit 1; }
      s_kib=$(( $(numfmt --from=iec "$S") / 1024 ))
      awk -v name="$name" -v S="$S" -v n="$n" -v k="$kib" -v o="$own" -v s="$s_kib" -v t="$secs" \
        'BEGIN { printf "| %s | %s | %s | %.1f | %.1f | %.3f | %s |\n", name, S, n, k / 1024, o / 1024, (k - o) / s, t }'
    done
  done
done
