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

# ---- kills, limits and names around OUT -----------------------------------
# SIGKILL and SIGTERM at random points of spilling sorts (gensort records and
# log lines; a new OUT, an existing one, a hard-linked one, and a hard-linked
# input as its own OUT) must leave nothing in -T or beside OUT, the input as it
# was, and OUT as it was or wholly sorted; SIGKILL may leave a hard-linked OUT
# mixed (filled in place, it is never atomic), so only leftovers count there.
# Then: `ulimit -f` is a clean exit 2 naming a file; -o '' fails as in GNU
# sort; a dangling symlink gets its file created; a user.* attribute survives;
# a -T that takes no files says why; a hard-linked OUT is staged in -T, not
# $TMPDIR; four sorts into one hard-linked OUT leave one whole output; and as
# root, on small tmpfs mounts, a full -T is named and a file system too full
# for the new content leaves a hard-linked OUT's old content whole.
crash_sweep() {
  local d=$work/crash kills=${KILLS:-6} f target sig k rc label dur at want before
  rm -rf "$d"
  mkdir -p "$d"
  "$bin/corank-gen" --format gensort --seed 11 --bytes 2M -o "$d/records.dat"
  "$bin/corank-loggen" --size 2M --seed 11 -o "$d/lines.txt"
  # References: GNU sort for the lines, the records' own order checked by -C
  # and their bytes by sha256 of the sorted set.
  LC_ALL=C sort "$d/lines.txt" > "$d/lines.txt.sorted"
  "$corank" --format gensort -o "$d/records.dat.sorted" "$d/records.dat"
  "$corank" --format gensort -C "$d/records.dat.sorted" || fail "crash reference" "records not in order" "crash order"
  local old=$d/old
  printf 'an earlier result\n' > "$old"
  local r=$d/run
  crash_prepare() {  # input target
    rm -rf "$r"
    mkdir -p "$r/tmp" "$r/out"
    cp "$d/$1" "$r/in"
    case $2 in
      existing) cp "$old" "$r/out/OUT" ;;
      hardlink) cp "$old" "$r/out/OUT"; ln "$r/out/OUT" "$r/out/ALIAS" ;;
      self) mv "$r/in" "$r/out/OUT"; ln "$r/out/OUT" "$r/out/ALIAS" ;;
    esac
  }
  for f in records.dat lines.txt; do
    local fa=()
    [ "$f" = records.dat ] && fa=(--format gensort)
    for target in new existing hardlink self; do
      local in=$r/in
      [ "$target" = self ] && in=$r/out/OUT
      local cmd=("$corank" "${fa[@]}" --gpu=off -S 1M -T "$r/tmp" -o "$r/out/OUT" "$in")
      crash_prepare "$f" "$target"
      local t0; t0=$(date +%s%N)
      cases=$((cases + 1))
      rc=0; timeout -k 5 "$timeout_s" "${cmd[@]}" 2> "$d/stderr" || rc=$?
      dur=$(( ($(date +%s%N) - t0) / 1000 ))  # microseconds
      if [ "$rc" != 0 ] || ! cmp -s "$r/out/OUT" "$d/$f.sorted"; then
        fail "crash $f $target unkilled" "exit $rc or wrong output: $(head -c 200 "$d/stderr")" "crash control"
        continue
      fi
      for sig in KILL TERM; do
        for ((k = 0; k < kills; k++)); do
          crash_prepare "$f" "$target"
          at=$(awk -v t="$dur" -v r="$RANDOM" 'BEGIN { printf "%.6f", t * 1.1 * r / 32767 / 1e6 }')
          label="crash $f OUT=$target SIG$sig after ${at}s"
          cases=$((cases + 1))
          "${cmd[@]}" 2> /dev/null &
          local pid=$!
          sleep "$at"
          kill -s "$sig" "$pid" 2> /dev/null || true
          rc=0; wait "$pid" 2> /dev/null || rc=$?  # (no "Killed" notice)
          case $sig:$rc in
            *:0|KILL:137|TERM:143) ;;
            *) fail "$label" "exit $rc (neither the signal nor success)" "crash status" ;;
          esac
          [ -z "$(ls -A "$r/tmp")" ] || fail "$label" "left in -T: $(ls -A "$r/tmp" | tr '\n' ' ')" "crash leftover"
          local extra
          extra=$(find "$r/out" -mindepth 1 ! -name OUT ! -name ALIAS -printf '%f ')
          [ -z "$extra" ] || fail "$label" "left beside OUT: $extra" "crash leftover"
          [ "$target" = self ] || cmp -s "$r/in" "$d/$f" || fail "$label" "the input changed" "crash input"
          before=$old
          [ "$target" = self ] && before=$d/$f
          want=ok
          if [ "$rc" = 0 ]; then
            cmp -s "$r/out/OUT" "$d/$f.sorted" || want="exit 0 without the sorted output"
          elif [ "$target" = new ]; then
            [ ! -e "$r/out/OUT" ] || cmp -s "$r/out/OUT" "$d/$f.sorted" || want="a partial OUT appeared"
          elif [ "$sig" = TERM ] || [ "$target" = existing ]; then
            cmp -s "$r/out/OUT" "$before" || cmp -s "$r/out/OUT" "$d/$f.sorted" ||
              want="OUT is neither as it was nor sorted"
          fi
          [ "$want" = ok ] || fail "$label" "$want" "crash target"
          if [ "$target" = hardlink ] || [ "$target" = self ]; then
            [ "$(stat -c %h "$r/out/OUT")" = 2 ] || fail "$label" "the hard link was split" "crash target"
          fi
        done
      done
    done
  done

  # One run's checks: exit status, stderr (exact, or a pattern), leftovers.
  crash_expect() {  # label want_rc want_stderr_regex(empty: no stderr) rc stderr_file
    [ "$4" = "$2" ] || fail "$1" "exit $4, not $2: $(head -c 200 "$5")" "crash limits"
    if [ -z "$3" ]; then
      [ ! -s "$5" ] || fail "$1" "stderr '$(head -c 200 "$5" | tr '\n' '|')' on success" "crash limits"
    elif ! grep -qE "$3" "$5" || [ "$(wc -l < "$5")" != 1 ]; then
      fail "$1" "stderr '$(head -c 200 "$5" | tr '\n' '|')' is not one line /$3/" "crash limits"
    fi
    [ -z "$(ls -A "$r/tmp")" ] || fail "$1" "left in -T: $(ls -A "$r/tmp" | tr '\n' ' ')" "crash leftover"
  }
  local e=$d/stderr
  crash_prepare lines.txt new
  cases=$((cases + 4))
  rc=0; (ulimit -f 300; exec "$corank" -S 256K -T "$r/tmp" -o "$r/out/OUT" "$r/in") 2> "$e" || rc=$?
  crash_expect "ulimit -f, spilled runs" 2 "^corank: write failed: temporary file in .*: File too large$" "$rc" "$e"
  rc=0; (ulimit -f 300; exec "$corank" -T "$r/tmp" -o "$r/out/OUT" "$r/in") 2> "$e" || rc=$?
  crash_expect "ulimit -f, output" 2 "^corank: write failed: .*/OUT: File too large$" "$rc" "$e"
  [ -z "$(ls -A "$r/out")" ] || fail "ulimit -f" "left beside OUT: $(ls -A "$r/out")" "crash leftover"
  rc=0; "$corank" -o '' "$r/in" > "$d/stdout" 2> "$e" || rc=$?
  crash_expect "-o ''" 2 "^corank: open failed: '': No such file or directory$" "$rc" "$e"
  [ ! -s "$d/stdout" ] || fail "-o ''" "sorted to standard output" "crash limits"
  rc=0; "$corank" -S 64K -T /proc -o "$r/out/OUT" "$r/in" 2> "$e" || rc=$?
  crash_expect "-T /proc" 2 "^corank: cannot create temporary file in: /proc: [^N]" "$rc" "$e"

  cases=$((cases + 3))
  ln -s made "$r/out/LINK"
  rc=0; "$corank" -o "$r/out/LINK" "$r/in" 2> "$e" || rc=$?
  crash_expect "dangling symlink" 0 "" "$rc" "$e"
  [ -L "$r/out/LINK" ] && cmp -s "$r/out/made" "$d/lines.txt.sorted" ||
    fail "dangling symlink" "the link was replaced or its file not written" "crash names"
  cp "$old" "$r/out/X"
  if python3 -c 'import os,sys; os.setxattr(sys.argv[1], "user.origin", b"kept")' "$r/out/X" 2> /dev/null; then
    rc=0; "$corank" -o "$r/out/X" "$r/in" 2> "$e" || rc=$?
    crash_expect "xattr" 0 "" "$rc" "$e"
    [ "$(python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.origin").decode())' "$r/out/X")" = kept ] ||
      fail "xattr" "user.origin lost when OUT was replaced" "crash names"
  else
    echo "SKIP xattr: no user.* attributes in $r/out"
  fi
  crash_prepare lines.txt hardlink
  rc=0; TMPDIR=$r/no-such-dir "$corank" -T "$r/tmp" -o "$r/out/OUT" "$r/in" 2> "$e" || rc=$?
  crash_expect "hard-linked OUT staged in -T" 0 "" "$rc" "$e"
  cmp -s "$r/out/ALIAS" "$d/lines.txt.sorted" || fail "hard-linked OUT staged in -T" "wrong content" "crash target"

  # Four sorts into one hard-linked OUT, released at once from a lock the
  # sweep holds: the result is one of the four outputs, whole.
  cases=$((cases + 1))
  crash_prepare lines.txt hardlink
  local i pids=()
  for i in 1 2 3 4; do
    head -c $((i * 400000)) "$d/lines.txt" | sed '$d' > "$r/in$i"
    LC_ALL=C sort "$r/in$i" > "$r/sorted$i"
  done
  exec {lockfd}< "$r/out/ALIAS"
  flock -x "$lockfd"
  # Not inherited: a sort holding the sweep's descriptor would hold its lock.
  for i in 1 2 3 4; do "$corank" -T "$r/tmp" -o "$r/out/OUT" "$r/in$i" {lockfd}<&- 2> /dev/null & pids+=($!); done
  sleep 1
  cmp -s "$r/out/ALIAS" "$old" || fail "concurrent OUT" "written while another held its lock" "crash target"
  exec {lockfd}<&-
  for i in "${pids[@]}"; do wait "$i" || fail "concurrent OUT" "a sort failed" "crash target"; done
  local whole=0
  for i in 1 2 3 4; do cmp -s "$r/out/ALIAS" "$r/sorted$i" && whole=1; done
  [ "$whole" = 1 ] || fail "concurrent OUT" "OUT is none of the outputs: a mix" "crash target"

  # As root: small file systems that fill up.
  if [ "$(id -u)" = 0 ] && mkdir -p "$d/small" && mount -t tmpfs -o size=1m tmpfs "$d/small" 2> /dev/null; then
    cases=$((cases + 2))
    crash_prepare lines.txt new
    rc=0; "$corank" -S 256K -T "$d/small" -o "$r/out/OUT" "$r/in" 2> "$e" || rc=$?
    crash_expect "full -T" 2 "^corank: write failed: temporary file in $d/small: No space left on device$" "$rc" "$e"
    [ -z "$(ls -A "$d/small")" ] || fail "full -T" "left in -T: $(ls -A "$d/small")" "crash leftover"
    head -c 600000 "$d/lines.txt" > "$d/small/OUT"
    cp "$d/small/OUT" "$d/small-old"
    ln "$d/small/OUT" "$d/small/ALIAS"
    rc=0; "$corank" -T "$r/tmp" -o "$d/small/OUT" "$r/in" 2> "$e" || rc=$?
    crash_expect "full file system under a hard-linked OUT" 2 "No space left on device" "$rc" "$e"
    cmp -s "$d/small/ALIAS" "$d/small-old" || fail "full hard-linked OUT" "old content not whole" "crash target"
    umount "$d/small"
  else
    echo "SKIP full file systems: needs root and tmpfs mounts"
  fi
  rm -rf "$d"
  echo "hostile-sweep: crash_sweep done, $cases runs, $failed failures, $(( $(date +%s) - start )) s"
}

