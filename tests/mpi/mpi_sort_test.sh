#!/usr/bin/env bash
# corank-mpi end to end on the CPU path: for NP ranks, every case's output is
# byte-identical to corank's single-process sort of the same input.
#   mpi_sort_test.sh BUILD_DIR NP [MPIRUN] [CASES]
# CASES: "all" (the default), or "rank-count": those whose work the number
# of ranks shapes (how shares are cut and parts placed, rounds, files and
# records fewer than ranks, part files, a rank failing), for the rank counts
# after the one that runs them all.
# Prints each case and the measured partition skew; asserts skew <= 1.05 only
# on inputs large enough for it to mean something (>= 10^5 records).
set -euo pipefail
np=$2
mpirun=${3:-mpirun}
cases=${4:-all}
# Under CORANK_TEST_SWEEP=rotate (the sanitizer job, where each process costs
# several times as much) the rank-count cases only: there the distributed
# sort's stages also run in one process (corank_mpi_stages_test: lines, CSV,
# fixed-size records), and the release job runs every case.
if [ "${CORANK_TEST_SWEEP:-}" = rotate ]; then cases=rank-count; fi
test_name=mpi-test
source "$(dirname "$0")/mpi_env.sh"
gen=$build/tools/gen/corank-gen
run_mpi() { "$mpirun" --allow-run-as-root --oversubscribe -np "$np" "$mpi" --gpu=off --parallel 1 "$@"; }

skew_of() { sed -n 's/.*"partition_skew": *\([0-9.e+-]*\).*/\1/p' "$1" | head -1; }

# same NAME MIN_RECORDS_FOR_SKEW RECORDS [option]... -- INPUT...: corank and
# corank-mpi (--verify, --stats) give the same bytes, written in $out_dir.
# Every rank sorts straight into its region of the output, except under -u,
# where the pieces' sizes are known only after the sorts (each is sorted into
# a file of its own, then copied into place). Binary records run twice with
# 2 ranks or more: with --exchange=parts (every rank on this one host sorts
# its part of the inputs, which are in the page cache, where they lie:
# node_inputs; by default the ranks here, unbound, would leave the sort to
# rank 0, as mpi_one_sort_test.sh tests), and with --exchange=always, where
# every rank keeps the records it receives in memory, except in tests named
# "(spills)", where they outgrow half of -S during the exchange and go to
# files.
out_dir=.
rank_count_cases='^(gensort uniform|gensort skewed|gensort -S 4M, rounds \(spills\)|u64 few-unique|i32 -r|two inputs'\
'|empty and one|three records, equal keys|gensort, output on tmpfs|lines|lines -u -k1,1|lines, several files'\
'|lines --time, inputs in a zone by pattern'\
'|csv -S 4M \(rounds, spills\)|csv more ranks than rows|csv empty first input|csv BOM, CRLF'\
'|pgtext -k name -k id:n, two files|jsonl -k score:n|gensort skewed, 3 threads|lines -s -k1,1, 3 threads)$'
all_cases() { [ "$cases" = all ]; }
binary_cases=0
same() {
  local name=$1 records=$2
  shift 2
  all_cases || [[ $name =~ $rank_count_cases ]] || return 0
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  local binary=0
  case " ${opts[*]} " in *" --format "[gfiu]*) binary=1 ;; esac  # text always goes through the exchange
  rm -f ref
  "$corank" --gpu=off "${opts[@]}" -o ref "$@"
  local exchange modes=(auto)
  if [ "$binary" -eq 1 ] && [ "$np" -gt 1 ]; then
    # Under CORANK_TEST_SWEEP=rotate (the sanitizer job, where each process
    # costs several times as much), the binary cases take the two ways in
    # turn instead of both.
    if [ "${CORANK_TEST_SWEEP:-}" = rotate ]; then
      binary_cases=$((binary_cases + 1))
      modes=(parts)
      [ $((binary_cases % 2)) -eq 1 ] || modes=(always)
    else
      modes=(parts always)
    fi
  fi
  for exchange in "${modes[@]}"; do same_once "$name" "$records" "$exchange" "$binary" "$@"; done
}
same_once() {
  local name=$1 records=$2 exchange=$3 binary=$4
  shift 4
  rm -f "$out_dir/out" stats.json
  if ! run_mpi "${opts[@]}" --exchange="$exchange" --verify --stats stats.json -o "$out_dir/out" "$@"; then
    fail "$name (--exchange=$exchange): corank-mpi failed"
    return
  fi
  local skew in_place=$np
  skew=$(skew_of stats.json)
  echo "$name: np=$np records=$records skew=$skew exchange=$exchange"
  cmp -s ref "$out_dir/out" || fail "$name (--exchange=$exchange): output differs from corank's"
  case " ${opts[*]} " in *" -u "*) in_place=0 ;; esac
  [ "$(grep -c '"in_place": true' stats.json)" -eq "$in_place" ] || fail "$name: not $in_place rank(s) in place"
  local in_memory=$np node=0
  [ "$binary" -eq 1 ] || in_memory=0
  case $name in *"(spills)"*) in_memory=0 ;; esac
  if [ "$binary" -eq 1 ] && [ "$np" -gt 1 ] && [ "$exchange" = parts ]; then node=$np in_memory=$np; fi
  [ "$(grep -c '"node_inputs": true' stats.json)" -eq "$node" ] ||
    fail "$name (--exchange=$exchange): not $node rank(s) sorting their parts where the inputs lie"
  [ "$(grep -c '"received_in_memory": true' stats.json)" -eq "$in_memory" ] ||
    fail "$name (--exchange=$exchange): not $in_memory rank(s) with the received records in memory"
  if [ "$np" -gt 1 ] && [ "$records" -ge 100000 ]; then
    awk -v s="$skew" 'BEGIN { exit !(s <= 1.05) }' || fail "$name: partition skew $skew > 1.05"
  fi
}

