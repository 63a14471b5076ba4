#!/usr/bin/env bash
# corank-mpi killed at random points of a spilling sort (small data, tiny -S,
# 2 ranks): SIGTERM to mpirun (Ctrl-C, `timeout`, a scheduler), which passes
# it on to the ranks, and SIGKILL to the ranks themselves (an OOM kill, a
# power cut). Afterwards the inputs are unchanged and the target holds its
# old bytes or the whole sorted output (part files too, but that a SIGKILL
# that falls between two ranks' renames may leave some parts new and others
# old, each whole: part_files.hpp); nothing is left in -T or beside the
# target after SIGTERM, and after SIGKILL nothing but names of the dead job,
# which the next corank-mpi on the host removes. In one shared output, and
# with --part-files.
#   mpi_kill_test.sh BUILD_DIR [MPIRUN] [ROUNDS]
# KILL_SEED picks the kill points (default 1; the points are printed).
set -euo pipefail
mpirun=${2:-mpirun}
rounds=${3:-3}
test_name=mpi-kill
source "$(dirname "$0")/mpi_env.sh"
RANDOM=${KILL_SEED:-1}
# Open MPI's shared-memory segments, which a rank killed outright cannot
# remove: in the scratch directory, removed with it (not /dev/shm).
mkdir -p shm
export OMPI_MCA_btl_vader_backing_directory=$work/shm
# mpirun passes SIGTERM on to the ranks and SIGKILLs those still running a
# second later (odls_base_sigkill_timeout): under a sanitizer on two busy
# cores a rank may not have acted on it by then (once, in the sanitizer
# job, a SIGTERM case left the shared output's name). The SIGTERM cases
# are about what the ranks do with the signal, the SIGKILL cases about what
# a kill leaves, so mpirun waits 3 s here (it waits that long after every
# SIGTERM, whether the ranks have ended or not).
export OMPI_MCA_odls_base_sigkill_timeout=3

mkdir -p in tmp out pids
awk 'BEGIN { srand(5); for (i = 0; i < 200000; i++) printf "w%d %d\n", int(rand() * 5000000), i }' > in/words.txt
sum_in=$(cksum < in/words.txt)
"$corank" --gpu=off -o ref in/words.txt
printf 'an earlier result, to be kept\n' > earlier

# Rank r writes its process id to pids/rank-r, then becomes corank-mpi.
start() {
  rm -f pids/*
  # (timeout: mpirun itself may hang when a rank is killed while it starts)
  timeout -k 5 120 "$mpirun" --allow-run-as-root --oversubscribe -np 2 \
    sh -c 'echo $$ > pids/rank-$OMPI_COMM_WORLD_RANK; exec "$0" "$@"' \
    "$mpi" --gpu=off --parallel 1 -S 1M -T "$work/tmp" "$@" in/words.txt > /dev/null 2> err &
  job=$!
}

# The sorted bytes in the target: one file, or the part files.
target_bytes() {
  if [ "$1" = parts ]; then cat out/sorted.part-* 2> /dev/null; else cat out/sorted 2> /dev/null; fi
}

# Whether each part file is whole, old or new: part 0 old and part 1 the
# sorted output's end, or part 0 its start and part 1 old.
whole_parts() {
  local p0 p1 n0 n1
  p0=out/sorted.part-00000 p1=out/sorted.part-00001
  n0=$(stat -c %s $p0) n1=$(stat -c %s $p1)
  { cmp -s earlier $p0 && tail -c "$n1" ref | cmp -s - $p1; } ||
    { cmp -s earlier $p1 && head -c "$n0" ref | cmp -s - $p0; }
}

# What a run leaves beside the target and in -T, but the target itself.
leftovers() { ls -A out tmp | grep -vE '^(out|tmp):$|^$|^sorted(\.part-[0-9]+)?$' || true; }

# How long an undisturbed run takes, in ms: kill points fall within it.
t0=$(date +%s%N)
start -o "$work/out/sorted"
wait $job || { cat err; fail "the undisturbed run failed"; }
span=$(( ($(date +%s%N) - t0) / 1000000 ))
cmp -s ref out/sorted || fail "the undisturbed run's output differs from corank's"
echo "an undisturbed run: $span ms"

for round in $(seq "$rounds"); do
  for sig in TERM KILL; do
    for mode in one parts; do
      rm -rf out/* out/.??* && cp earlier out/sorted
      if [ "$mode" = parts ]; then
        cp earlier out/sorted.part-00000 && cp earlier out/sorted.part-00001
        opts=(--part-files -o "$work/out/sorted")
      else
        opts=(-o "$work/out/sorted")
      fi
      before=$(target_bytes $mode | cksum)
      delay=$((span / 5 + RANDOM % (span - span / 5)))
      start "${opts[@]}"
      sleep "$(awk -v ms=$delay 'BEGIN { printf "%.3f", ms / 1000 }')"
      if [ "$sig" = TERM ]; then
        kill -TERM $job 2> /dev/null || true
      else
        for _ in $(seq 50); do [ "$(ls pids | wc -l)" -eq 2 ] && break; sleep 0.1; done  # both ranks started
        for p in pids/*; do kill -KILL "$(cat "$p")" 2> /dev/null || true; done
      fi
      rc=0
      wait $job || rc=$?
      # mpirun may end before its ranks have: what a rank removes as it ends
      # by the signal is judged once it has ended.
      for p in pids/*; do
        for _ in $(seq 100); do kill -0 "$(cat "$p")" 2> /dev/null || break; sleep 0.1; done
      done
      label="SIG$sig after $delay ms ($mode output)"
      after=$(target_bytes $mode | cksum)
      sorted=$(cmp -s ref <(target_bytes $mode) && echo yes || echo no)
      if [ "$after" != "$before" ] && [ "$sorted" = no ]; then
        if [ "$sig" = KILL ] && [ "$mode" = parts ] && whole_parts; then
          sorted=mixed  # a rank killed during the renames (part_files.hpp)
        else
          fail "$label: the target holds neither its old bytes nor the sorted output"
        fi
      fi
      [ "$(cksum < in/words.txt)" = "$sum_in" ] || fail "$label: the input changed"
      left=$(leftovers)
      if [ -n "$left" ] && [ "$sig" = KILL ]; then
        # Names of the dead job only, which the next run on the host removes.
        echo "$label: left $(echo $left), for the next run to remove"
        "$mpirun" --allow-run-as-root --oversubscribe -np 2 "$mpi" --gpu=off -T "$work/tmp" -o "$work/out/other" \
          "$work/earlier" > /dev/null || fail "$label: the next run failed"
        rm -f out/other
        left=$(leftovers)
      fi
      if [ -n "$left" ]; then
        fail "$label: left $(echo $left)"
        sed 's/^/  mpirun said: /' err | tail -5
        for p in pids/*; do echo "  $(basename "$p"): process $(cat "$p") $(kill -0 "$(cat "$p")" 2> /dev/null && echo alive || echo ended)"; done
      fi
      echo "$label: exit $rc, target $(case $sorted in yes) echo sorted ;; no) echo unchanged ;; *) echo "$sorted" ;; esac)"
    done
  done
done

finish "all kill cases passed"
