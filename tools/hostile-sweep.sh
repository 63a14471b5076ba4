#!/usr/bin/env bash
# Sorts three inputs at a time, one of them bad, in every format, with both
# I/O engines, budgets from 4K to the default (RAM) and the bad input first,
# in the middle and last, and checks that corank refuses it cleanly:
#   tools/hostile-sweep.sh BIN_DIR WORK_DIR [quick|full]
# BIN_DIR holds corank, corank-gen and corank-loggen; WORK_DIR is scratch
# space (full: about 2 GB for the peak-RSS part). Full: -S 4K 64K 1M 16M 100M
# and none, each with and without an OUT that exists already, and at 64K with
# --compress-temp too; quick: 4K 1M and none, smaller inputs, one RSS run.
# Every run is under `timeout` (TIMEOUT seconds, default 120) and must
#   - exit 2 for bad input (0 for input that is merely odd: an empty file),
#     never by a signal, a timeout or any other status;
#   - print exactly one line on stderr, starting with "corank: " (none on success);
#   - leave no file named OUT (or leave a pre-existing OUT byte-identical),
#     no .OUT.corank-* beside it, and the -T directory empty;
#   - leave every input as it was (sha256, mode).
# Good inputs alone are sorted too (controls: exit 0, output in order), so a
# mistyped key cannot pass for a refused input. Bad inputs: a size that is not
# a multiple of the record size (plain and inside .zst), random bytes behind
# .gz/.bz2/.xz/.zst magic, a truncated .gz of good data, an empty file, a
# missing path, a directory, an unreadable file (run as nobody when root), a
# symlink loop; CSV/TSV: an unterminated quote (plain and .gz), a header
# without the key columns, random bytes; JSON lines: a line that is not
# JSON (plain and .xz), an empty line, random bytes. A FIFO without a writer
# is left out: blocking in open() is what any reader does. An error that does
# not name the bad file is a NOTE, not a failure.
# Then inputs that change while they are sorted, runs that read back short
# and compression magic (integrity_cases): gensort and lines truncated, on a
# record boundary, and appended to while corank reads them from the disk (both
# engines) must give exit 2 naming the file ("shrank") or the sort of the file
# as it was when opened, never exit 0 with a shorter output; a
# --compress-program whose -d gives back half must give exit 2 ("run ended
# early"); a line beginning "BZh5" and u64 records beginning with a gzip
# header, on a pipe, must sort as they are. A change that came after corank
# had read everything is a NOTE.
# Then peak RSS (/usr/bin/time %M) of sorts larger than -S 100M, 200M and
# 400M (420 MiB of gensort records and of log lines) must stay within
# 1.10 x S. Prints one line per failure and a summary; exits 1 on any failure.
# Then crash_sweep (below): kills at random points, `ulimit -f`, and the
# names and links around OUT; integrity_cases: inputs cut or appended to
# while read, runs read back short, pipes that look compressed; corank-mpi's
# cases (mpi_section), where mpirun and BIN_DIR/corank-mpi are; and the
# limits (limit_cases): peak RSS within 1.10 x S plus the program's own (a
# sort of two lines) at -S 5M to 50M, also under ulimit -n 32; sorts under
# ulimit -n 10, and one under a limit too low that must say so; -m of 3000
# files under ulimit -n 256 with and without --batch-size=16, against GNU
# sort -m; a sort under ulimit -v, and one under a limit too low that must
# name it.
# FORMATS="gensort csv" sweeps fewer formats; RSS=0 leaves out the RSS part;
# CRASH=0 leaves out crash_sweep, CRASH=only runs nothing else; INTEGRITY=0
# leaves out the integrity cases; MPI=0 the corank-mpi part; LIMITS=0 the
# limits.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=${1:?usage: hostile-sweep.sh BIN_DIR WORK_DIR [quick|full]}
work=${2:?usage: hostile-sweep.sh BIN_DIR WORK_DIR [quick|full]}
mode=${3:-full}
timeout_s=${TIMEOUT:-120}
case $mode in
  quick) budgets=(4K 1M none); good_mb=1; small_kb=64; rss_budgets=(100M); rss_engines=(uring) ;;
  full) budgets=(4K 64K 1M 16M 100M none); good_mb=2; small_kb=64; rss_budgets=(100M 200M 400M); rss_engines=(uring pread) ;;
  *) echo "hostile-sweep.sh: mode is quick or full, not '$mode'" >&2; exit 2 ;;
