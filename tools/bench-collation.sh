#!/usr/bin/env bash
# Collated sorts against the C locale's and GNU sort's, in one run: lines of
# words in several scripts and cases (accents, capitals, punctuation, digits)
# sorted by corank under LC_ALL=C, by corank under LOCALE (glibc's collation,
# as GNU sort), by corank with --collation ICU_NAME (ICU), and by GNU sort
# under LOCALE, each with the same -S and threads, file to file. Reps
# alternate the commands; prints each time, the best of each and the ratios
# the collation promises (at most 3x corank's C sort, at least 5x GNU's).
# corank's LOCALE output must equal GNU sort's, byte for byte.
#   tools/bench-collation.sh BUILD_DIR WORK_DIR [MB] [REPS] [LOCALE] [ICU_NAME]
# defaults: 512 MB, 3 reps, en_US.UTF-8, und. WORK_DIR is removed at the end.
set -euo pipefail
bin=${1:?usage: bench-collation.sh BUILD_DIR WORK_DIR [MB] [REPS] [LOCALE] [ICU_NAME]}
work=${2:?usage: bench-collation.sh BUILD_DIR WORK_DIR [MB] [REPS] [LOCALE] [ICU_NAME]}
mb=${3:-512}
reps=${4:-3}
locale=${5:-en_US.UTF-8}
icu=${6:-und}
corank=$bin/src/corank
threads=$(nproc)
budget=1G
mkdir -p "$work/tmp"
trap 'rm -rf "$work"' EXIT

python3 - "$work/in" "$mb" <<'EOF'
import random, sys
path, mb = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
stems = ["apple", "Apple", "äpfel", "Äpfel", "zebra", "Zürich", "zurich", "côte", "cote", "coté", "Côté",
         "résumé", "resume", "naïve", "naive", "straße", "strasse", "Ångström", "angstrom", "ñandú",
         "über", "uber", "o'neil", "oneil", "co-op", "coop", "42nd", "4th", "été", "ete", "Øre", "ore"]
with open(path, "w", encoding="utf-8") as f:
    size, limit = 0, mb << 20
    while size < limit:
        line = " ".join(rnd.choice(stems) + rnd.choice(["", "s", str(rnd.randrange(100))])
                        for _ in range(rnd.randrange(1, 5))) + "\n"
        f.write(line)
        size += len(line.encode())
EOF

declare -A best
run() {  # name command...: wall seconds into best[name] (the least)
  local name=$1 t0 t; shift
  sync
  t0=$(date +%s.%N)
  "$@"
  t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  echo "$name: $t s"
  if [ -z "${best[$name]:-}" ] || awk -v a="$t" -v b="${best[$name]}" 'BEGIN { exit !(a < b) }'; then best[$name]=$t; fi
}

# ICU is loaded when a collation is asked for: a machine without the
# library the build names (libicu72 on Debian 12) runs the rest.
has_icu=1
printf 'a\n' > "$work/probe"
env LC_ALL=C "$corank" --gpu=off --collation "$icu" -o "$work/probe.out" "$work/probe" 2> "$work/probe.err" ||
  { has_icu=0; echo "no ICU collations here: $(cat "$work/probe.err")"; }

for rep in $(seq "$reps"); do
  echo "rep $rep"
  run corank-C env LC_ALL=C "$corank" --gpu=off -S $budget --parallel "$threads" -T "$work/tmp" -o "$work/c" "$work/in"
  run corank-locale env LC_ALL="$locale" "$corank" --gpu=off -S $budget --parallel "$threads" -T "$work/tmp" \
    -o "$work/l" "$work/in"
  [ "$has_icu" = 0 ] || run corank-icu env LC_ALL=C "$corank" --gpu=off --collation "$icu" -S $budget --parallel "$threads" \
    -T "$work/tmp" -o "$work/i" "$work/in"
  run gnu-locale env LC_ALL="$locale" sort -S $budget --parallel="$threads" -T "$work/tmp" -o "$work/g" "$work/in"
done
cmp "$work/l" "$work/g" || { echo "corank's $locale order differs from GNU sort's" >&2; exit 1; }
echo "corank under $locale: byte-identical to GNU sort"
awk -v c="${best[corank-C]}" -v l="${best[corank-locale]}" -v i="${best[corank-icu]:-0}" -v g="${best[gnu-locale]}" \
  -v loc="$locale" -v icu="$icu" 'BEGIN {
    printf "best: corank C %.3f, corank %s %.3f, corank --collation %s %.3f, GNU sort %s %.3f\n", c, loc, l, icu, i, loc, g
    printf "corank %s / corank C = %.2f; GNU / corank %s = %.1f\n", loc, l / c, loc, g / l
    if (i > 0) printf "corank --collation %s / corank C = %.2f; GNU %s / corank --collation %s = %.1f\n", icu, i / c, loc, icu, g / i
  }'