n=100000
"$gen" -n $n --dist uniform -o uniform.dat
"$gen" -n $n --dist skewed -o skewed.dat
"$gen" -n $n --dist all-equal -o equal.dat
"$gen" -n $n --dist zipf --seed 7 -o zipf.dat
"$gen" -n 50000 --format u64 --dist few-unique -o few.u64
"$gen" -n 50000 --format i32 --dist uniform -o uniform.i32
"$gen" -n 20000 --dist uniform --seed 3 -o part-a.dat
"$gen" -n 30000 --dist uniform --seed 4 -o part-b.dat
: > empty.dat
"$gen" -n 1 -o one.dat
"$gen" -n 3 --dist all-equal -o three.dat

same "gensort uniform" $n --format gensort -- uniform.dat
same "gensort skewed" $n --format gensort -- skewed.dat
same "gensort all-equal keys (stable)" $n --format gensort -- equal.dat
same "gensort zipf -u" 0 --format gensort -u -- zipf.dat
same "gensort zipf -r" $n --format gensort -r -- zipf.dat
same "gensort -S 4M, rounds (spills)" $n --format gensort -S 4M -- skewed.dat
same "fixed:100 two keys" $n --format fixed:100 -k 10:4:bytes:desc -k 0:2 -- zipf.dat
same "u64 few-unique" 50000 --format u64 -- few.u64
same "i32 -r" 50000 --format i32 -r -- uniform.i32
same "two inputs" 50000 --format gensort -- part-a.dat part-b.dat
same "empty input" 0 --format gensort -- empty.dat
same "one record" 0 --format gensort -- one.dat
same "three records, equal keys" 0 --format gensort -- three.dat
same "empty and one" 0 --format gensort -- empty.dat one.dat empty.dat

# The output on a memory file system (/dev/shm), where each rank's sort
# gathers its records into its region through a shared mapping; the regions
# start off page boundaries.
if shm=$(mktemp -d /dev/shm/corank-mpi-shm.XXXXXX 2>/dev/null); then
  trap 'rm -rf "$work" "$shm"' EXIT
  out_dir=$shm
  same "gensort, output on tmpfs" $n --format gensort -- skewed.dat
  same "u64 -S 4M, output on tmpfs" 0 --format u64 -S 4M -- few.u64
  same "gensort -u, output on tmpfs" 0 --format gensort -u -- zipf.dat
  out_dir=.
fi

# Lines: random words and numbers with many duplicates, one file without its
# last newline, an empty one.
awk 'BEGIN { srand(11); for (i = 0; i < 120000; i++)
  printf "%s %d,%c%c\n", (rand() < 0.3 ? "dup" : "w" int(rand() * 50000)), int(rand() * 1000), 97 + int(rand() * 26), 97 + i % 26 }' > words.txt
