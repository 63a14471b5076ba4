#!/usr/bin/env bash
# The GPU pipeline's benchmarks on a CUDA machine, each sort against its
# peers in the same run: corank's own engine copy of the same file with all
# threads (corank-bench copy), and for gensort the CPU path.
#   tools/gpu-pipeline-bench.sh BIN_DIR OUT_DIR
# BIN_DIR holds src/corank, tools/gen/corank-gen, tools/validate/corank-validate
# and tools/bench/corank-bench (a build tree does). Parts (PARTS, default all):
#   shm   N_GENSORT (100M) gensort records, /dev/shm to /dev/shm: copy,
#         --gpu=on twice, --gpu=off once; outputs compared and validated
#   u64   N_U64 (1000M) u64 keys, /dev/shm to /dev/shm: copy, --gpu=on twice,
#         --gpu=off twice
#   big   N_BIG (300M) gensort records in /dev/shm with --gpu-memory BIG_GPU
#         (8G): runs merged slab by slab; copy, --gpu=on, validated
#   disk  N_DISK (100M) gensort records in DISK_DIR (/tmp): copy, --gpu=on
#         with the page cache dropped first, validated
# /dev/shm is remounted with SHM_OPTS (default size=110G); SHM_OPTS=
# "size=110G,huge=advise" lets the output mappings (MADV_HUGEPAGE) take huge
# pages. One line per measurement in OUT_DIR/summary.txt, printed last.
set -u
B=$(cd "${1:?usage: gpu-pipeline-bench.sh BIN_DIR OUT_DIR}" && pwd)
OUT=${2:?usage: gpu-pipeline-bench.sh BIN_DIR OUT_DIR}
mkdir -p "$OUT"
S=$OUT/summary.txt
: > "$S"
parts=${PARTS:-shm u64 big disk}
threads=$(nproc)
note() { echo "$*" | tee -a "$S"; }
wall() { local t0 t1; t0=$(date +%s.%N); "$@"; local rc=$?; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" -v r=$rc 'BEGIN{printf "%.3f rc=%d", b - a, r}'; }
stats() { grep -o '"seconds": {[^}]*}\|"gpu_seconds": {[^}]*}\|"gpu_bytes": {[^}]*}\|"runs": [0-9]*\|"merge_slabs": [0-9]*\|"spilled_runs": [0-9]*' "$1" | tr '\n' ' '; }
copy_median() { "$B/tools/bench/corank-bench" copy --input "$1" --output "$2" --reps "${3:-3}" | tee -a "$OUT/copy.log" | tail -1 | grep -o 'median [0-9.]*' | awk '{print $2}'; rm -f "$2"; }

note "date: $(date -u +%F)  cpus: $threads  mem: $(free -g | awk '/Mem:/{print $2}') GiB  $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>&1)"
mount -o "remount,${SHM_OPTS:-size=110G}" /dev/shm 2>/dev/null
note "/dev/shm: $(df -h /dev/shm | awk 'NR==2{print $2}') $(findmnt -no OPTIONS /dev/shm 2>/dev/null)"

gensort_case() {  # label in out extra-args
  local label=$1 in=$2 out=$3; shift 3
  local c; c=$(copy_median "$in" "$out.copy")
  note "$label copy (corank-bench copy, $threads threads): ${c} s"
  for rep in 1 2; do
    local t; t=$(wall "$B/src/corank" --format gensort --gpu=on -v --stats "$OUT/$label-gpu-$rep.json" -o "$out" "$in" "$@" 2> "$OUT/$label-gpu-$rep.err")
    note "$label gpu=on rep $rep: $t  copy ratio $(awk -v a="${t%% *}" -v b="$c" 'BEGIN{printf "%.2f", a / b}')  $(stats "$OUT/$label-gpu-$rep.json")"
  done
}

if [[ " $parts " == *" shm "* ]]; then
  in=/dev/shm/g.in out=/dev/shm/g.out
  "$B/tools/gen/corank-gen" --format gensort -n "${N_GENSORT:-100M}" -o "$in"
  gensort_case shm "$in" "$out"
  t=$(wall "$B/src/corank" --format gensort --gpu=off --parallel "$threads" --stats "$OUT/shm-cpu.json" -o /dev/shm/g.cpu "$in")
  note "shm gpu=off --parallel $threads: $t  $(stats "$OUT/shm-cpu.json")"
  cmp -s "$out" /dev/shm/g.cpu && note "shm outputs identical (gpu=on, gpu=off)" || note "shm outputs DIFFER"
  "$B/tools/validate/corank-validate" --format gensort --input "$in" "$out" > "$OUT/shm-validate.log" 2>&1 \
    && note "shm validate: $(tail -1 "$OUT/shm-validate.log")" || note "shm validate FAILED: $(tail -3 "$OUT/shm-validate.log")"
  rm -f "$in" "$out" /dev/shm/g.cpu
fi

if [[ " $parts " == *" u64 "* ]]; then
  in=/dev/shm/u.in out=/dev/shm/u.out
  "$B/tools/gen/corank-gen" --format u64 -n "${N_U64:-1000M}" -o "$in"
  c=$(copy_median "$in" "$out.copy")
  note "u64 copy: ${c} s"
  for rep in 1 2; do
    t=$(wall "$B/src/corank" --format u64 --gpu=on -v --stats "$OUT/u64-gpu-$rep.json" -o "$out" "$in" 2> "$OUT/u64-gpu-$rep.err")
    note "u64 gpu=on rep $rep: $t  copy ratio $(awk -v a="${t%% *}" -v b="$c" 'BEGIN{printf "%.2f", a / b}')  $(stats "$OUT/u64-gpu-$rep.json")"
  done
  for rep in 1 2; do
    t=$(wall "$B/src/corank" --format u64 --gpu=off --stats "$OUT/u64-cpu-$rep.json" -o /dev/shm/u.cpu "$in")
    note "u64 gpu=off rep $rep: $t  copy ratio $(awk -v a="${t%% *}" -v b="$c" 'BEGIN{printf "%.2f", a / b}')  $(stats "$OUT/u64-cpu-$rep.json")"
  done
  cmp -s "$out" /dev/shm/u.cpu && note "u64 outputs identical (gpu=on, gpu=off)" || note "u64 outputs DIFFER"
  "$B/tools/validate/corank-validate" --format u64 --input "$in" "$out" > "$OUT/u64-validate.log" 2>&1 \
    && note "u64 validate: $(tail -1 "$OUT/u64-validate.log")" || note "u64 validate FAILED: $(tail -3 "$OUT/u64-validate.log")"
  rm -f "$in" "$out" /dev/shm/u.cpu
fi

if [[ " $parts " == *" big "* ]]; then
  in=/dev/shm/big.in out=/dev/shm/big.out
  "$B/tools/gen/corank-gen" --format gensort -n "${N_BIG:-300M}" -o "$in"
  c=$(copy_median "$in" "$out.copy" 1)
  note "big copy: ${c} s"
  t=$(wall "$B/src/corank" --format gensort --gpu=on --gpu-memory "${BIG_GPU:-8G}" -v --stats "$OUT/big-gpu.json" -o "$out" "$in" 2> "$OUT/big-gpu.err")
  note "big gpu=on --gpu-memory ${BIG_GPU:-8G}: $t  copy ratio $(awk -v a="${t%% *}" -v b="$c" 'BEGIN{printf "%.2f", a / b}')  $(stats "$OUT/big-gpu.json")"
  "$B/tools/validate/corank-validate" --format gensort --input "$in" "$out" > "$OUT/big-validate.log" 2>&1 \
    && note "big validate: $(tail -1 "$OUT/big-validate.log")" || note "big validate FAILED: $(tail -3 "$OUT/big-validate.log")"
  rm -f "$in" "$out"
fi

if [[ " $parts " == *" disk "* ]]; then
  d=${DISK_DIR:-/tmp}
  in=$d/disk.in out=$d/disk.out
  "$B/tools/gen/corank-gen" --format gensort -n "${N_DISK:-100M}" -o "$in"
  note "disk: $d ($(df -h "$d" | awk 'NR==2{print $1, $2}'))"
  sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
  c=$(copy_median "$in" "$out.copy" 1)
  note "disk copy (cache dropped): ${c} s"
  sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
  t=$(wall "$B/src/corank" --format gensort --gpu=on -v --stats "$OUT/disk-gpu.json" -o "$out" "$in" 2> "$OUT/disk-gpu.err")
  note "disk gpu=on (cache dropped): $t  copy ratio $(awk -v a="${t%% *}" -v b="$c" 'BEGIN{printf "%.2f", a / b}')  $(stats "$OUT/disk-gpu.json")"
  "$B/tools/validate/corank-validate" --format gensort --input "$in" "$out" > "$OUT/disk-validate.log" 2>&1 \
    && note "disk validate: $(tail -1 "$OUT/disk-validate.log")" || note "disk validate FAILED: $(tail -3 "$OUT/disk-validate.log")"
  rm -f "$in" "$out"
fi
cat "$S"
