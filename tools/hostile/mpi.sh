# Sourced by tools/hostile-sweep.sh, whose variables and helpers (bin, work,
# corank, cases, failed, fail, check_run, ...) it uses: mpi_section, what only
# several corank-mpi ranks can meet.

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
