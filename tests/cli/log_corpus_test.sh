#!/usr/bin/env bash
# The log corpus (tools/logcorpus.py: nginx from three zones, syslog across a
# year's end (two years' files, each dated by its own modification time),
# log4j across a daylight-saving change, Go, Apache, RFC 5424,
# epoch, Java with stack traces, PostgreSQL's prefix with zone abbreviations
# across a fall-back change, date's output over 21 months; log4j from a
# second zone, read in it by --time-zone PATTERN=ZONE) sorted by --time
# and --multiline: no record out of its true time order, computed by Python's
# datetime and zoneinfo, every
# entry with its own stack trace, and the output holds the inputs' lines.
#   log_corpus_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
corank=$1/src/corank
gen=$2/tools/logcorpus.py
work=$(mktemp -d /tmp/corank-logcorpus.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 "$gen" "$work/in" --lines 300 --seed 7
# Java's stack traces stay with their entries (--multiline), through runs too.
for opts in "" "-S 64K --parallel 2" "-S 64K --parallel 1 --batch-size 2"; do
  # shellcheck disable=SC2086
  "$corank" --multiline --time-zone Europe/Berlin $opts -T "$work" -o "$work/out" "$work"/in/*.log
  python3 "$gen" --check --multiline "$work/in" "$work/out" || { echo "with '$opts'"; exit 1; }
done
# Line by line, the logs whose lines all have a timestamp.
single=()
for f in "$work"/in/*.log; do [[ $f == */app-java.log ]] || single+=("$f"); done
names=("${single[@]##*/}")
# The two syslog files' rules differ: in one sort where the input is one
# chunk (each record's time read by its own file's rules, by one thread or
# several), else each group of files sorted apart and merged.
for opts in "" "--parallel 4" "-S 64K"; do
  # shellcheck disable=SC2086
  "$corank" --time --time-zone Europe/Berlin -v $opts -T "$work" -o "$work/out" "${single[@]}" 2> "$work/err"
  python3 "$gen" --check "$work/in" "$work/out" --files "${names[@]}" || { echo "with '$opts'"; exit 1; }
  if [[ $opts == -S* ]]; then want="groups of inputs with rules of their own, merged"
  else want="each record's time read by its input's"; fi
  grep -q "$want" "$work/err" || { echo "with '$opts': no note '$want'"; cat "$work/err"; exit 1; }
done
# Each syslog file dates its lines by its own modification time, also by an
# explicit key, through spilled runs too.
"$corank" -k1,3T -S 16K --time-zone Europe/Berlin -T "$work" -o "$work/out" "$work/in/syslog-2025.log" \
  "$work/in/syslog.log"
python3 "$gen" --check "$work/in" "$work/out" --files syslog-2025.log syslog.log
# One file, or standard input, has one reference date: without the year before.
one_year=()
for f in "${single[@]}"; do [[ $f == */syslog-2025.log ]] || one_year+=("$f"); done
single=("${one_year[@]}")
names=("${single[@]##*/}")
# Standard input is not sampled: every known format is looked for, and the
# year of syslog's lines comes from --time-year.
cat "${single[@]}" | "$corank" --time --time-zone Europe/Berlin --time-year 2027-01 -o "$work/out"
python3 "$gen" --check "$work/in" "$work/out" --files "${names[@]}"
# The logs concatenated into one file: its sampled windows show each format.
cat "${single[@]}" > "$work/all.log"
touch -r "$work/in/syslog.log" "$work/all.log"  # the newest of them
"$corank" --time --time-zone Europe/Berlin -o "$work/out" "$work/all.log"
python3 "$gen" --check "$work/in" "$work/out" --files "${names[@]}"
# Two data centres: log4j written in Europe/Berlin and in America/New_York
# over the same hours, each file read in its own zone (--time-zone
# PATTERN=ZONE), in one sort, through spilled runs, with --multiline, and by
# -m of the files sorted apart. Read in one zone, they interleave wrongly.
python3 "$gen" "$work/zones" --lines 300 --seed 8 --second-zone America/New_York
ny=(--time-zone 'app-log4j-second.log=America/New_York' --time-zone Europe/Berlin)
zoned=()  # every file but the one with stack traces, whose lines --time alone sorts apart
for f in "$work"/zones/*.log; do [[ $f == */app-java.log ]] || zoned+=("$f"); done
znames=("${zoned[@]##*/}")
"$corank" --time --time-zone Europe/Berlin -o "$work/out" "${zoned[@]}"
if python3 "$gen" --check "$work/zones" "$work/out" --files "${znames[@]}" > /dev/null; then
  echo "the second zone's file sorted right in the first zone: the check cannot fail"; exit 1
fi
for opts in "" "-S 64K"; do
  # shellcheck disable=SC2086
  "$corank" --time $opts "${ny[@]}" -T "$work" -o "$work/out" "${zoned[@]}"
  python3 "$gen" --check "$work/zones" "$work/out" --files "${znames[@]}" || { echo "with '$opts'"; exit 1; }
done
"$corank" --multiline -S 64K --parallel 2 "${ny[@]}" -T "$work" -o "$work/out" "$work"/zones/*.log
python3 "$gen" --check --multiline "$work/zones" "$work/out"
"$corank" --time --time-zone "$work/zones/*-second.log=America/New_York" --time-zone Europe/Berlin \
  -o "$work/out" "$work"/zones/app-log4j*.log
python3 "$gen" --check "$work/zones" "$work/out" --files app-log4j.log app-log4j-second.log
mkdir "$work/apart"
for f in app-log4j.log app-log4j-second.log; do
  "$corank" --time "${ny[@]}" -o "$work/apart/$f" "$work/zones/$f"
done
"$corank" -m --time "${ny[@]}" -o "$work/out" "$work"/apart/*.log
python3 "$gen" --check "$work/zones" "$work/out" --files app-log4j.log app-log4j-second.log