# ---- inputs that change, runs that read back short, compression magic ------
wait_for_reading() {  # pid bytes: until its child (timeout's corank) has read that much, has ended, or 5 s passed
  local i r child
  for ((i = 0; i < 100; i++)); do
    child=$(pgrep -P "$1" | head -n 1) || true
    r=$(awk '/^(rchar|read_bytes):/ { s += $2 } END { print s + 0 }' "/proc/${child:-0}/io" 2>/dev/null) || r=0
    [ "${r:-0}" -ge "$2" ] && return 0
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.05
  done
}

# One run with the input changed under it. Globals: d, want_sha (the sort of
# the input as it was), fa (format options).
changing_input_case() {  # label change(shrink|grow) engine
  local label=$1 change=$2 eng=$3 in=$d/in out=$d/out size at pid rc=0
  cp "$d/src" "$in"
  sync "$in"
  dd if="$in" iflag=nocache count=0 status=none  # its pages leave the cache: read from the disk
  size=$(stat -c %s "$in")
  rm -rf "$d/tmp" "$out"
  mkdir -p "$d/tmp"
  cases=$((cases + 1))
  timeout -k 5 "$timeout_s" "$corank" "${fa[@]}" --gpu=off --io-engine="$eng" -S 20M -T "$d/tmp" -o "$out" "$in" \
    2> "$d/err" &
  pid=$!
  wait_for_reading "$pid" $((size / 8))
  if [ "$change" = shrink ]; then
    # A record boundary past the middle: the end of the line there, or of the 100-byte record.
    at=$((size / 2))
    if [ "${fa[*]}" = "--format gensort" ]; then at=$((at / 100 * 100))
    else at=$((at + $({ dd if="$in" iflag=skip_bytes skip="$at" bs=64K count=1 status=none || true; } | head -n 1 | wc -c)))
    fi
    truncate -s "$at" "$in"
  else
    head -c $((size / 10)) "$d/src" >> "$in"
  fi
  wait "$pid" || rc=$?
  local err; err=$(head -c 300 "$d/err" | tr '\n' '|')
  if [ "$rc" = 0 ]; then
    [ ! -s "$d/err" ] || fail "$label" "stderr on success: '$err'" "integrity stderr"
    if [ "$(sha256sum < "$out" | cut -c1-64)" != "$want_sha" ]; then
      fail "$label" "exit 0 with another output ($(stat -c %s "$out") bytes of $size)" "integrity output"
    elif [ "$change" = shrink ]; then
      notes=$((notes + 1)); echo "NOTE $label: the file was cut after corank had read it"
    fi
  elif [ "$rc" = 2 ] && [ "$change" = shrink ]; then
    if [ "$(wc -l < "$d/err")" != 1 ] || ! grep -qF "$in: the file shrank while it was being read" "$d/err"; then
      fail "$label" "not one line naming the file that shrank: '$err'" "integrity stderr"
    fi
    [ ! -e "$out" ] || fail "$label" "OUT exists after a failed sort" "integrity output"
  else
    fail "$label" "exit $rc: '$err'" "integrity rc"
  fi
  [ -z "$(ls -A "$d/tmp")" ] || fail "$label" "left in -T: $(ls -A "$d/tmp")" "integrity leftover"
  [ -z "$(find "$d" -maxdepth 1 -name '.out.corank-*')" ] || fail "$label" "left beside OUT" "integrity leftover"
}

