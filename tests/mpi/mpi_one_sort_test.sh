#!/usr/bin/env bash
# corank-mpi's ranks that leave the sort to rank 0 (one_sort.hpp): ranks that
# would all drive one GPU (CUDA_VISIBLE_DEVICES names one, so every local
# rank picks it; on a machine without that GPU, --gpu=auto sorts on the
# CPU), and ranks that all sort on the CPU on the cores they share (unbound
# here: mpi_env.sh). Rank 0 sorts every record where the inputs lie and the
# others sort nothing; the output is corank's, in place, under -u (sorted
# into -T, then moved) and into part files, for 2 and 3 ranks.
#   mpi_one_sort_test.sh BUILD_DIR [MPIRUN]
set -euo pipefail
mpirun=${2:-mpirun}
test_name=mpi-one-sort-test
source "$(dirname "$0")/mpi_env.sh"
gen=$build/tools/gen/corank-gen
"$gen" -n 20000 --dist uniform --seed 3 -o part-a.dat
"$gen" -n 30000 --dist uniform --seed 4 -o part-b.dat
# corank's output for each way the pieces are written (part files concatenate
# to the whole): ref-, ref--u.
"$corank" --gpu=off --format gensort -o ref- part-a.dat part-b.dat
"$corank" --gpu=off --format gensort -u -o ref--u part-a.dat part-b.dat

for np in 2 3; do
  for case in "one GPU:--gpu=auto" "their cores:--gpu=off"; do
    for way in "" "-u" "--part-files"; do
      name="gensort, ranks sharing ${case%%:*} ${way:-in place}"
      rm -f out out.part-* stats.json
      if ! CUDA_VISIBLE_DEVICES=0 "$mpirun" --allow-run-as-root --oversubscribe -np "$np" "$mpi" "${case#*:}" \
        --format gensort $way --verify --stats stats.json -o out part-a.dat part-b.dat; then
        fail "$name: corank-mpi failed"
        continue
      fi
      if [ "$way" = --part-files ]; then cat out.part-* > out; fi
      cmp -s "ref-${way/--part-files/}" out || fail "$name: output differs from corank's"
      [ "$(grep -c '"one_sort": true' stats.json)" -eq "$np" ] || fail "$name: not every rank left the sort to rank 0"
      [ "$(grep -c '"whole_input": true' stats.json)" -eq 1 ] || fail "$name: rank 0 did not sort the inputs where they lie"
      echo "$name: np=$np one sort"
    done
  done
done

finish "all one-sort cases passed"
