#!/usr/bin/env bash
# Keys in long fields against GNU sort: corank and GNU sort alternating, on
# two files made here (Python's random, fixed seeds):
#   long.txt  120 lines "idN <4 MiB of x><number> tailN" (503 MB), sorted by
#             -k2,2: every key megabytes long, all tied for 4 MiB;
#   pfx.txt   400,000 URLs under one 600-byte path, then a number (246 MB),
#             sorted by -k1,1: keys that tie in their first 600 bytes.
# Prints wall seconds of each run and whether the outputs are identical.
#   tools/bench-long-fields.sh BIN_DIR WORK_DIR
# Environment: ROUNDS (default 3), THREADS (default: the CPUs).
set -eu
bin=$(cd "${1:?usage: bench-long-fields.sh BIN_DIR WORK_DIR}" && pwd)
work=${2:?usage: bench-long-fields.sh BIN_DIR WORK_DIR}
rounds=${ROUNDS:-3} threads=${THREADS:-$(nproc)}
mkdir -p "$work"
export LC_ALL=C
[[ -s $work/long.txt ]] || python3 - "$work/long.txt" <<'EOF'
import random, sys
random.seed(1)
with open(sys.argv[1], 'w') as f:
    for i in range(120):
        f.write(f"id{i} {'x' * (4 << 20)}{random.randint(0, 10**9)} tail{i}\n")
EOF
[[ -s $work/pfx.txt ]] || python3 - "$work/pfx.txt" <<'EOF'
import random, sys
random.seed(2)
head = 'https://example.com/' + 'a/' * 290
with open(sys.argv[1], 'w') as f:
    for i in range(400000):
        f.write(f"{head}{random.randint(0, 10**12)} x\n")
EOF

seconds() {  # command...: runs it with the input read once before; prints its wall seconds
  sync
  sleep 3
  local s e
  s=$(date +%s.%N)
  "$@"
  e=$(date +%s.%N)
  awk -v a="$s" -v b="$e" 'BEGIN{printf "%.3f", b - a}'
}
echo "date: $(date -u +%F)  cpus: $(nproc)  corank: $bin  GNU sort -S 50% --parallel=$threads"
for ((r = 1; r <= rounds; r++)); do
  for case in long:2,2 pfx:1,1; do
    name=${case%%:*} key=${case#*:}
    cat "$work/$name.txt" > /dev/null
    g=$(seconds sort -k"$key" -S 50% --parallel="$threads" -o "$work/$name.gnu" "$work/$name.txt")
    cat "$work/$name.txt" > /dev/null
    c=$(seconds "$bin/src/corank" -k"$key" --no-fsync --parallel "$threads" -o "$work/$name.corank" "$work/$name.txt")
    cmp -s "$work/$name.gnu" "$work/$name.corank" && same=identical || same=DIFFERS
    echo "round $r $name.txt -k$key: GNU $g s, corank $c s, outputs $same"
  done
done
