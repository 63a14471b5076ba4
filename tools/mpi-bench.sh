#!/usr/bin/env bash
# The scale-out benchmark on any MPI (+CUDA) machine: one gensort input sorted
# by corank-mpi with 1 rank, then with N ranks (one GPU each where there are
# GPUs), each output validated valsort-style with corank-validate (order,
# record count and checksums against the input) and the partition skew of
# every run printed from its --stats.
#   tools/mpi-bench.sh BIN_DIR [RECORDS] [RANKS...]
# BIN_DIR: a build tree (src/mpi/corank-mpi, tools/gen/corank-gen,
# tools/validate/corank-validate). RECORDS defaults to 2*10^8 (20 GB), RANKS to
# "1 2". Environment: WORK_DIR (default /dev/shm: the input, the output and
# the ranks' temporaries; it needs about 3x the input), DIST (uniform or
# skewed, default uniform), CORANK_ARGS (extra options for every run, e.g.
# "--gpu=on -S 20G"), MPIRUN_ARGS (extra mpirun options; a rank's threads are
# all the node's threads shared by its ranks, so bind them to nothing, e.g.
# "--bind-to none", where ranks share a node), STATS_DIR (where each run's
# --stats JSON is kept, as mpi-bench-stats-NP.json; default: removed). One
# line per run goes to $WORK_DIR/mpi-bench-summary.txt, printed last.
set -euo pipefail
B=$(cd "$1" && pwd)
records=${2:-200000000}
shift $(($# >= 2 ? 2 : $#))
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2)
work=${WORK_DIR:-/dev/shm}
dist=${DIST:-uniform}
in=$work/mpi-bench-in.dat
out=$work/mpi-bench-out.dat
summary=$work/mpi-bench-summary.txt
mpirun_args=(--oversubscribe)
[ "$(id -u)" -ne 0 ] || mpirun_args+=(--allow-run-as-root)
# shellcheck disable=SC2206
mpirun_args+=(${MPIRUN_ARGS:-})
# shellcheck disable=SC2206
extra=(${CORANK_ARGS:-})
stats_dir=${STATS_DIR:-$work}
mkdir -p "$stats_dir"
trap 'rm -f "$in" "$out"; [ -n "${STATS_DIR:-}" ] || rm -f "$work"/mpi-bench-stats-*.json' EXIT

gpus=$(nvidia-smi -L 2>/dev/null | wc -l || true)
echo "date: $(date -u '+%F %T')  cpus: $(nproc)  gpus: $gpus  mem: $(free -g | awk '/Mem:/{print $2}') GiB  work: $work" | tee "$summary"
echo "input: $records gensort records ($dist) in $in" | tee -a "$summary"
"$B/tools/gen/corank-gen" -n "$records" --dist "$dist" -o "$in"

for np in "${ranks[@]}"; do
  rm -f "$out"
  stats=$stats_dir/mpi-bench-stats-$np.json
  start=$(date +%s.%N)
  mpirun "${mpirun_args[@]}" -np "$np" "$B/src/mpi/corank-mpi" --format gensort -T "$work" "${extra[@]}" \
    --stats "$stats" -o "$out" "$in"
  end=$(date +%s.%N)
  valid=$("$B/tools/validate/corank-validate" --format gensort --input "$in" "$out" >/dev/null 2>&1 && echo valid || echo INVALID)
  skew=$(sed -n 's/.*"partition_skew": *\([0-9.e+-]*\).*/\1/p' "$stats" | head -1)
  sorts=$(sed -n 's/.*"backend": *"\([a-z]*\)".*/\1/p' "$stats" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')
  printf '%d rank(s): %.2f s  skew %s  backends: %s %s\n' "$np" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$skew" "$sorts" "$valid" |
    tee -a "$summary"
done
echo "---"
cat "$summary"
