#!/usr/bin/env bash
# The shell completions know every option of the corank given, and every value
# of each option that takes a fixed set:
# - the long options are those `corank --help` names; zsh's file declares each
#   (with "=" where it takes an argument), bash's names each one that takes an
#   argument (its other long options come from --help as it completes) and
#   neither names an option corank lacks;
# - an option takes an argument unless corank says it "doesn't allow an
#   argument" to --OPTION=@; its fixed set of values is what corank lists
#   after "Valid arguments are:" for --OPTION=@ (GNU's argmatch), and for
#   --format the formats --help lists ("fixed:R" completes as "fixed:");
# - bash's _corank_values and zsh's (...) list for each such option hold
#   exactly those values.
#   tests/package/completion_options_test.sh corank.bash _corank /path/to/corank
set -uo pipefail
bash_file=$1 zsh_file=$2 corank=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "completion_options_test: $*" >&2
  failures=$((failures + 1))
}
words() { tr ' ' '\n' | sed '/^$/d' | sort -u | xargs; }

mapfile -t options < <("$corank" --help | grep -oE -- '--[a-z0-9][-a-z0-9]*' | sort -u)
((${#options[@]} > 30)) || fail "only ${#options[@]} long options in --help"
declare -A is_option
for o in "${options[@]}"; do is_option[$o]=1; done

# What corank says to --OPTION=@, run where it may leave a file named @.
probe() { (cd "$work" && timeout 20 "$corank" "$1=@" </dev/null 2>&1 >/dev/null); }

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
  [[ $got == "$values" ]] || fail "bash completes $o with '$got', corank takes '$values'"
  # zsh: the last (...) on the line declaring --OPTION=.
  got=$(grep -E -- "$o=" "$zsh_file" | grep -oE '\([^()]*\)' | tail -n 1 | sed 's/[()\\]//g' | words)
  [[ $got == "$values" ]] || fail "zsh completes $o with '$got', corank takes '$values'"
done

# No option in either file that corank lacks.
for file in "$bash_file" "$zsh_file"; do
  while IFS= read -r o; do
    [[ -n ${is_option[$o]:-} ]] || fail "$(basename "$file") names $o, which corank --help lacks"
  done < <(grep -oE -- '--[a-z0-9][-a-z0-9]*' "$file" | sort -u)
done

if ((failures)); then
  echo "completion_options_test: $failures failed" >&2
  exit 1
fi
echo "completion_options_test: ${#options[@]} options, all in both completions"