esac
engines=(uring pread)
positions=(first middle last)
corank=$bin/corank
for t in "$corank" "$bin/corank-gen" "$bin/corank-loggen"; do
  [ -x "$t" ] || { echo "hostile-sweep.sh: no $t" >&2; exit 2; }
done
for t in gzip bzip2 xz zstd sha256sum timeout /usr/bin/time flock python3; do
  command -v "$t" >/dev/null || { echo "hostile-sweep.sh: needs $t" >&2; exit 2; }
done
umask 022
mkdir -p "$work"
work=$(cd "$work" && pwd)
in=$work/inputs run=$work/run
rm -rf "$in" "$run"
mkdir -p "$in" "$run"
start=$(date +%s)

# ---- inputs ---------------------------------------------------------------
# Format name -> corank's options. Keys are typed where the format has types,
# so key parsing and header lookup are part of every run.
declare -A fmt_args=(
  [gensort]="--format gensort"
  [fixed16]="--format fixed:16 --key 8:8:u64:desc --key 0:4:i32"
  [u32]="--format u32"
  [u64]="--format u64"
  [f64]="--format f64"
  [lines]="-k4,4 -k1,1"
  [csv]="--format csv --header --key price:n:desc --key name"
  [tsv]="--format tsv --header --key day:date --key id:n"
  [jsonl]="--format jsonl --key ts:time --key user.id:n"
)
read -r -a formats <<< "${FORMATS:-gensort fixed16 u32 u64 f64 lines csv tsv jsonl}"
[ "${CRASH:-1}" = only ] && formats=(u32)  # the probe's inputs only
binary_formats=" gensort fixed16 u32 u64 f64 "

good() {  # format seed bytes file: about that many bytes of valid records
  local f=$1 seed=$2 bytes=$3 out=$4 n
  case $f in
    gensort) "$bin/corank-gen" --format gensort --seed "$seed" --bytes "$bytes" -o "$out" ;;
    fixed16) "$bin/corank-gen" --format u64 --seed "$seed" --bytes "$bytes" -o "$out" ;;
    u32|u64) "$bin/corank-gen" --format "$f" --dist zipf --seed "$seed" --bytes "$bytes" -o "$out" ;;
    f64) "$bin/corank-gen" --format f64 --nan --seed "$seed" --bytes "$bytes" -o "$out" ;;
    lines) "$bin/corank-loggen" --size "$bytes" --seed "$seed" -o "$out" ;;
    csv|tsv)
      n=$((bytes / 40))
      awk -v n="$n" -v seed="$seed" -v tsv="$([ "$f" = tsv ] && echo 1 || echo 0)" 'BEGIN {
        srand(seed)
        if (tsv) print "id\tname\tprice\tday"; else print "id,name,price,day"
        for (i = 0; i < n; i++) {
          d = sprintf("2026-%02d-%02d", 1 + int(rand() * 12), 1 + int(rand() * 28))
          if (tsv) printf "%d\tn%d\t%.3f\t%s\n", i, int(rand() * 1e6), rand() * 1000, d
          else printf "%d,\"n%d, \"\"x\"\"\",%.3f,%s\n", i, int(rand() * 1e6), rand() * 1000, d
        }
      }' > "$out" ;;
    jsonl)
      n=$((bytes / 80))
      awk -v n="$n" -v seed="$seed" 'BEGIN {
        srand(seed)
        for (i = 0; i < n; i++)
          printf "{\"ts\":\"2026-%02d-%02dT%02d:%02d:%02dZ\",\"user\":{\"id\":%d},\"msg\":\"m %d\"}\n",
            1 + int(rand() * 12), 1 + int(rand() * 28), int(rand() * 24), int(rand() * 60),
            int(rand() * 60), int(rand() * 1e5), i
      }' > "$out" ;;
  esac
}

noise() {  # bytes file: seeded random bytes (reproducible; - for stdout)
  "$bin/corank-gen" --format u32 --seed 99 --bytes "$1" -o "$2"
}

