# bash completion for corank and corank-mpi (installed under both names, as
# bash-completion finds a command's file by its name). Needs bash alone
# (bash-completion's helpers are not used). The long options come from the
# program's --help when a word is completed, as bash-completion's _longopt
# does, so new options appear without an edit here; the values of the options
# that take a fixed set are listed.

_corank_values() {
  case $1 in
    --format) echo "lines csv tsv pgtext jsonl gensort fixed: u32 u64 i32 i64 f32 f64" ;;
    --gpu) echo "auto on off" ;;
    --io-engine) echo "auto uring pread" ;;
    --sort) echo "general-numeric human-numeric month numeric random version time" ;;
    --nulls) echo "first last" ;;
    --decimal-separator) echo ". ," ;;
    --collation) echo "und en de de-u-co-phonebk sv" ;;
    --compress-temp) echo "zstd gzip bzip2 xz" ;;
    --compress-program) echo "zstd gzip bzip2 xz pzstd pigz lz4" ;;
    --check) echo "diagnose-first quiet silent" ;;
    --exchange) echo "auto parts always" ;;  # corank-mpi's
    *) return 1 ;;
  esac
}

_corank() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" eq=0
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # COMP_WORDBREAKS splits --OPTION=VALUE into "--OPTION" "=" "VALUE".
  if [[ $cur == "=" ]]; then
    cur="" eq=1
  elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]} eq=1
  fi
  COMPREPLY=()

  local values
  if values=$(_corank_values "$prev"); then
    # --check and --compress-temp take a value only after "=": a word after
    # them is an input file.
    if ((eq)) || [[ $prev != --check && $prev != --compress-temp ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
      # "fixed:" wants its record size typed right after it.
      [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *: ]] && compopt -o nospace 2>/dev/null
      return 0
    fi
  fi
  case $prev in
    -o | --output | --files0-from | --stats | --random-source | --rejects)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return 0 ;;
    -T | --temporary-directory)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      return 0 ;;
    -k | --key | -S | --buffer-size | --parallel | -t | --field-separator | --delimiter | --gpu-memory | --batch-size | \
      --null | --time-zone | --time-format | --time-year)
      return 0 ;;  # free-form values
  esac

  if [[ $cur == -* ]]; then
    local opts
    # The option each of --help's option lines begins with, not the options
    # of other programs its text names (corank-mpi's names mpirun's).
    opts=$("${COMP_WORDS[0]}" --help 2>&1 | sed -nE 's/^ +(-[A-Za-z0-9], )?(--[A-Za-z0-9][-A-Za-z0-9]*).*/\2/p' | sort -u)
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    return 0
  fi
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -F _corank corank corank-mpi
