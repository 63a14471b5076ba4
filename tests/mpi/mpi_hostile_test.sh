#!/usr/bin/env bash
# corank-mpi against inputs and targets that are not what they seem, with 3
# ranks: ranks shown different files under one name (each rank is started
# in a directory of its own through a shell, so that a relative input path
# names another file on one rank), a file missing on one rank, records that
# cover many sample offsets, a malformed record found while sampling, part
# files that cannot all be replaced, a hard-linked target; binary records
# whose files differ between ranks of one host. Each case checks
# the exit status, the one message, the output against corank's, and that
# nothing is left beside the target or in -T.
#   mpi_hostile_test.sh BUILD_DIR [MPIRUN]
set -euo pipefail
[ -z "${TRACE:-}" ] || set -x
mpirun=${2:-mpirun}
test_name=mpi-hostile
source "$(dirname "$0")/mpi_env.sh"
np=3

# ranks_in "DIR0 DIR1 DIR2" CORANK-MPI-ARGS...: rank r starts in DIR_r (under
# $work), -T and the output absolute; stderr to err, status to rc.
mkdir -p tmp out
run_in() {
  DIRS=$1
  shift
  rc=0
  DIRS=$DIRS "$mpirun" --allow-run-as-root --oversubscribe -np $np -x DIRS sh -c '
    cd "$(echo $DIRS | cut -d" " -f$((${OMPI_COMM_WORLD_RANK:-0} + 1)))" && exec "$0" "$@"' \
    "$mpi" --gpu=off --parallel 1 -T "$work/tmp" "$@" 2> err || rc=$?
}

# expect_refused NAME MESSAGE: exit 2, that one line from corank-mpi (mpirun
# adds its own about the rank that exited 2), nothing left.
expect_refused() {
  local name=$1 message=$2
  [ "$rc" -eq 2 ] || fail "$name: exit status $rc, want 2"
  [ "$(grep -c '^corank-mpi:' err)" -eq 1 ] || { cat err; fail "$name: not one message"; }
  grep -qxF "corank-mpi: $message" err || { cat err; fail "$name: the message is not '$message'"; }
  expect_clean "$name"
}
expect_clean() {
  [ -z "$(ls -A out | grep -vE '^sorted(\.part-[0-9]+)?$' || true)" ] ||
    fail "$1: left beside the output: $(ls -A out | tr '\n' ' ')"
  [ -z "$(ls -A tmp)" ] || fail "$1: left in -T: $(ls -A tmp | tr '\n' ' ')"
}

# ---- one snapshot of the inputs ----------------------------------------
mkdir -p full short none
awk 'BEGIN { srand(3); for (i = 0; i < 60000; i++) printf "w%d %d\n", int(rand() * 50000), i }' > full/data.txt
head -c 300000 full/data.txt > short/data.txt  # a prefix, cut mid-line
"$corank" --gpu=off -o ref-short short/data.txt

# Rank 2 shown a shorter file than rank 0's snapshot: it cannot read its
# share; refused, naming the rank and the file.
run_in "full full short" -S 4M -o "$work/out/sorted" data.txt
expect_refused "rank 2 shorter" \
  "rank 2: data.txt: shorter (300000 bytes) than when the sort started ($(stat -c %s full/data.txt) bytes on rank 0)"
[ ! -e out/sorted ] || fail "rank 2 shorter: an output"

# Ranks 1 and 2 shown more than rank 0 (a file still being appended to when
# the job starts): every rank reads the snapshot's prefix.
run_in "short full full" -S 4M -o "$work/out/sorted" data.txt
[ "$rc" -eq 0 ] || { cat err; fail "grown file: exit status $rc"; }
cmp -s ref-short out/sorted || fail "grown file: the output is not the sort of the snapshot's prefix"
expect_clean "grown file"
rm -f out/sorted