# Bad kinds per format; expectation() says what each must do.
kinds_of() {
  local f=$1
  local k="missing dir unreadable loop empty junk.gz junk.bz2 junk.xz junk.zst trunc.gz"
  case " $binary_formats " in *" $f "*) k+=" wrongsize wrongsize.zst" ;; esac
  case $f in
    csv|tsv) k+=" unterm unterm.gz wronghdr nul" ;;
    jsonl) k+=" badjson badjson.xz emptyline nul" ;;
    lines) k+=" nul" ;;
  esac
  echo "$k"
}

ext_of() {
  case $1 in gensort) echo dat ;; fixed16|u32|u64|f64) echo bin ;; lines) echo txt ;; *) echo "$1" ;; esac
}

build_inputs() {  # format
  local f=$1 d=$in/$1 e
  e=$(ext_of "$f")
  mkdir -p "$d"
  good "$f" 1 $((good_mb << 20)) "$d/good1.$e"
  good "$f" 2 $((good_mb << 20)) "$d/good2.plain"
  zstd -q -c "$d/good2.plain" > "$d/good2.$e.zst"  # one good input always compressed
  good "$f" 3 $((small_kb << 10)) "$d/small1.$e"
  good "$f" 4 $((small_kb << 10)) "$d/small2.plain"
  zstd -q -c "$d/small2.plain" > "$d/small2.$e.zst"
  good "$f" 5 $((small_kb << 12)) "$d/medium1.$e"
  good "$f" 6 $((small_kb << 12)) "$d/medium2.plain"
  zstd -q -c "$d/medium2.plain" > "$d/medium2.$e.zst"
  rm "$d/good2.plain" "$d/small2.plain" "$d/medium2.plain"
  local bad=$d/bad
  mkdir -p "$bad"
  ln -s "$bad/loop.b.$e" "$bad/loop.$e"
  ln -s "$bad/loop.$e" "$bad/loop.b.$e"
  mkdir "$bad/dir.$e"
  cp "$d/good1.$e" "$bad/unreadable.$e"
  chmod 000 "$bad/unreadable.$e"
  : > "$bad/empty.$e"
  local magic
  for c in gz bz2 xz zst; do
    case $c in
      gz) magic='\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03' ;;
      bz2) magic='BZh91AY&SY' ;;
      xz) magic='\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46' ;;
      zst) magic='\x28\xb5\x2f\xfd\x64\x00' ;;
    esac
    { printf "$magic"; noise 200000 -; } > "$bad/junk.$e.$c"
  done
  gzip -c "$d/good1.$e" > "$bad/trunc.$e.gz"
  truncate -s 50000 "$bad/trunc.$e.gz"
  case " $binary_formats " in *" $f "*)
    head -c $(( $(stat -c %s "$d/small1.$e") - 37 )) "$d/small1.$e" > "$bad/wrongsize.$e"
    zstd -q -c "$bad/wrongsize.$e" > "$bad/wrongsize.$e.zst" ;;
  esac
  case $f in
    csv|tsv)
      local sep=','; [ "$f" = tsv ] && sep=$'\t'
      { head -n 1000 "$d/good1.$e"; printf '7%s"open quote%sx\n8%sy%sz\n' "$sep" "$sep" "$sep" "$sep"; } > "$bad/unterm.$e"
      gzip -c "$bad/unterm.$e" > "$bad/unterm.$e.gz"
      { printf 'a%sb%sc\n' "$sep" "$sep"; sed -n 2,1001p "$d/good1.$e"; } > "$bad/wronghdr.$e"
      noise 100000 "$bad/nul.$e" ;;
    jsonl)
      { head -n 1000 "$d/good1.$e"; echo '{"ts":"2026-01-01T00:00:00Z","user":{"id":1},'; head -n 10 "$d/good1.$e"; } > "$bad/badjson.$e"
      xz -c "$bad/badjson.$e" > "$bad/badjson.$e.xz"
      { head -n 1000 "$d/good1.$e"; echo; head -n 10 "$d/good1.$e"; } > "$bad/emptyline.$e"
      noise 100000 "$bad/nul.$e" ;;
    lines) noise 100000 "$bad/nul.$e" ;;
  esac
}