printf 'zeta 5\nalpha 10\nalpha 2' > tail.txt
: > empty.txt
same "lines" 120000 -- words.txt
same "lines -n -k2,2" 0 -n -k2,2 -- words.txt
same "lines -s -k1,1 (stable)" 120000 -s -k1,1 -- words.txt
same "lines -u -k1,1" 0 -u -k1,1 -- words.txt
same "lines -r -t, -k2" 0 -r -t, -k2 -- words.txt
same "lines, several files" 0 -- tail.txt empty.txt words.txt tail.txt
same "lines, no final newline" 0 -- tail.txt
# Local times in one zone named by a pattern (--time-zone PATTERN=ZONE): the
# ranks sort pieces that no pattern names, in the zone the inputs share.
# Inputs in different zones are refused: one set of rules reads every piece.
awk 'BEGIN { srand(5); for (i = 0; i < 30000; i++) printf "2026-07-%02d %02d:%02d:%02d tk%d\n", 1 + int(rand() * 2), int(rand() * 24), int(rand() * 60), int(rand() * 60), i }' > tokyo.log
printf '2026-07-01 00:30:00+00:00 utc\n2026-07-01 15:10:00Z utc\n' > utc.log
same "lines --time, inputs in a zone by pattern" 0 --time --time-zone '*.log=Asia/Tokyo' -- tokyo.log utc.log
set +e
run_mpi --time --time-zone 'tok*=Asia/Tokyo' -o "$out_dir/out" tokyo.log utc.log 2> zones.err
zones_rc=$?
set -e
[ "$zones_rc" -eq 2 ] && grep -q "inputs in different zones" zones.err ||
  { cat zones.err; fail "inputs in different zones: exit status $zones_rc, want 2 and the message"; }
same "lines, empty" 0 -- empty.txt
head -c 64 uniform.dat > random-source
same "lines -R -k1,1 --random-source" 0 -R -k1,1 --random-source random-source -- words.txt
tr '\n' '\0' < words.txt > words.z
same "lines -z -k1,1 -s" 0 -z -k1,1 -s -- words.z
# Lines follow the locale as corank's do, the splitters too: under
# en_US.UTF-8 case, accents and punctuation order otherwise than bytes (every
# rank reads the locale from the environment mpirun passes on).
if locale -a 2>/dev/null | grep -qix 'en_US.utf-\?8'; then
  awk 'BEGIN { srand(12); split("apple Apple APPLE ápple b-c bc B.c zebra Zebra éclair Eclair eclair _x x", w, " ")
    for (i = 0; i < 60000; i++) printf "%s %s%d\n", w[1 + int(rand() * 14)], w[1 + int(rand() * 14)], int(rand() * 100) }' > mixed.txt
  LC_ALL=en_US.UTF-8 same "lines under en_US.UTF-8" 0 -- mixed.txt
  LC_ALL=en_US.UTF-8 same "lines -k2,2 -s under en_US.UTF-8 (stable)" 0 -k2,2 -s -- mixed.txt
  LC_ALL=en_US.UTF-8 "$corank" --gpu=off -o mixed.ref mixed.txt
  LC_ALL=C "$corank" --gpu=off -o mixed.c mixed.txt
  ! cmp -s mixed.ref mixed.c || fail "lines under en_US.UTF-8: the same order as bytes (the case proves nothing)"
fi