# A file missing on one rank: that rank says which file and why.
run_in "full full none" -o "$work/out/sorted" data.txt
expect_refused "missing on rank 2" "rank 2: open failed: data.txt: No such file or directory"
run_in "none full full" -o "$work/out/sorted" data.txt
expect_refused "missing on rank 0" "open failed: data.txt: No such file or directory"

# Binary records: ranks of one host sort their parts where the inputs lie
# (--exchange=parts; by default these unbound ranks would leave the sort to
# rank 0) only when every rank maps the same files. Shown another file of
# the same size under the name, rank 2 makes every rank take the exchange;
# where all see one file, they share it. The ranks agree either way: all or
# none.
"$build/tools/gen/corank-gen" -n 30000 --seed 5 -o full/recs.dat
"$build/tools/gen/corank-gen" -n 30000 --seed 6 -o short/recs.dat
node_ranks() { grep -c '"node_inputs": true' "$work/stats.json" || true; }
run_in "full full short" --exchange=parts --format gensort --stats "$work/stats.json" -o "$work/out/sorted" recs.dat
[ "$rc" -eq 0 ] || { cat err; fail "other records on rank 2: exit status $rc"; }
[ "$(node_ranks)" -eq 0 ] || fail "other records on rank 2: $(node_ranks) rank(s) sorted their parts where the inputs lie"
run_in "full full full" --exchange=parts --format gensort --stats "$work/stats.json" -o "$work/out/sorted" recs.dat
[ "$rc" -eq 0 ] || { cat err; fail "same records: exit status $rc"; }
[ "$(node_ranks)" -eq $np ] || fail "same records: $(node_ranks) rank(s), not $np, sorted their parts where the inputs lie"
"$corank" --gpu=off --format gensort -o ref-recs full/recs.dat
cmp -s ref-recs out/sorted || fail "same records: the output differs from corank's"
expect_clean "binary records"
rm -f out/sorted "$work/stats.json"
# --exchange as GNU tools take an option: a prefix of its name, the value a
# separate word, a prefix of the value.
run_in "full full full" --exch par --format gensort --stats "$work/stats.json" -o "$work/out/sorted" recs.dat
[ "$rc" -eq 0 ] || { cat err; fail "--exch par: exit status $rc"; }
[ "$(node_ranks)" -eq $np ] || fail "--exch par: $(node_ranks) rank(s), not $np, sorted their parts where the inputs lie"
cmp -s ref-recs out/sorted || fail "--exch par: the output differs from corank's"
rm -f out/sorted "$work/stats.json"
# --exchange takes auto, parts or always, as GNU tools take an argument from
# a list; an empty one is none of them.
for how in sometimes ""; do
  run_in "full full full" --exchange="$how" --format gensort -o "$work/out/sorted" recs.dat
  [ "$rc" -eq 2 ] || fail "--exchange=$how: exit status $rc, want 2"
  grep -qxF "corank-mpi: invalid argument '$how' for '--exchange'" err || { cat err; fail "--exchange=$how: no message"; }
  [ ! -e out/sorted ] || fail "--exchange=$how: an output"
done
# An option corank-mpi lacks: getopt's message once, under corank-mpi's name,
# then GNU's hint.
run_in "full full full" --bogus -o "$work/out/sorted" data.txt
expect_refused "--bogus" "unrecognized option '--bogus'"
grep -qxF "Try 'corank-mpi --help' for more information." err || { cat err; fail "--bogus: no hint"; }
run_in "full full full" --part-files=yes -o "$work/out/sorted" data.txt
expect_refused "--part-files=yes" "option '--part-files' doesn't allow an argument"
# --progress: rank 0 alone draws its exchange, then its sort, each to 100%.
run_in "full full full" --progress -o "$work/out/sorted" data.txt
[ "$rc" -eq 0 ] || { cat err; fail "--progress: exit status $rc"; }
drawn=$(tr '\r' '\n' < err)
for phase in exchange sort; do
  [ "$(grep -cE "^corank: $phase +\[\.+\] +0% " <<<"$drawn")" -eq 1 ] || { cat err; fail "--progress: $phase not begun once"; }
  grep -qE "^corank: $phase +\[#+\] 100% " <<<"$drawn" || { cat err; fail "--progress: $phase not ended"; }