bad_path() {  # format kind
  local e; e=$(ext_of "$1")
  case $2 in
    missing) echo "$in/$1/bad/missing.$e" ;;
    *.gz|*.bz2|*.xz|*.zst) echo "$in/$1/bad/${2%.*}.$e.${2##*.}" ;;
    *) echo "$in/$1/bad/$2.$e" ;;
  esac
}

# fail (exit 2), pass (exit 0) or either (0 or 2: odd but parseable). A
# header without the key columns fails as the first input, and as a later one
# differs from the first's header; a blank JSON line is skipped, as jq skips it.
expectation() {  # format kind position
  case $2 in
    empty|emptyline) echo pass ;;
    nul) case $1 in lines) echo pass ;; csv|tsv) echo either ;; *) echo fail ;; esac ;;
    wronghdr) echo fail ;;
    *) echo fail ;;
  esac
}

sum_of() {  # path: what must not change about it
  if [ -L "$1" ]; then echo "link $(readlink "$1")"
  elif [ -d "$1" ]; then echo "dir $(stat -c %a "$1") $(ls -A "$1" | wc -l)"
  elif [ -e "$1" ]; then echo "$(stat -c %a "$1") $(sha256sum < "$1" | cut -c1-64)"
  else echo absent; fi
}

# As root, chmod 000 does not stop a read: the unreadable input is read by
# nobody, so that run's directories are writable by all.
runner=()
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv >/dev/null; then runner=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  else runner=(skip); fi
fi

echo "hostile-sweep: $mode; building inputs in $in"
for f in "${formats[@]}"; do build_inputs "$f"; done
chmod -R a+rX "$in" 2>/dev/null || true
for f in "${formats[@]}"; do chmod 000 "$(bad_path "$f" unreadable)"; done
declare -A sums
while IFS= read -r -d '' p; do sums[$p]=$(sum_of "$p"); done < <(find "$in" -mindepth 2 -print0)

# uring must really be io_uring, or half the sweep measures pread twice.
f=${formats[0]}
mkdir -p "$run/tmp"
probe=$("$corank" ${fmt_args[$f]} -v --gpu=off --io-engine=uring -S 64K -T "$run/tmp" -o /dev/null \
  "$in/$f/medium1.$(ext_of "$f")" 2>&1 || true)
if ! grep -q 'using io_uring' <<< "$probe"; then
  echo "hostile-sweep: io_uring is unavailable here; the uring runs fall back to pread" >&2
fi

printf 'an earlier result, to be kept\n' > "$run/earlier"
cases=0 failed=0 notes=0
declare -A fail_groups
fail() {  # label message
  failed=$((failed + 1))
  echo "FAIL $1: $2"
  fail_groups[$3]=$(( ${fail_groups[$3]:-0} + 1 ))
}

