#!/usr/bin/env bash
# Runs every libFuzzer target of a build configured with
# -DCORANK_BUILD_FUZZERS=ON for a bounded time, each from a small seed corpus
# made here (text seeds, and short compressed streams for the decompressor).
#   tools/fuzz-smoke.sh BUILD_DIR [SECONDS_EACH=30] [OUT_DIR]
# A crash, leak or broken invariant exits non-zero; the input that caused it
# is saved in OUT_DIR (default BUILD_DIR/fuzz-out) and becomes a regression test.
# The targets run FUZZ_JOBS (default: the cores) at a time.
set -euo pipefail
B=${1:?usage: fuzz-smoke.sh BUILD_DIR [SECONDS_EACH] [OUT_DIR]}
secs=${2:-30}
out=${3:-$B/fuzz-out}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seed() {  # target name content...
  local dir=$work/$1
  mkdir -p "$dir"
  shift
  local i=0
  for s in "$@"; do printf '%b' "$s" > "$dir/seed$i"; i=$((i + 1)); done
}
seed key_spec '2,2n\n0:4:u32:desc' '1.3b,1.5\n8:8:i64be' 'fixed:16\n4:8:f64:desc' '3r,4.2Mb\n0:2:u16' '\\0\n1:3:bytes'
seed size '100M' '1G' '50%' '0' '12345' '7T' '1b' '3K'
seed csv ',a,1,x\0b,2,y' '\x03"q,uo",2.5e3,Mar\0"q""x",1e3,Jan' '\x02id\tname\n1\tb\0002\ta' '\x0b1.5.2,x\0001.10,y'
seed pgtext '\x01a\tb\\tc\0a\t\\N' '\x05x\t1e3\0y\tNaN' '\x47\\x41\\101\t\0\\.' '\x0d2026-01-01\t-infinity\0infinity'
seed jsonl '\x01{"a":1}\n{"a":"x"}' '\x04{"a":"2026-10-10T13:55:36Z"}\n{"a":1791640536}' '\x83{"a":{"b":1e3}}\n{"a":{"b":null}}' '\x05{"a":"1.5","b":["2026-01-01"]}\n{"a":"x"'
seed line_compare '\x01\x00 2,2\nb 10\na 9' '\x02\x41 1.2,1.3\nx:5:q\ny:4:p' '\x07\x00 \nApple\napple' '\x04\x00 \n JAN\nfeb' '\x05\x03 1\n1.2.10\n1.2.9'
seed time '\x00\x33\x0c%F %T\n10.0.0.1 - - [25/Nov/2026:12:15:01 +0100] "GET /"\nNov 25 11:15:01 h a' \
  '\x05\x33\x03%d.%m.%Y %{%I:%M %p%}\n2026-03-29 02:30:00 x\n[Wed Nov 25 11:15:01.5 2026] y' \
  '\x02\x34\x01%s\n1795605301.123 a\n<165>1 2026-11-25T11:15:01.003+01:00 h app' \
  '\x06\x33\x0b%a, %e %b %Y %T %z\nWed, 25 Nov 2026 11:15:01 +0100\n2026/11/25 11:15:01 [error]' \
  '\x05\x33\x0a%F %T%f%{ %Z%}\n2026-10-25 02:30:00.5 CEST [1] LOG\nSun Oct 25 02:30:00 CET 2026 x' \
  '\x01\x34\x0c-\nI1125 11:15:01.123456 1 m.go:1] x\n1:M 25 Nov 2026 11:15:01.123 * y'
mkdir -p "$work/decompress"
printf 'corank fuzz seed\n%.0s' {1..50} > "$work/plain"
gzip -c "$work/plain" > "$work/decompress/seed.gz"
bzip2 -c "$work/plain" > "$work/decompress/seed.bz2"
xz -c "$work/plain" > "$work/decompress/seed.xz"
zstd -q -c "$work/plain" > "$work/decompress/seed.zst"
cp "$work/plain" "$work/decompress/seed.txt"

# Inputs that once failed (tests/fuzz/corpus/TARGET/) are seeds too.
corpus=$(cd "$(dirname "$0")/.." && pwd)/tests/fuzz/corpus
for d in "$corpus"/*/; do
  [ -d "$d" ] && mkdir -p "$work/$(basename "$d")" && cp "$d"* "$work/$(basename "$d")/"
done

# The targets run side by side, one a core (FUZZ_JOBS, default nproc): each
# is one process of one thread. Each one's verdict is printed in order.
fuzz_one() {  # target: its log, and its verdict in $out/TARGET.verdict
  local t=$1 exe=$B/tests/fuzz/${1}_fuzz
  if ! "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
      -artifact_prefix="$out/$t-" "$work/$t" > "$out/$t.log" 2>&1; then
    echo "FAILED" > "$out/$t.verdict"
  else
    grep -E '^#[0-9]+.*(DONE|pulse)' "$out/$t.log" | tail -1 > "$out/$t.verdict" || true
  fi
}
targets=(key_spec size csv pgtext jsonl line_compare decompress time)
jobs_max=${FUZZ_JOBS:-$(nproc)}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
status=0
for t in "${targets[@]}"; do
  if [ "$(cat "$out/$t.verdict")" = FAILED ]; then
    echo "fuzz $t: FAILED (see $out/$t.log)"
    tail -20 "$out/$t.log"
    status=1
  else
    echo "fuzz $t: $(cat "$out/$t.verdict")"
  fi
done
exit $status