done
"$corank" --gpu=off -o ref-progress full/data.txt
cmp -s out/sorted ref-progress || fail "--progress: the output differs from corank's"
rm -f out/sorted
# --help and --version answer once, from the first rank, with status 0.
for what in --help --version; do
  run_in "full full full" "$what" > said
  [ "$rc" -eq 0 ] || { cat err; fail "$what: exit status $rc"; }
  [ "$(grep -cE '^(Usage: mpirun -np N corank-mpi|corank-mpi [0-9])' said)" -eq 1 ] || fail "$what: not said once"
done

# ---- sampling bounded by memory -----------------------------------------
# peak_kib: the largest peak RSS of the ranks of the last run_timed (0 where
# /usr/bin/time is missing: the bound is then left unchecked). The ranks'
# address space is limited to 4 GB (but under AddressSanitizer, whose shadow
# memory takes far more): a regression fails with "memory exhausted" instead
# of taking the machine's memory.
limit=unlimited
[ -n "${ASAN_OPTIONS:-}" ] || limit=4000000
timed=()
[ -x /usr/bin/time ] && timed=(/usr/bin/time -f %M -o "$work/rss.%r")
run_timed() {
  rm -f rss.* status.*
  DIRS=$1
  shift
  # Each rank ends by itself (mpirun, told not to kill the others when one
  # exits non-zero, exits 0): its status is written by its shell.
  DIRS=$DIRS TIMED="${timed[*]}" LIMIT=$limit WORK=$work timeout -k 5 120 "$mpirun" --allow-run-as-root \
    --oversubscribe -np $np --mca orte_abort_on_non_zero_status 0 -x DIRS -x TIMED -x LIMIT -x WORK bash -c '
    r=${OMPI_COMM_WORLD_RANK:-0}
    ulimit -v "$LIMIT" && cd "$(echo $DIRS | cut -d" " -f$((r + 1)))" && ${TIMED//%r/$r} "$0" "$@"
    s=$?
    echo $s > "$WORK/status.$r"
    exit $s' "$mpi" --gpu=off --parallel 1 -T "$work/tmp" "$@" 2> err || true
  rc=0 peak_kib=0
  local f k
  for f in status.* rss.*; do
    [ -f "$f" ] || continue
    k=$(tail -n 1 "$f")
    case $f in
      status.*) [ "$k" -le "$rc" ] || rc=$k ;;
      rss.*) [ "${k:-0}" -le "$peak_kib" ] || peak_kib=$k ;;
    esac
  done
  [ "$(ls status.* 2> /dev/null | wc -l)" -eq $np ] || { rc=99; echo "not every rank ended by itself"; }
}
mkdir -p sample
# One CSV row with an unterminated quote in the middle of 8.8 MB: the row
# runs to the end of the file, across thousands of sample offsets. The rank
# that holds it reports it at once, as corank does, and every rank stops.
awk 'BEGIN{srand(6);print "id,name";for(i=0;i<600000;i++){if(i==300000)print "7,\"unterminated";else printf "%d,n%d\n",int(rand()*1e6),i}}' > sample/bad.csv
(cd sample && "$corank" --gpu=off -S 5M --format csv --header --key id:n -o ../ref-bad bad.csv 2> ../ref-bad.err) || true
run_timed "sample sample sample" -S 5M --format csv --header --key id:n -o "$work/out/sorted" bad.csv
expect_refused "csv unterminated quote while sampling" "rank 1: $(sed -n 's/^corank: //p' ref-bad.err)"
[ "$peak_kib" -le 200000 ] || fail "csv unterminated quote while sampling: a rank's peak RSS is $peak_kib KiB"
# One line of 3 MB among short ones: sampled once, sorted as corank sorts it.
awk 'BEGIN { srand(9); for (i = 0; i < 40000; i++) { printf "k%d\n", int(rand() * 1e6); if (i == 20000) {
  s = "long"; while (length(s) < 3000000) s = s s; print s } } }' > sample/long.txt