# One run and its checks. Globals: f eng budget.
check_run() {  # label expect bad_basename preexisting(0|1) runner-or-empty inputs...
  local label=$1 want=$2 badname=$3 pre=$4 as=$5
  shift 5
  local tmp=$run/tmp outdir=$run/out out=$run/out/out rc=0 p
  rm -rf "$tmp" "$outdir"
  mkdir -p "$tmp" "$outdir"
  chmod 777 "$tmp" "$outdir"
  if [ "$pre" = 1 ]; then cp "$run/earlier" "$out"; chmod 666 "$out"; fi
  local S=(); [ "$budget" = none ] || S=(-S "$budget")
  local io=(--io-engine="${eng%+*}")
  if [ "$eng" != "${eng%+ct}" ]; then io+=(--compress-temp); fi
  # shellcheck disable=SC2206  # fmt_args holds several words
  local cmd=("$corank" ${fmt_args[$f]} --gpu=off "${io[@]}" "${S[@]}" -T "$tmp" -o "$out" "$@")
  if [ -n "$as" ]; then cmd=("${runner[@]}" "${cmd[@]}"); fi
  cases=$((cases + 1))
  timeout -k 5 "$timeout_s" "${cmd[@]}" > "$run/stdout" 2> "$run/stderr" || rc=$?
  last_rc=$rc
  local err; err=$(head -c 300 "$run/stderr" | tr '\n' '|')
  case $rc in
    0|2) ;;
    124|137) fail "$label" "hang: killed after ${timeout_s}s; ${cmd[*]}" "$f hang" ;;
    *) if [ "$rc" -gt 128 ]; then
         fail "$label" "crash: signal $((rc - 128)), stderr '$err'; ${cmd[*]}" "$f crash"
       else
         fail "$label" "exit $rc, stderr '$err'; ${cmd[*]}" "$f rc"
       fi ;;
  esac
  case $want:$rc in
    fail:0) fail "$label" "accepted bad input (exit 0); ${cmd[*]}" "$f accepted" ;;
    pass:2) fail "$label" "refused good input: '$err'; ${cmd[*]}" "$f refused" ;;
  esac
  if [ "$rc" = 2 ]; then
    if [ "$(wc -l < "$run/stderr")" != 1 ] || [ "$(head -c 8 "$run/stderr")" != "corank: " ]; then
      fail "$label" "stderr is not one 'corank: ' line: '$err'" "$f stderr"
    elif [ -n "$badname" ] && [ "$want" != pass ] && ! grep -qF "$badname" "$run/stderr"; then
      notes=$((notes + 1)); echo "NOTE $label: the error does not name $badname: '$err'"
    fi
    if [ "$pre" = 1 ]; then
      cmp -s "$run/earlier" "$out" || fail "$label" "pre-existing OUT changed" "$f output"
    else
      [ ! -e "$out" ] || fail "$label" "OUT exists after a failed sort" "$f output"
    fi
  elif [ "$rc" = 0 ]; then
    [ ! -s "$run/stderr" ] || fail "$label" "stderr on success: '$err'" "$f stderr"
    if [ ! -f "$out" ]; then fail "$label" "no OUT after exit 0" "$f output"
    elif ! "$corank" ${fmt_args[$f]} --gpu=off -C "$out"; then fail "$label" "OUT is not in order" "$f order"; fi
  fi
  [ ! -s "$run/stdout" ] || fail "$label" "stdout not empty with -o" "$f stdout"
  local extra; extra=$(find "$outdir" -mindepth 1 ! -name out -printf '%f ')
  [ -z "$extra" ] || fail "$label" "left beside OUT: $extra" "$f leftover"
  extra=$(ls -A "$tmp" | tr '\n' ' ')
  [ -z "$extra" ] || fail "$label" "left in -T: $extra" "$f leftover"
  for p in "$@"; do
    [ "$(sum_of "$p")" = "${sums[$p]:-absent}" ] || fail "$label" "input changed: $p" "$f input"
  done
}

bad_case() {  # preexisting(0|1); globals: f e kind bad as pos eng budget
  # At 4K and 64K a few MB are thousands of runs and seconds a run:
  # smaller inputs (16 and 4 budgets each) spill there already.
  local g ins
  case $budget in 4K) g=small ;; 64K) g=medium ;; *) g=good ;; esac
  local good1=$in/$f/${g}1.$e good2=$in/$f/${g}2.$e.zst
  case $pos in
    first) ins=("$bad" "$good1" "$good2") ;;
    middle) ins=("$good1" "$bad" "$good2") ;;
    last) ins=("$good1" "$good2" "$bad") ;;
  esac
  local want; want=$(expectation "$f" "$kind" "$pos")
  check_run "$f $kind $pos $eng S=$budget out=$([ "$1" = 1 ] && echo existing || echo new)" \
    "$want" "$(basename "$bad")" "$1" "$as" "${ins[@]}"
  if [ "$want" = either ]; then
    outcomes["$f $kind $pos: exit $last_rc"]=$(( ${outcomes["$f $kind $pos: exit $last_rc"]:-0} + 1 ))
  fi
}

