#!/usr/bin/env bash
# The shell completions know every option of the programs given (corank, and
# corank-mpi where it is built), and every value of each option that takes a
# fixed set:
# - the long options are those the program's --help lists; zsh's file declares
#   each (with "=" where it takes an argument), bash's names each one that
#   takes an argument (its other long options come from --help as it
#   completes) and neither names an option no program given has, but for the
#   lines of a program the files complete and the test was not given;
# - an option takes an argument unless the program says it "doesn't allow an
#   argument" to --OPTION=@; its fixed set of values is what the program lists
#   after "Valid arguments are:" for --OPTION=@ (GNU's argmatch), and for
#   --format the formats --help lists ("fixed:R" completes as "fixed:");
# - bash's _corank_values and zsh's (...) list for each such option hold
#   exactly those values.
# corank-mpi's options that corank has too are corank's parser's, probed
# through corank; corank-mpi is probed for its own alone.
#   tests/package/completion_options_test.sh corank.bash _corank /path/to/corank [/path/to/corank-mpi]
set -uo pipefail
bash_file=$1 zsh_file=$2 corank=$(realpath "$3") corank_mpi=${4:+$(realpath "$4")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "completion_options_test: $*" >&2
  failures=$((failures + 1))
}
words() { tr ' ' '\n' | sed '/^$/d' | sort -u | xargs; }

# The option each of --help's option lines begins with (corank-mpi's text
# names mpirun's options too).
long_options() { "$1" --help | sed -nE 's/^ +(-[A-Za-z0-9], )?(--[a-z0-9][-a-z0-9]*).*/\2/p' | sort -u; }
mapfile -t options < <(long_options "$corank")
((${#options[@]} > 30)) || fail "only ${#options[@]} long options in --help"
declare -A is_option prober
for o in "${options[@]}"; do is_option[$o]=1 prober[$o]=$corank; done
if [[ -n $corank_mpi ]]; then
  # Under a sanitizer, Open MPI's allocations that live until exit are no
  # concern here; root may start it.
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
  mapfile -t mpi_options < <(long_options "$corank_mpi")
  for o in "${mpi_options[@]}"; do
    [[ -n ${is_option[$o]:-} ]] && continue
    options+=("$o") is_option[$o]=1 prober[$o]=$corank_mpi
  done
  [[ -n ${prober[--exchange]:-} ]] || fail "corank-mpi --help names no --exchange"
fi

# What the program says to --OPTION=@, run where it may leave a file named @.
probe() { (cd "$work" && timeout 20 "${prober[$1]}" "$1=@" </dev/null 2>&1 >/dev/null); }

# shellcheck source=/dev/null
source "$bash_file"
for o in "${options[@]}"; do
  said=$(probe "$o")
  takes_argument=1
  [[ $said == *"doesn't allow an argument"* ]] && takes_argument=0
  values=""
  if [[ $said == *"Valid arguments are:"* ]]; then
    values=$(sed -n '/^Valid arguments are:/,$p' <<<"$said" | grep '^  - ' | grep -oE "'[^']+'" | tr -d "'" | words)
  elif [[ $o == --format ]]; then
    # The words of --format's entry in --help, up to the next option, less
    # what is in parentheses.
    values=$("$corank" --help | sed -n '/^ *--format=FMT/,/^ *-/p' | sed '$d' | sed 's/^ *--format=FMT//' |
      tr '\n' ' ' | sed 's/([^)]*)//g' | tr ',' ' ' | sed 's/:[A-Z]\b/:/g' | words)
    [[ $values == *lines* && $values == *gensort* ]] || fail "no formats found in --help: '$values'"
  fi

  grep -qE -- "(^|[^-a-z0-9])$o([^-a-z0-9]|$)" "$zsh_file" || fail "zsh lacks $o"
  if ((takes_argument)); then
    grep -qE -- "$o=" "$zsh_file" || fail "zsh declares $o without its argument ($o=)"
    grep -qE -- "(^|[^-a-z0-9])$o([^-a-z0-9]|$)" "$bash_file" || fail "bash does not say what follows $o"
  else
    ! grep -qE -- "$o=" "$zsh_file" || fail "zsh gives $o an argument it does not take"
  fi
  [[ -z $values ]] && continue
  got=$(_corank_values "$o" | words)
  [[ $got == "$values" ]] || fail "bash completes $o with '$got', $(basename "${prober[$o]}") takes '$values'"
  # zsh: the last (...) on the line declaring --OPTION=.
  got=$(grep -E -- "$o=" "$zsh_file" | grep -oE '\([^()]*\)' | tail -n 1 | sed 's/[()\\]//g' | words)
  [[ $got == "$values" ]] || fail "zsh completes $o with '$got', $(basename "${prober[$o]}") takes '$values'"
done

# No option in either file that the programs given lack; without corank-mpi,
# the lines that name it are its own.
for file in "$bash_file" "$zsh_file"; do
  while IFS= read -r o; do
    [[ -n ${is_option[$o]:-} ]] || fail "$(basename "$file") names $o, which no program's --help names"
  done < <(if [[ -n $corank_mpi ]]; then cat "$file"; else grep -v corank-mpi "$file"; fi |
    grep -oE -- '--[a-z0-9][-a-z0-9]*' | sort -u)
done

if ((failures)); then
  echo "completion_options_test: $failures failed" >&2
  exit 1
fi
echo "completion_options_test: ${#options[@]} options${corank_mpi:+ (those of corank-mpi too)}, all in both completions"