# CSV: a header row, quoted fields holding delimiters, doubled quotes and
# newlines (so rows are cut where no newline count could tell), NULLs (empty
# fields and --null), numeric and string keys. people-2.csv has its own
# header (every input's is dropped, the first one's written once).
csv_rows() {  # csv_rows SEED N
  awk -v seed="$1" -v n="$2" 'BEGIN { srand(seed); print "id,name,score,note"
    for (i = 0; i < n; i++) {
      r = rand()
      name = r < 0.2 ? "\"Smith, J\"" : r < 0.3 ? "\"multi\nline \"\"quoted\"\"\nname, too\"" : r < 0.4 ? "" : "n" int(rand() * 500)
      score = rand() < 0.15 ? "" : rand() < 0.1 ? "NA" : (int(rand() * 1000) - 300) "." int(rand() * 10)
      note = rand() < 0.1 ? "\"\"" : rand() < 0.05 ? "\"a\n\"\"\n\"" : "x" int(rand() * 7)
      printf "%d,%s,%s,%s\n", i, name, score, note } }'
}
csv_rows 5 60000 > people.csv
csv_rows 6 3000 > people-2.csv
: > empty.csv
printf 'id,name\n1,"x\ny"\n' > tiny.csv                  # fewer rows than ranks
printf 'id,name' > header-only.csv                         # a header without its newline, no rows (tiny.csv's columns)
awk 'BEGIN { print "k,v"; for (i = 0; i < 3000; i++) printf "same,\"%d\nx\"\n", i }' > equal.csv
# A byte order mark, CRLF, a quoted CRLF; an unterminated last row in a file
# of LF rows (corank-mpi gives it LF, where corank gives a CRLF file's CR LF).
printf '\xEF\xBB\xBFk,v\r\n"b",1\r\n"a\r\n",2\r\na,3\r\n"c""d",4\r\n' > bom.csv
printf 'k,v\n"b",1\n"a\r\n",2\n"c""d",0' > unterminated.csv
tr ',' '\t' < people.csv > people.tsv
same "csv --header -k score:n" 60000 --format csv --header -k score:n -- people.csv
same "csv named keys, desc, --nulls first" 0 --format csv --header -k name -k score:n:desc --nulls first -- people.csv
same "csv --null NA -s -k note (stable)" 0 --format csv --header --null NA -s -k note -k score:n -- people.csv
same "csv no header, column number" 0 --format csv -k 2 -- people.csv
same "csv no keys" 0 --format csv --header -- people.csv
same "csv -u -k name" 0 --format csv --header -u -k name -- people.csv
same "csv -r -k id:n" 0 --format csv --header -r -k id:n -- people.csv
same "csv -S 4M (rounds, spills)" 0 --format csv --header -S 4M -k name -k id:n -- people.csv
same "csv several files, each with a header" 0 --format csv --header -k score:n -- people.csv empty.csv people-2.csv
same "csv more ranks than rows" 0 --format csv --header -k name -- tiny.csv
same "csv header only" 0 --format csv --header -k name -- header-only.csv
same "csv empty first input" 0 --format csv --header -k name -- empty.csv header-only.csv tiny.csv
same "csv all-equal keys (stable)" 0 --format csv --header -k k -- equal.csv
same "csv all-equal keys -u" 0 --format csv --header -u -k k -- equal.csv
same "csv BOM, CRLF" 0 --format csv --header -k v:n -- bom.csv
same "csv unterminated last row" 0 --format csv --header -k v:n -- unterminated.csv
same "csv BOM without --header" 0 --format csv -k 1 -- bom.csv
same "tsv --header" 0 --format tsv --header -k name -k id:n -- people.tsv
# Each rank bins its chunks with several threads (runs of records, each
# placed after the runs before it in every part): the same bytes as one
# thread, equal keys still in input order.
same "gensort skewed, 3 threads" $n --format gensort --parallel 3 -- skewed.dat
same "gensort all-equal keys, 3 threads" $n --format gensort --parallel 3 -- equal.dat
same "gensort -S 4M, 3 threads (spills)" 0 --format gensort -S 4M --parallel 3 -- skewed.dat
same "lines -s -k1,1, 3 threads" 0 -s -k1,1 --parallel 3 -- words.txt
same "csv -k score:n, 3 threads" 0 --format csv --header -k score:n --parallel 3 -- people.csv
rm -f parts.part-*
"$corank" --gpu=off --format csv --header -k name -o ref people.csv
run_mpi --format csv --header -k name --part-files -o parts people.csv || fail "csv part files: corank-mpi failed"
cat parts.part-* | cmp -s - ref || fail "csv part files: concatenation differs from corank's output"
[ "$(cat parts.part-* | grep -c '^id,name,score,note$')" -eq 1 ] && head -1 parts.part-00000 | grep -qx 'id,name,score,note' ||
  fail "csv part files: the header is not written exactly once"

