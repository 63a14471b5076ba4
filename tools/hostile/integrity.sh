# Sourced by tools/hostile-sweep.sh, whose variables and helpers (bin, work,
# corank, cases, failed, fail, check_run, ...) it uses: integrity_cases,
# inputs that change while read, runs that read back short, compression magic.

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
