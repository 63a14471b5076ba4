#!/usr/bin/env bash
# JSON lines by a time key: corank --format jsonl --key ts:time against GNU
# sort on the same lines with their UTC instant put in front as a plain key
# (what a user would otherwise build with a jq/sed pipeline; that extraction is
# not timed). The ts values are ISO 8601 with milliseconds in random zones.
#   tools/bench-jsonl.sh BUILD_DIR [LINES] [WORK_DIR] [-S SIZE]
# Prints the times (median of 3) and checks that both outputs hold the same lines.
set -euo pipefail
B=$(cd "${1:?usage: bench-jsonl.sh BUILD_DIR [LINES] [WORK_DIR]}" && pwd)
lines=${2:-1000000}
work=${3:-/tmp/corank-bench-jsonl}
budget=${4:-2G}
mkdir -p "$work"
python3 - "$lines" "$work" <<'PY'
import random, sys, datetime as dt
n, work = int(sys.argv[1]), sys.argv[2]
rng = random.Random(20261123)
base = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
with open(f"{work}/events.jsonl", "w") as j, open(f"{work}/keyed.tsv", "w") as k:
    for i in range(n):
        t = base + dt.timedelta(milliseconds=rng.randrange(365 * 86400 * 1000))
        off = dt.timedelta(minutes=15 * rng.randrange(-48, 49))
        local = t.astimezone(dt.timezone(off))
        ts = local.strftime("%Y-%m-%dT%H:%M:%S.") + f"{local.microsecond // 1000:03d}" + local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:]
        line = f'{{"ts":"{ts}","user":{{"id":{rng.randrange(10**6)}}},"path":"/item/{rng.randrange(10**5)}","status":{rng.choice([200, 200, 200, 404, 500])}}}'
        j.write(line + "\n")
        k.write(t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}" + "\t" + line + "\n")
PY
median() { sort -n | sed -n 2p; }
time_of() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | awk '{printf "%.3f\n", $1 - $3}'; }
ours=$(for r in 1 2 3; do time_of "$B/src/corank" --format jsonl --key ts:time -S "$budget" -o "$work/out.jsonl" "$work/events.jsonl"; done | median)
gnu=$(for r in 1 2 3; do time_of env LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 -S "$budget" -o "$work/out.tsv" "$work/keyed.tsv"; done | median)
cut -f2- "$work/out.tsv" | cmp - "$work/out.jsonl" >/dev/null && same=identical || same=DIFFERENT
echo "$(date -u +%F) $(nproc) cores, $lines lines ($(stat -c %s "$work/events.jsonl") bytes), -S $budget:" \
     "corank --format jsonl --key ts:time ${ours} s; GNU sort -s -k1,1 on pre-keyed lines ${gnu} s;" \
     "ratio $(awk -v a="$gnu" -v b="$ours" 'BEGIN{printf "%.2f", a / b}'); outputs $same"