# PostgreSQL COPY text: escapes (\t, \\, \N for NULL), rows that hold
# escaped newlines (a backslash, or three, before the newline) and fields that
# end in an even run of backslashes before the row's own newline, so rows are
# cut where no line count could tell.
pg_rows() {  # pg_rows SEED N
  awk -v seed="$1" -v n="$2" 'BEGIN { srand(seed); print "id\tname\tscore\tnote"
    for (i = 0; i < n; i++) {
      r = rand()
      name = r < 0.15 ? "multi\\\nline" : r < 0.25 ? "tab\\there" : r < 0.35 ? "\\N" : r < 0.4 ? "" : "n" int(rand() * 500)
      score = rand() < 0.1 ? "\\N" : (int(rand() * 1000) - 300) "." int(rand() * 10)
      r = rand()
      note = r < 0.1 ? "ends\\\\" : r < 0.2 ? "three\\\\\\\nrun" : "x" int(rand() * 7)
      printf "%d\t%s\t%s\t%s\n", i, name, score, note } }'
}
pg_rows 9 60000 > people.pg
pg_rows 10 2000 > people-2.pg
grep -q 'multi\\$' people.pg && grep -q 'ends\\\\$' people.pg && grep -q 'three\\\\\\$' people.pg ||
  fail "pgtext: the generator lost its escapes"
same "pgtext --header -k score:n" 0 --format pgtext --header -k score:n -- people.pg
same "pgtext -k name -k id:n, two files" 0 --format pgtext --header -k name -k id:n -- people.pg people-2.pg
same "pgtext no header, -u -k 2" 0 --format pgtext -u -k 2 -- people.pg

# JSON lines: one object a line, cut as lines; every record checked.
awk 'BEGIN { srand(2); for (i = 0; i < 60000; i++) { r = rand()
  printf "{\"id\":%d,\"score\":%s,\"user\":{\"name\":\"u%d\"}}\n", i, r < 0.1 ? "null" : int(rand() * 1e6) / 100, int(rand() * 300) } }' > events.jsonl
same "jsonl -k score:n" 60000 --format jsonl -k score:n -- events.jsonl
same "jsonl -k user.name -k score:desc" 0 --format jsonl -k user.name -k score:desc -- events.jsonl
same "jsonl -k user.name (ties in input order)" 0 --format jsonl -k user.name -- events.jsonl
same "jsonl -u -k user.name" 0 --format jsonl -u -k user.name -- events.jsonl
if [ -n "${shm:-}" ]; then
  out_dir=$shm
  same "lines, output on tmpfs" 0 --parallel 4 -- words.txt
  same "csv --header, output on tmpfs" 0 --format csv --header -k name -- people.csv
  out_dir=.
fi

# Part files concatenate to the sorted whole; one per rank.
rm -f parts.part-*
"$corank" --gpu=off --format gensort -o ref skewed.dat
run_mpi --format gensort --part-files -o parts skewed.dat || fail "part files: corank-mpi failed"
count=$(ls parts.part-* | wc -l)
[ "$count" -eq "$np" ] || fail "part files: $count parts for $np ranks"
cat parts.part-* | cmp -s - ref || fail "part files: concatenation differs from corank's output"
echo "part files: $count parts"

# --stats - on standard output, -v's summary on stderr: once, from rank 0.
run_mpi --format gensort --stats - -v -o stdout-stats.out uniform.dat > stdout-stats.json 2> stdout-stats.err ||
  fail "--stats -: corank-mpi failed"
[ "$(grep -c '"partition_skew"' stdout-stats.json)" -eq 1 ] || fail "--stats -: no statistics on standard output"
[ "$(grep -c "^corank-mpi: $np ranks sorted 100000 records" stdout-stats.err)" -eq 1 ] ||
  { cat stdout-stats.err; fail "-v: not one summary line"; }

# In place: the output names the input.
cp words.txt inplace.txt
"$corank" --gpu=off -o ref words.txt
run_mpi -o inplace.txt inplace.txt || fail "in place: corank-mpi failed"
cmp -s ref inplace.txt || fail "in place: output differs"