integrity_cases() {
  local mb f eng change rc err sorted
  case $mode in quick) mb=60 ;; *) mb=200 ;; esac
  d=$work/integrity
  rm -rf "$d"
  mkdir -p "$d"
  for f in gensort lines; do
    fa=(); [ "$f" = gensort ] && fa=(--format gensort)
    if [ "$f" = gensort ]; then "$bin/corank-gen" --format gensort --seed 11 --bytes "${mb}M" -o "$d/src"
    else "$bin/corank-loggen" --size "${mb}M" --seed 11 -o "$d/src"; fi
    "$corank" "${fa[@]}" --gpu=off -o "$d/want" "$d/src"
    want_sha=$(sha256sum < "$d/want" | cut -c1-64)
    rm -f "$d/want"
    for eng in "${engines[@]}"; do
      for change in shrink grow; do changing_input_case "integrity $f $change $eng" "$change" "$eng"; done
    done
  done
  # PROG -d gives back half of each run, and exits 0.
  local half=$d/half
  # shellcheck disable=SC2016  # the script's own expansions
  printf '#!/bin/sh\nif [ "$1" = -d ]; then t=%s/d.$$; gzip -dc > "$t"; n=$(stat -c %%s "$t")\n  head -c $((n / 2)) "$t"; rm -f "$t"; exit 0; fi\nexec gzip -c -1\n' "$d" > "$half"
  chmod +x "$half"
  for f in gensort lines; do
    fa=(); [ "$f" = gensort ] && fa=(--format gensort)
    if [ "$f" = gensort ]; then "$bin/corank-gen" --format gensort --seed 12 --bytes 2M -o "$d/small"
    else "$bin/corank-loggen" --size 2M --seed 12 -o "$d/small"; fi
    rm -rf "$d/tmp" "$d/out"; mkdir -p "$d/tmp"
    cases=$((cases + 1)); rc=0
    timeout -k 5 "$timeout_s" "$corank" "${fa[@]}" --gpu=off -S 256K --compress-program="$half" -T "$d/tmp" \
      -o "$d/out" "$d/small" 2> "$d/err" || rc=$?
    err=$(head -c 300 "$d/err" | tr '\n' '|')
    if [ "$rc" != 2 ] || [ "$(wc -l < "$d/err")" != 1 ] || ! grep -q 'temporary file: run ended early' "$d/err"; then
      fail "integrity $f short run" "exit $rc, stderr '$err'" "integrity short run"
    fi
    if [ -e "$d/out" ] || [ -n "$(ls -A "$d/tmp")" ]; then
      fail "integrity $f short run" "left output or runs" "integrity leftover"
    fi
  done
  # Magic on a pipe: a line that begins "BZh5" is text; u64 559903 is 1f 8b 08 00..., records as they are.
  cases=$((cases + 2)); rc=0
  sorted=$(printf 'BZh5 is a line\nzebra\nBZh9\n' | "$corank" 2> "$d/err") || rc=$?
  if [ "$rc" != 0 ] || [ "$sorted" != $'BZh5 is a line\nBZh9\nzebra' ]; then
    fail "integrity BZh5 line" "exit $rc, '$(head -c 300 "$d/err")'" "integrity magic"
  fi
  rc=0
  printf '\x1f\x8b\x08\x00\x00\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00' > "$d/words"
  printf '\x07\x00\x00\x00\x00\x00\x00\x00\x1f\x8b\x08\x00\x00\x00\x00\x00' > "$d/sorted"
  # shellcheck disable=SC2002  # a pipe, not a file, on purpose
  cat "$d/words" | "$corank" --format u64 > "$d/out" 2> "$d/err" || rc=$?
  if [ "$rc" != 0 ] || ! cmp -s "$d/out" "$d/sorted"; then
    fail "integrity u64 gzip-like" "exit $rc, '$(head -c 300 "$d/err")'" "integrity magic"
  fi
  rm -rf "$d"
  echo "hostile-sweep: integrity done, $cases runs, $failed failures, $(( $(date +%s) - start )) s"
}
[ "${INTEGRITY:-1}" = 1 ] && [ "${CRASH:-1}" != only ] && integrity_cases
[ "${CRASH:-1}" = 0 ] || crash_sweep
# ---- corank-mpi --------------------------------------------------------------
# What only several ranks can meet, with 3 ranks (each started in a directory
# of its own through a shell, so that a relative input path names another file
# on one rank): a file shorter on one rank than rank 0's snapshot (refused,
# naming rank and file) or longer (the snapshot's prefix sorted), a file
# missing on one rank, a CSV quote never closed and a line of megabytes among
# the sample offsets (refused or sorted, a rank's peak RSS bounded), part files
# one of which cannot be replaced (every part put back), a hard-linked target
# (filled in place), and SIGTERM to mpirun and SIGKILL to the ranks at random
# points (nothing left, or only a dead job's names, which the next run
# removes; the target old or sorted). Skipped where mpirun or
# BIN_DIR/corank-mpi is missing; MPI=0 leaves it out.
mpi_section() {
  local mpi=$bin/corank-mpi d=$work/mpi
  [ "${MPI:-1}" = 1 ] || return 0
  if ! command -v mpirun > /dev/null || [ ! -x "$mpi" ]; then
    echo "SKIP mpi: needs mpirun and $mpi"
    return 0
  fi
  local np=3 rc peak label
  local mpirun=(mpirun --oversubscribe -np $np)
  [ "$(id -u)" != 0 ] || mpirun+=(--allow-run-as-root)
  rm -rf "$d"
  mkdir -p "$d"/{full,short,none,self,tmp,out,pids,shm}
  cd "$d"
  # Open MPI's shared-memory segments, which a rank killed outright cannot
  # remove: in the work directory, not /dev/shm.
  export OMPI_MCA_btl_vader_backing_directory=$d/shm
  # mpi_run "DIR0 DIR1 DIR2" CORANK-MPI-ARGS...: rank r in DIR_r, each ending by
  # itself (its status and peak RSS in status.r, rss.r); rc: the worst status.
  # A rank's address space is held to MPI_VM KiB (default 4 GB; "unlimited"
  # under AddressSanitizer), so that a rank gone wild fails instead of
  # taking the machine's memory.
  mpi_run() {
    local dirs=$1 f k
    shift
    rm -f status.* rss.* pids/*
    cases=$((cases + 1))
    DIRS=$dirs D=$d VM=${MPI_VM:-4000000} timeout -k 5 "$timeout_s" "${mpirun[@]}" --mca orte_abort_on_non_zero_status 0 \
      -x DIRS -x D -x VM bash -c '
      r=${OMPI_COMM_WORLD_RANK:-0}
      echo $$ > "$D/pids/$r"
      ulimit -v "$VM" && cd "$(echo $DIRS | cut -d" " -f$((r + 1)))" && /usr/bin/time -f %M -o "$D/rss.$r" "$0" "$@"
      s=$?
      echo $s > "$D/status.$r"
      exit $s' "$mpi" --gpu=off -T "$d/tmp" "$@" > stdout 2> err || true
    rc=0 peak=0
    for f in status.* rss.*; do
      [ -f "$f" ] || continue
      k=$(tail -n 1 "$f")
      case $f in status.*) [ "$k" -le "$rc" ] || rc=$k ;; rss.*) [ "${k:-0}" -le "$peak" ] || peak=$k ;; esac
    done
    [ "$(ls status.* 2> /dev/null | wc -l)" = $np ] || { rc=hang; fail "$label" "not every rank ended" "mpi hang"; }
  }
  # mpi_check WANT MESSAGE: the exit status, the one line (when refused), nothing
  # left beside the target or in -T but the target and part files.
  mpi_check() {
    local want=$1 message=$2 e
    e=$(grep '^corank-mpi:' err | head -3 | tr '\n' '|' || true)
    [ "$rc" = "$want" ] || fail "$label" "exit $rc, want $want: '$e'" "mpi rc"
    if [ "$want" = 2 ]; then
      [ "$(grep -c '^corank-mpi:' err)" = 1 ] || fail "$label" "not one 'corank-mpi: ' line: '$e'" "mpi stderr"
      grep -qxF "corank-mpi: $message" err || fail "$label" "message '$e', want '$message'" "mpi message"
    fi
    local extra
    extra=$(ls -A out tmp | grep -vE '^(out|tmp):$|^$|^sorted(\.part-[0-9]+)?$' | tr '\n' ' ' || true)
    [ -z "$extra" ] || fail "$label" "left $extra" "mpi leftover"
  }
  good lines 11 $((good_mb << 20)) full/data.txt
  head -c $(( $(stat -c %s full/data.txt) / 2 )) full/data.txt > short/data.txt
  "$corank" --gpu=off -o ref-short short/data.txt
  "$corank" --gpu=off -o ref-full full/data.txt
  local size; size=$(stat -c %s full/data.txt)

  label="mpi: rank 2 shown a shorter file"
  mpi_run "full full short" -o "$d/out/sorted" data.txt
  mpi_check 2 "rank 2: data.txt: shorter ($(stat -c %s short/data.txt) bytes) than when the sort started ($size bytes on rank 0)"
  [ ! -e out/sorted ] || fail "$label" "an output" "mpi output"
  label="mpi: ranks 1 and 2 shown a longer file"
  mpi_run "short full full" -o "$d/out/sorted" data.txt
  mpi_check 0 ""
  cmp -s ref-short out/sorted || fail "$label" "not the sorted snapshot" "mpi output"
  rm -f out/sorted
  label="mpi: a file missing on rank 1"
  mpi_run "full none full" -o "$d/out/sorted" data.txt
  mpi_check 2 "rank 1: open failed: data.txt: No such file or directory"

  label="mpi: an unterminated CSV quote among the sample offsets"
  awk 'BEGIN{srand(6);print "id,name";for(i=0;i<600000;i++){if(i==300000)print "7,\"unterminated";else printf "%d,n%d\n",int(rand()*1e6),i}}' > full/bad.csv
  local want
  want=$(cd full && "$corank" --gpu=off -S 5M --format csv --header --key id:n -o /dev/null bad.csv 2>&1 |
    sed -n 's/^corank: //p' || true)
  mpi_run "full full full" -S 5M --format csv --header --key id:n -o "$d/out/sorted" bad.csv
  mpi_check 2 "rank 1: $want"
  [ "$peak" -le 200000 ] || fail "$label" "a rank's peak RSS $peak KiB" "mpi rss"
  label="mpi: a line of 8 MB"
  awk 'BEGIN { for (i = 0; i < 20000; i++) { printf "k%d\n", (i * 7919) % 20000; if (i == 9000) {
    s = "long"; while (length(s) < 8000000) s = s s; print s } } }' > full/long.txt
  "$corank" --gpu=off -o ref-long full/long.txt
  mpi_run "full full full" -S 5M -o "$d/out/sorted" long.txt
  mpi_check 0 ""
  cmp -s ref-long out/sorted || fail "$label" "output differs from corank's" "mpi output"
  [ "$peak" -le 300000 ] || fail "$label" "a rank's peak RSS $peak KiB" "mpi rss"
  rm -f out/sorted

  label="mpi: --part-files, one part's name a directory"
  for k in 0 2 3; do echo "old part $k" > out/sorted.part-0000$k; done
  mkdir out/sorted.part-00001
  local before; before=$(cat out/sorted.part-0000[023] | cksum)
  mpi_run "full full full" --part-files -o "$d/out/sorted" data.txt
  mpi_check 2 "rank 1: rename failed: $d/out/sorted.part-00001: Is a directory"
  [ "$(cat out/sorted.part-0000[023] | cksum)" = "$before" ] || fail "$label" "the old parts were not put back" "mpi output"
  rm -rf out/*
  label="mpi: a hard-linked target"
  cp full/data.txt out/sorted && ln out/sorted out/link
  local inode; inode=$(stat -c %i out/sorted)
  mpi_run "full full full" -o "$d/out/sorted" data.txt
  mv out/link self/link  # out holds the target alone for mpi_check
  mpi_check 0 ""
  [ "$(stat -c %i out/sorted)" = "$inode" ] && cmp -s ref-full self/link || fail "$label" "not filled in place" "mpi output"
  rm -rf out/* self/*

  # Kill points fall within an undisturbed run of the same sort.
  local sig k delay span round input_sum job t0
  input_sum=$(sum_of full/data.txt)
  mpi_kill_run() {
    rm -f pids/*
    # (timeout: mpirun itself may hang when a rank is killed while it starts)
    DIRS="full full full" D=$d timeout -k 5 "$timeout_s" "${mpirun[@]}" -x DIRS -x D bash -c '
      r=${OMPI_COMM_WORLD_RANK:-0}; echo $$ > "$D/pids/$r"
      cd "$(echo $DIRS | cut -d" " -f$((r + 1)))" && exec "$0" "$@"' "$mpi" --gpu=off -S 1M -T "$d/tmp" \
      -o "$d/out/sorted" data.txt > /dev/null 2> err &
    job=$!
  }
  t0=$(date +%s%N)
  mpi_kill_run
  wait $job || true
  span=$(( ($(date +%s%N) - t0) / 1000000 ))
  rm -f out/sorted
  for round in 1 2 3; do
    for sig in TERM KILL; do
      label="mpi: SIG$sig mid-sort ($round)"
      rm -rf tmp/* out/* out/.??*  # no failure carried over from the case before
      cp full/data.txt out/sorted
      before=$(cksum < out/sorted)
      delay=$((span / 5 + RANDOM % (span - span / 5)))
      cases=$((cases + 1))
      mpi_kill_run
      sleep "$(awk -v ms=$delay 'BEGIN { printf "%.3f", ms / 1000 }')"
      if [ $sig = TERM ]; then kill -TERM $job 2> /dev/null || true
      else
        for _ in $(seq 50); do [ "$(ls pids | wc -l)" = $np ] && break; sleep 0.1; done  # every rank started
        for k in pids/*; do kill -KILL "$(cat "$k")" 2> /dev/null || true; done
      fi
      wait $job || true
      [ "$(cksum < out/sorted)" = "$before" ] || cmp -s ref-full out/sorted ||
        fail "$label after $delay ms" "the target is neither old nor sorted" "mpi output"
      [ "$(sum_of full/data.txt)" = "$input_sum" ] || fail "$label after $delay ms" "the input changed" "mpi input"
      if [ $sig = KILL ]; then  # the next run beside the target removes what the dead job left
        mpi_run "full full full" -o "$d/out/other" data.txt
        rm -f out/other
      else
        rc=0
      fi
      mpi_check 0 ""
      rm -f out/sorted self/*
    done
  done
  cd "$work"
  echo "hostile-sweep: mpi done, $cases runs, $failed failures, $(( $(date +%s) - start )) s"
}
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

# ---- limits: -S at small budgets, ulimit -n, -m of many files, ulimit -v ----
# Each case runs in a subshell that sets its limits (soft and hard, so that
# corank cannot raise them); ulimit -n N counts as if only standard input,
# output and error were open (descriptors this script inherited are added).
# Text and gensort of limit_mb MB each.
limit_cases() {
  local dir=$work/limits mb=$1 f S n rc kib own label
  rm -rf "$dir"
  mkdir -p "$dir/tmp" "$dir/m"
  "$bin/corank-gen" --format gensort --seed 11 --bytes "${mb}M" -o "$dir/g"
  "$bin/corank-loggen" --size "${mb}M" --seed 11 -o "$dir/t"
  printf 'b\na\n' > "$dir/tiny.t"
  head -c 1000 "$dir/g" > "$dir/tiny.g"
  # limited "ulimit -n N" | "ulimit -v KiB" | "" -- corank args: status into
  # rc, peak KiB into kib.
  limited() {
    local lim=$1; shift
    rc=0
    (case $lim in
       "ulimit -n "*) ulimit -n $(( ${lim#ulimit -n } + $(ls /proc/$BASHPID/fd | wc -l) - 3 )) ;;
       *) eval "$lim" ;;
     esac
     exec timeout -k 5 "$timeout_s" /usr/bin/time -f %M -o "$dir/rss" "$corank" --gpu=off "$@") \
      > "$dir/stdout" 2> "$dir/stderr" || rc=$?
    kib=$(tail -n 1 "$dir/rss" 2>/dev/null || echo 0)
  }
  # Sets ok=1 where the run did what was expected.
  check_limited() {  # label expect(pass|fail) out format-args...
    local l=$1 want=$2 out=$3; shift 3
    cases=$((cases + 1)) ok=0
    local err; err=$(head -c 300 "$dir/stderr" | tr '\n' '|')
    if [ "$want" = pass ]; then
      if [ "$rc" != 0 ]; then fail "$l" "exit $rc: $err" "limits rc"; rm -f "$out"; return 0; fi
      "$corank" "$@" -C "$out" || fail "$l" "output not in order" "limits order"
    else
      [ "$rc" = 2 ] || fail "$l" "exit $rc (want 2): $err" "limits rc"
      [ "$(wc -l < "$dir/stderr")" = 1 ] || fail "$l" "stderr is not one line: $err" "limits stderr"
      [ ! -e "$out" ] || fail "$l" "OUT exists after a failed sort" "limits output"
    fi
    [ -z "$(ls -A "$dir/tmp")" ] || fail "$l" "left in -T: $(ls -A "$dir/tmp" | head -3)" "limits leftover"
    rm -f "$out"
    ok=1
  }
  within() {  # label S: peak kib within 1.10 x S + own
    local limit=$(( $(numfmt --from=iec "$2") / 1024 ))
    printf 'limits | %s | peak %s KiB | own %s KiB | %s\n' "$1" "$kib" "$own" \
      "$(awk -v a="$kib" -v o="$own" -v b="$limit" 'BEGIN { printf "(peak - own) / S = %.3f", (a - o) / b }')"
    [ "$kib" -le $(( limit * 110 / 100 + own )) ] || fail "$1" "peak RSS $kib KiB > 1.10 x $limit + $own KiB" "limits rss"
  }
  for f in t g; do
    local fa=(); [ "$f" = g ] && fa=(--format gensort)
    for S in 5M 10M 50M; do
      for n in none 32; do
        local lim=""; [ "$n" = none ] || lim="ulimit -n $n"
        limited "$lim" "${fa[@]}" -S "$S" -T "$dir/tmp" -o "$dir/out" "$dir/tiny.$f"
        own=$kib
        label="limits $f -S $S ulimit -n $n"
        limited "$lim" "${fa[@]}" -S "$S" -T "$dir/tmp" -o "$dir/out" "$dir/$f"
        check_limited "$label" pass "$dir/out" "${fa[@]}"
        [ "$ok" = 0 ] || within "$label" "$S"
      done
    done
    head -c 4000000 "$dir/$f" > "$dir/small.$f"  # whole gensort records
    limited "ulimit -n 10" "${fa[@]}" -S 1M -T "$dir/tmp" -o "$dir/out" "$dir/small.$f"
    check_limited "limits $f -S 1M ulimit -n 10" pass "$dir/out" "${fa[@]}"
    limited "ulimit -n 6" "${fa[@]}" -S 1M -T "$dir/tmp" -o "$dir/out" "$dir/small.$f"
    check_limited "limits $f ulimit -n 6" fail "$dir/out" "${fa[@]}"
    grep -q 'ulimit -n' "$dir/stderr" || fail "limits $f ulimit -n 6" "the error does not name ulimit -n" "limits message"
  done
  # -m: 3000 sorted files of 20 lines.
  split -n l/3000 -d -a 4 "$dir/small.t" "$dir/m/f"
  for p in "$dir"/m/f*; do LC_ALL=C sort -o "$p" "$p"; done
  LC_ALL=C sort -m "$dir"/m/f* > "$dir/m.want"
  for b in "" --batch-size=16; do
    limited "ulimit -n 256" -m $b -S 10M -T "$dir/tmp" -o "$dir/out" "$dir"/m/f*
    label="limits -m 3000 files ulimit -n 256 $b"
    cases=$((cases + 1))
    if [ "$rc" != 0 ]; then fail "$label" "exit $rc: $(head -c 300 "$dir/stderr")" "limits rc"
    else cmp -s "$dir/out" "$dir/m.want" || fail "$label" "output differs from GNU sort -m" "limits merge"; fi
    rm -f "$dir/out"
  done
  # ulimit -v: room for -S 100M and the program; then too little.
  limited "ulimit -v $(( 260 * 1024 ))" -S 100M -T "$dir/tmp" -o "$dir/out" "$dir/t"
  check_limited "limits t -S 100M ulimit -v 260M" pass "$dir/out"
  limited "ulimit -v $(( 60 * 1024 ))" -S 100M -T "$dir/tmp" -o "$dir/out" "$dir/t"
  check_limited "limits t -S 100M ulimit -v 60M" fail "$dir/out"
  grep -q 'ulimit -v' "$dir/stderr" || fail "limits ulimit -v 60M" "the error does not name ulimit -v" "limits message"
  rm -rf "$dir"
}
if [ "${LIMITS:-1}" = 1 ] && [ "${CRASH:-1}" != only ]; then
  case $mode in quick) limit_cases 64 ;; full) limit_cases 420 ;; esac
fi

echo "hostile-sweep: $cases runs, $failed failures, $notes notes, $(( $(date +%s) - start )) s"
for g in "${!outcomes[@]}"; do echo "  either way allowed: $g: ${outcomes[$g]} runs"; done | sort
for g in "${!fail_groups[@]}"; do echo "  failures: $g: ${fail_groups[$g]}"; done | sort
[ "$failed" = 0 ]
