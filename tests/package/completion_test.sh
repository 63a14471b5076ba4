#!/usr/bin/env bash
# The bash completion, sourced into bash alone, completes as it should for the
# corank binary given (its long options come from that binary's --help), and
# for corank-mpi where it is given.
#   tests/package/completion_test.sh corank.bash /path/to/corank [/path/to/corank-mpi]
set -uo pipefail
completion=$1 corank=$2 corank_mpi=${3:-}
# shellcheck source=/dev/null
source "$completion"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/dir1" "$work/dir2" && touch "$work/data1.txt"
cd "$work" || exit 1

failures=0
# The line's program, corank or corank-mpi, as its path.
program_of_line() {
  if [[ ${COMP_WORDS[0]} == corank-mpi ]]; then COMP_WORDS[0]=$corank_mpi; else COMP_WORDS[0]=$corank; fi
}
# expect "WORD..." "EXPECTED REPLIES": completes the last word (empty: a new one)
# and compares the sorted replies.
expect() {
  local line=$1 want=$2
  read -r -a COMP_WORDS <<<"$line"
  program_of_line
  [[ $line == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="corank ${line#* }" COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _corank
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs)
  if [[ $got != "$want" ]]; then
    echo "completion_test: '$line<TAB>' gave '$got', expected '$want'" >&2
    failures=$((failures + 1))
  fi
}
# contains "WORD..." REPLY: the replies include REPLY.
contains() {
  local line=$1 want=$2
  read -r -a COMP_WORDS <<<"$line"
  program_of_line
  [[ $line == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _corank
  if ! printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$want"; then
    echo "completion_test: '$line<TAB>' gave '${COMPREPLY[*]}', lacking '$want'" >&2
    failures=$((failures + 1))
  fi
}

expect "corank --for" "--format"
expect "corank --no-fs" "--no-fsync"               # from --help
contains "corank --" "--buffer-size"
contains "corank --format " "jsonl"
contains "corank --format " "pgtext"
expect "corank --format fi" "fixed:"
expect "corank --gpu o" "off on"
expect "corank --gpu = o" "off on"                  # --gpu=o, as bash splits it
expect "corank --io-engine " "auto pread uring"
contains "corank --sort " "version"
expect "corank --nulls " "first last"
expect "corank --compress-temp = " "bzip2 gzip xz zstd"
expect "corank --compress-temp d" "data1.txt dir1 dir2"  # an input file
expect "corank -T d" "dir1 dir2"
expect "corank --temporary-directory = d" "dir1 dir2"
expect "corank -o da" "data1.txt"
expect "corank --stats d" "data1.txt dir1 dir2"
expect "corank -k " ""
expect "corank -u d" "data1.txt dir1 dir2"
if [[ -n $corank_mpi ]]; then
  expect "corank-mpi --part" "--part-files"         # from corank-mpi's --help
  expect "corank-mpi --exchange " "always auto parts"
  expect "corank-mpi --exchange = p" "parts"
  contains "corank-mpi --" "--buffer-size"
fi

if ((failures)); then
  echo "completion_test: $failures failed" >&2
  exit 1
fi
echo "completion_test: all passed"
