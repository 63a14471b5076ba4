# Sourced by tools/hostile-sweep.sh, whose variables and helpers (bin, work,
# corank, cases, failed, fail, check_run, ...) it uses: limit_cases, -S at
# small budgets, ulimit -n, -m of many files, ulimit -v.

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