"$corank" --gpu=off -o ref-long sample/long.txt
run_timed "sample sample sample" -S 5M -o "$work/out/sorted" long.txt
[ "$rc" -eq 0 ] || { cat err; fail "long line: exit status $rc"; }
cmp -s ref-long out/sorted || fail "long line: the output differs from corank's"
[ "$peak_kib" -le 200000 ] || fail "long line: a rank's peak RSS is $peak_kib KiB"
expect_clean "long line"
rm -f out/sorted

# ---- targets replaced whole or not at all --------------------------------
"$corank" --gpu=off -o ref-full full/data.txt
# --part-files when one rank cannot rename its part (a directory holds its
# name): every rank puts back what was there, the parts of an earlier run
# with more ranks included; nothing else is left.
parts() { (cd out && for f in sorted.part-*; do [ -e "$f" ] && echo "$f $(cat "$f" 2> /dev/null | cksum)"; done); }
for old in yes no; do
  rm -rf out/* out/.??*
  if [ $old = yes ]; then
    for k in 0 2 3; do echo "old part $k" > out/sorted.part-0000$k; done
  fi
  mkdir out/sorted.part-00001
  before=$(parts)
  run_in "full full full" --part-files -o "$work/out/sorted" data.txt
  expect_refused "part files, rank 1's rename refused (old parts: $old)" \
    "rank 1: rename failed: $work/out/sorted.part-00001: Is a directory"
  [ "$(parts)" = "$before" ] || fail "part files, rank 1's rename refused (old parts: $old): the parts changed"
done
rm -rf out/* out/.??*
for k in 0 1 2 3 4; do echo "old part $k" > out/sorted.part-0000$k; done
run_in "full full full" --part-files -o "$work/out/sorted" data.txt
[ "$rc" -eq 0 ] || { cat err; fail "part files over an earlier run's: exit status $rc"; }
cat out/sorted.part-* | cmp -s - ref-full || fail "part files over an earlier run's: not the sorted whole"
[ "$(ls out)" = "$(printf 'sorted.part-00000\nsorted.part-00001\nsorted.part-00002')" ] ||
  fail "part files over an earlier run's: left $(ls -A out | tr '\n' ' ')"
expect_clean "part files over an earlier run's"
rm -rf out/* out/.??*

# A target with another hard link is filled in place, as corank fills it:
# the same inode, and the link sees the sorted output. Also when the target
# is the input itself.
cp full/data.txt out/sorted && ln out/sorted out/link
inode=$(stat -c %i out/sorted)
run_in "full full full" -o "$work/out/sorted" data.txt
[ "$rc" -eq 0 ] || { cat err; fail "hard-linked target: exit status $rc"; }
[ "$(stat -c %i out/sorted)" = "$inode" ] || fail "hard-linked target: replaced, not filled in place"
cmp -s ref-full out/link || fail "hard-linked target: the other link does not see the sorted output"
[ "$(ls -A out | tr '\n' ' ')" = "link sorted " ] || fail "hard-linked target: left $(ls -A out | tr '\n' ' ')"
rm -f out/link out/sorted
mkdir -p self && cp full/data.txt self/data.txt && ln self/data.txt self/data.link
run_in "self self self" -o "$work/self/data.txt" data.txt
[ "$rc" -eq 0 ] || { cat err; fail "hard-linked input as target: exit status $rc"; }
cmp -s ref-full self/data.txt && cmp -s ref-full self/data.link ||
  fail "hard-linked input as target: not sorted through both links"
[ "$(ls -A self | tr '\n' ' ')" = "data.link data.txt " ] || fail "hard-linked input as target: left $(ls -A self)"
expect_clean "hard-linked target"

finish "all hostile cases passed"