if all_cases; then
# The output's mode: a new file's is 0666 less the umask (whether rank 0's
# piece was renamed into place, -T beside the output, or copied, -T elsewhere);
# an existing target keeps its own.
mkdir -p modes
for t in modes "$(mktemp -d /dev/shm/corank-mpi-modes.XXXXXX 2>/dev/null || echo modes)"; do
  rm -f modes/new
  (umask 077; run_mpi --format gensort -T "$t" -o modes/new uniform.dat) || fail "mode: corank-mpi failed (-T $t)"
  [ "$(stat -c %a modes/new)" = 600 ] || fail "mode: a new output under umask 077 is $(stat -c %a modes/new) (-T $t)"
  chmod 640 modes/new
  (umask 022; run_mpi --format gensort -T "$t" -o modes/new uniform.dat) || fail "mode: corank-mpi failed (-T $t)"
  [ "$(stat -c %a modes/new)" = 640 ] || fail "mode: an existing output's mode 640 became $(stat -c %a modes/new) (-T $t)"
  [ "$t" = modes ] || rm -rf "$t"
done
fi

# A bad input: exit 2, one message from rank 0, no output, no temporaries.
mkdir -p bad
head -c 150 uniform.dat > bad/short.dat
set +e
run_mpi --format gensort -o bad/out uniform.dat bad/short.dat 2> bad/err
rc=$?
set -e
msgs=$(grep -c '^corank-mpi:' bad/err || true)
echo "bad input: rc=$rc, $(grep '^corank-mpi:' bad/err | head -1)"
[ "$rc" -ne 0 ] || fail "bad input: exit status 0"
[ "$msgs" -eq 1 ] || { cat bad/err; fail "bad input: $msgs messages, want 1"; }
grep -q 'not a multiple of the record size' bad/err || fail "bad input: message does not say why"
[ "$(ls -A bad)" = "$(printf 'err\nshort.dat')" ] || fail "bad input: left $(ls -A bad | tr '\n' ' ')"

# An unwritable output directory: the same, no partial output.
set +e
run_mpi --format gensort -o /nonexistent-dir/out uniform.dat 2> bad/err2
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$(grep -c '^corank-mpi:' bad/err2)" -eq 1 ] || { cat bad/err2; fail "unwritable output: rc=$rc"; }
# A failure on rank 0 alone (its --stats target): the others stop too.
set +e
run_mpi --format gensort --stats /nonexistent-dir/stats.json -o bad/out4 uniform.dat 2> bad/err4
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$(grep -c '^corank-mpi:' bad/err4)" -eq 1 ] && [ ! -e bad/out4 ] ||
  { cat bad/err4; fail "rank 0 failing alone: rc=$rc"; }
if all_cases; then
# Usage errors the distributed sort refuses.
set +e
run_mpi -m -o bad/out3 words.txt 2> bad/err3
rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q 'not distributed' bad/err3 || fail "-m: not refused clearly"
set +e
run_mpi --format csv --header --rejects bad/rejects -o bad/out6 people.csv 2> bad/err6
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q -- '--rejects is not distributed' bad/err6 && [ ! -e bad/out6 ] && [ ! -e bad/rejects ] ||
  { cat bad/err6; fail "--rejects: not refused clearly: rc=$rc"; }

# A later input whose header names other columns: refused with the format's
# message, once, nothing written.
set +e
run_mpi --format csv --header -k name -o bad/out6 tiny.csv empty.csv people.csv 2> bad/err6
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$(grep -c '^corank-mpi:' bad/err6)" -eq 1 ] && [ ! -e bad/out6 ] &&
  grep -qxF "corank-mpi: people.csv:1: its header differs from that of tiny.csv: 4 columns, not 2" bad/err6 ||
  { cat bad/err6; fail "csv later header that differs: rc=$rc"; }

# A key naming no column of the header: corank's message, once.
set +e
"$corank" --gpu=off --format csv --header -k nosuch -o bad/ref5 people.csv 2> bad/ref5.err
run_mpi --format csv --header -k nosuch -o bad/out5 people.csv 2> bad/err5
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$(grep -c '^corank-mpi:' bad/err5)" -eq 1 ] && [ ! -e bad/out5 ] &&
  grep -qxF "corank-mpi: $(sed -n 's/^corank: //p' bad/ref5.err)" bad/err5 || { cat bad/err5; fail "csv unknown column: rc=$rc"; }
fi

