# Sourced by tools/hostile-sweep.sh, whose variables and helpers (bin, work,
# corank, cases, failed, fail, check_run, ...) it uses: crash_sweep, kills at
# random points, limits and the names around OUT.

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