declare -A outcomes
[ "${CRASH:-1}" = only ] && formats=()
for f in "${formats[@]}"; do
  e=$(ext_of "$f")
  for eng in "${engines[@]}"; do
    for budget in "${budgets[@]}"; do
      check_run "$f control $eng S=$budget" pass "" 0 "" "$in/$f/good1.$e" "$in/$f/good2.$e.zst"
    done
  done
  for kind in $(kinds_of "$f"); do
    bad=$(bad_path "$f" "$kind")
    as=""
    if [ "$kind" = unreadable ] && [ "${#runner[@]}" -gt 0 ]; then
      if [ "${runner[0]}" = skip ]; then echo "SKIP $f unreadable: root without setpriv"; continue; fi
      as=nobody
    fi
    for pos in "${positions[@]}"; do
      for eng in "${engines[@]}"; do
        for budget in "${budgets[@]}"; do
          bad_case 0
          bad_case 1
        done
      done
      # Compressed spilled runs on the way out too, where runs are many.
      eng=uring+ct budget=64K
      case " ${budgets[*]} " in *" 64K "*) bad_case 0 ;; esac
    done
  done
  echo "hostile-sweep: $f done, $cases runs, $failed failures, $(( $(date +%s) - start )) s"
done

# The cases of each part, defined in files of their own.
source "$here/hostile/crash.sh"
source "$here/hostile/integrity.sh"
source "$here/hostile/mpi.sh"
source "$here/hostile/limits.sh"

[ "${INTEGRITY:-1}" = 1 ] && [ "${CRASH:-1}" != only ] && integrity_cases
[ "${CRASH:-1}" = 0 ] || crash_sweep
[ "${CRASH:-1}" = only ] || mpi_section

# ---- peak RSS against -S --------------------------------------------------
[ "${RSS:-1}" = 1 ] && [ "${CRASH:-1}" != only ] || rss_budgets=()
rss_dir=$work/rss
rm -rf "$rss_dir"
mkdir -p "$rss_dir/tmp"
if [ "${#rss_budgets[@]}" -gt 0 ]; then
  "$bin/corank-gen" --format gensort --seed 7 --bytes 420M -o "$rss_dir/big.dat"
  "$bin/corank-loggen" --size 420M --seed 7 -o "$rss_dir/big.log"
  echo "peak RSS | input | engine | -S | peak KiB | ratio | s"
fi
for big in big.dat big.log; do
  fa=(); [ "$big" = big.dat ] && fa=(--format gensort)
  for eng in "${rss_engines[@]}"; do
    for S in "${rss_budgets[@]}"; do
      cases=$((cases + 1))
      rc=0 t0=$(date +%s.%N)
      timeout -k 5 1800 /usr/bin/time -f %M -o "$rss_dir/rss" "$corank" "${fa[@]}" --gpu=off --io-engine="$eng" \
        -S "$S" -T "$rss_dir/tmp" -o "$rss_dir/out" "$rss_dir/$big" 2> "$rss_dir/stderr" || rc=$?
      secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
      label="rss $big $eng S=$S"
      if [ "$rc" != 0 ]; then fail "$label" "exit $rc: $(head -c 300 "$rss_dir/stderr")" "rss rc"; continue; fi
      kib=$(tail -n 1 "$rss_dir/rss")
      limit=$(( ${S%M} * 1024 ))
      ratio=$(awk -v a="$kib" -v b="$limit" 'BEGIN { printf "%.3f", a / b }')
      printf 'peak RSS | %s | %s | %s | %s | %s | %s\n' "$big" "$eng" "$S" "$kib" "$ratio" "$secs"
      [ "$kib" -le $(( limit * 110 / 100 )) ] || fail "$label" "peak RSS $kib KiB > 1.10 x $limit KiB" "rss over"
      "$corank" "${fa[@]}" -C "$rss_dir/out" || fail "$label" "output not in order" "rss order"
      [ -z "$(ls -A "$rss_dir/tmp")" ] || fail "$label" "left in -T: $(ls -A "$rss_dir/tmp")" "rss leftover"
    done
  done
done
rm -rf "$rss_dir"

if [ "${LIMITS:-1}" = 1 ] && [ "${CRASH:-1}" != only ]; then
  case $mode in quick) limit_cases 64 ;; full) limit_cases 420 ;; esac
fi

echo "hostile-sweep: $cases runs, $failed failures, $notes notes, $(( $(date +%s) - start )) s"
for g in "${!outcomes[@]}"; do echo "  either way allowed: $g: ${outcomes[$g]} runs"; done | sort
for g in "${!fail_groups[@]}"; do echo "  failures: $g: ${fail_groups[$g]}"; done | sort
[ "$failed" = 0 ]