# A rank failing mid-exchange: a bad record at the end of the input lies in
# the last rank's share, in its last chunk of several (-S 4M reads 1 MiB
# chunks), so that rank fails after rounds of the exchange went by. Every
# rank stops (exit 2), rank 0 gives the failing rank's reason on one line,
# nothing reaches the output's name, no part file, no temporary in -T. Each
# rank's own exit status is recorded by a wrapper in a third run (mpirun's
# alone would hide a rank that exited 0), with mpirun told to let every rank
# end by itself (by default it kills the others once one exits non-zero, and
# told otherwise it exits 0).
# mid_failure NAME CORANK_OPTION... -- INPUT...
cat > rank-status.sh <<'EOF'
#!/usr/bin/env bash
"$@"
rc=$?
echo $rc > "$RANK_STATUS_DIR/rank-${OMPI_COMM_WORLD_RANK:-0}"
exit $rc
EOF
run_mpi_status() {
  rm -rf status && mkdir status
  RANK_STATUS_DIR=$PWD/status "$mpirun" --allow-run-as-root --oversubscribe -np "$np" -x RANK_STATUS_DIR \
    --mca orte_abort_on_non_zero_status 0 \
    bash "$PWD/rank-status.sh" "$mpi" --gpu=off --parallel 1 "$@"
}
ranks_exited_2() {  # every rank's status file says 2
  [ "$(ls status | wc -l)" -eq "$np" ] && [ -z "$(cat status/* | grep -vx 2)" ]
}
mid_failure() {
  local name=$1
  shift
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  rm -rf fail && mkdir -p fail/tmp fail/out
  set +e
  "$corank" --gpu=off "${opts[@]}" -o fail/ref "$@" 2> fail/ref.err
  local ref_rc=$? rc1 rc2
  run_mpi -S 4M -T fail/tmp "${opts[@]}" -o fail/out/sorted "$@" 2> fail/err1
  rc1=$?
  run_mpi -S 4M -T fail/tmp --part-files "${opts[@]}" -o fail/out/sorted "$@" 2> fail/err2
  rc2=$?
  run_mpi_status -S 4M -T fail/tmp "${opts[@]}" -o fail/out/sorted "$@" 2> fail/err3
  ranks_exited_2 || fail "$name: not every rank exited 2: $(cat status/* | tr '\n' ' ')"
  set -e
  [ "$ref_rc" -eq 2 ] || fail "$name: corank exits $ref_rc, the case needs a bad input"
  local why
  why=$(sed -n 's/^corank: //p' fail/ref.err)
  local expect="$why"
  [ "$np" -gt 1 ] && expect="rank $((np - 1)): $why"
  local rcs=("$rc1" "$rc2" 2)  # the third run's statuses are checked above
  for k in 1 2 3; do
    local rc=${rcs[k - 1]} err=fail/err$k
    echo "$name ($k): rc=$rc, $(grep '^corank-mpi:' $err | head -1)"
    [ "$rc" -ne 0 ] || fail "$name ($k): exit status 0"
    [ "$(grep -c '^corank-mpi:' $err)" -eq 1 ] || { cat $err; fail "$name ($k): not one message"; }
    grep -qxF "corank-mpi: $expect" $err || { cat $err; fail "$name ($k): the message is not '$expect'"; }
    ! grep -qiE 'MPI_ABORT|abort\(|signal|core dumped' $err || { cat $err; fail "$name ($k): abort noise"; }
  done
  [ -z "$(ls -A fail/out)" ] || fail "$name: left output $(ls -A fail/out | tr '\n' ' ')"
  [ -z "$(ls -A fail/tmp)" ] || fail "$name: left temporaries $(ls -A fail/tmp | tr '\n' ' ')"
}
awk 'BEGIN { srand(4); for (i = 0; i < 150000; i++) printf "{\"id\":%d,\"score\":%d}\n", i, int(rand() * 1e6) }' > fail.jsonl
echo '{"id": 150000, "score": oops' >> fail.jsonl
echo '{"id": 150001, "score": 1}' >> fail.jsonl
mid_failure "jsonl bad record on the last rank" --format jsonl -k score:n -- fail.jsonl
if all_cases; then
  { csv_rows 8 150000; printf '150000,"never closed,1,x\n150001,n,2,x\n'; } > fail.csv
  mid_failure "csv unterminated quoted field on the last rank" --format csv --header -k score:n -- fail.csv
fi

finish "all cases passed with $np rank(s)"
