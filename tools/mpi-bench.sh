#!/usr/bin/env bash
# The scale-out benchmark on any MPI (+CUDA) machine: one gensort input sorted
# by corank (the single process, the peer) and by corank-mpi with each count
# of ranks, in alternating rounds, each output validated valsort-style with
# corank-validate (order, record count and checksums against the input). Each
# run's line gives its time and its ratio to the single process of the same
# round, and for corank-mpi the partition skew from its --stats; the summary
# gives the best of the rounds and the ratio of the bests.
#   tools/mpi-bench.sh BIN_DIR [RECORDS] [RANKS...]
# BIN_DIR: a build tree or a copy with its layout (src/corank,
# src/mpi/corank-mpi, tools/gen/corank-gen, tools/validate/corank-validate).
# RECORDS defaults to 2*10^8 (20 GB), RANKS to "1 2". Environment: WORK_DIR
# (default /dev/shm: the input, the output and the temporaries; it needs
# about 3x the input), DIST (uniform or skewed, default uniform), ROUNDS
# (default 1; the bars take the best of 3), CORANK_ARGS (extra options for
# every run, the single process's too, e.g. "--gpu=on -S 20G"), MPI_ARGS
# (extra options for corank-mpi alone, e.g. "--exchange=always"), MPIRUN_ARGS
# (extra mpirun options; a rank's threads are all the node's threads shared
# by its ranks, so bind them to nothing, e.g. "--bind-to none", where ranks
# share a node), STATS_DIR (where each run's --stats JSON is kept, as
# mpi-bench-stats-single-ROUND.json and mpi-bench-stats-NP-ROUND.json; default:
# removed), OLD_BIN (another build's directory with the same layout: its
# corank-mpi runs too, right after each of this build's, for a comparison in
# the same run; its lines say "(old)"). One line per run goes to
# $WORK_DIR/mpi-bench-summary.txt, printed last with the best of each.
set -euo pipefail
B=$(cd "$1" && pwd)
old=""
[ -z "${OLD_BIN:-}" ] || old=$(cd "$OLD_BIN" && pwd)
records=${2:-200000000}
shift $(($# >= 2 ? 2 : $#))
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2)
work=${WORK_DIR:-/dev/shm}
dist=${DIST:-uniform}
rounds=${ROUNDS:-1}
in=$work/mpi-bench-in.dat
out=$work/mpi-bench-out.dat
summary=$work/mpi-bench-summary.txt
mpirun_args=(--oversubscribe)
[ "$(id -u)" -ne 0 ] || mpirun_args+=(--allow-run-as-root)
# shellcheck disable=SC2206
mpirun_args+=(${MPIRUN_ARGS:-})
# shellcheck disable=SC2206
extra=(${CORANK_ARGS:-})
# shellcheck disable=SC2206
mpi_extra=(${MPI_ARGS:-})
stats_dir=${STATS_DIR:-$work}
mkdir -p "$work" "$stats_dir"
trap 'rm -f "$in" "$out"; [ -n "${STATS_DIR:-}" ] || rm -f "$work"/mpi-bench-stats-*.json' EXIT

gpus=$(nvidia-smi -L 2>/dev/null | wc -l || true)
echo "date: $(date -u '+%F %T')  cpus: $(nproc)  gpus: $gpus  mem: $(free -g | awk '/Mem:/{print $2}') GiB  work: $work" | tee "$summary"
echo "input: $records gensort records ($dist) in $in; options: ${extra[*]:-none}; corank-mpi: ${mpi_extra[*]:-none}; mpirun: ${mpirun_args[*]}" | tee -a "$summary"
"$B/tools/gen/corank-gen" -n "$records" --dist "$dist" -o "$in"

seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
valid() { "$B/tools/validate/corank-validate" --format gensort --input "$in" "$out" >/dev/null 2>&1 && echo valid || echo INVALID; }
# The best time of each program so far, by name ("single", "np1", ...).
declare -A best
keep_best() { best[$1]=$(awk -v a="${best[$1]:-}" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'); }

for round in $(seq 1 "$rounds"); do
  rm -f "$out"
  start=$(date +%s.%N)
  "$B/src/corank" --format gensort -T "$work" "${extra[@]}" --stats "$stats_dir/mpi-bench-stats-single-$round.json" \
    -o "$out" "$in"
  single=$(seconds "$start" "$(date +%s.%N)")
  keep_best single "$single"
  printf 'round %d  single process: %s s  %s\n' "$round" "$single" "$(valid)" | tee -a "$summary"
  for np in "${ranks[@]}"; do
    for tag in "" ${old:+old}; do
      bin=$B
      [ -z "$tag" ] || bin=$old
      rm -f "$out"
      stats=$stats_dir/mpi-bench-stats-$np${tag:+-$tag}-$round.json
      start=$(date +%s.%N)
      mpirun "${mpirun_args[@]}" -np "$np" "$bin/src/mpi/corank-mpi" --format gensort -T "$work" "${extra[@]}" \
        "${mpi_extra[@]}" --stats "$stats" -o "$out" "$in"
      took=$(seconds "$start" "$(date +%s.%N)")
      keep_best "np$np$tag" "$took"
      skew=$(sed -n 's/.*"partition_skew": *\([0-9.e+-]*\).*/\1/p' "$stats" | head -1)
      # Ranks that left the sort to rank 0 (one_sort.hpp) have one part.
      grep -q '"one_sort": true' "$stats" && skew="- (rank 0 sorted every record)"
      sorts=$(sed -n 's/.*"backend": *"\([a-z]*\)".*/\1/p' "$stats" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')
      printf 'round %d  %d rank(s)%s: %s s  %.2fx the single process  skew %s  backends: %s %s\n' "$round" "$np" \
        "${tag:+ ($tag)}" "$took" "$(awk -v a="$took" -v b="$single" 'BEGIN { print a / b }')" "$skew" "$sorts" \
        "$(valid)" | tee -a "$summary"
    done
  done
done
echo "best of $rounds: single process ${best[single]} s" | tee -a "$summary"
for np in "${ranks[@]}"; do
  for tag in "" ${old:+old}; do
    printf 'best of %d: %d rank(s)%s %s s  %.2fx the single process\n' "$rounds" "$np" "${tag:+ ($tag)}" \
      "${best[np$np$tag]}" "$(awk -v a="${best[np$np$tag]}" -v b="${best[single]}" 'BEGIN { print a / b }')" |
      tee -a "$summary"
  done
done
echo "---"
cat "$summary"
