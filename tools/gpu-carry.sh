#!/usr/bin/env bash
# A build's programs and test binaries, stripped, in a folder with the build
# tree's layout, for a CUDA machine that has neither the build's libraries nor
# a compiler for them (a lent GPU machine): build with
# -DCORANK_STATIC_DEPS=ON, then
#   tools/gpu-carry.sh BUILD_DIR DIR [TEST...]
# DIR gets src/corank, src/mpi/corank-mpi, tools/{gen,validate,bench,loggen}'s
# programs, lib/ (cctz, which Debian ships shared only, and simdjson: set
# LD_LIBRARY_PATH=DIR/lib there; the programs find cctz by their rpath) and the
# test binaries under tests/ (all of them, or only the TEST names given, e.g.
# corank_gpu_test), so that tools/gpu-all.sh DIR OUT runs there. Prints the
# folder's size: a lent machine takes a limited amount (see its tool's notes).
set -euo pipefail
build=$(cd "${1:?usage: gpu-carry.sh BUILD_DIR DIR [TEST...]}" && pwd)
dir=${2:?usage: gpu-carry.sh BUILD_DIR DIR [TEST...]}
shift 2
rm -rf "$dir"
mkdir -p "$dir/lib"
copy() {  # PATH under the build: stripped into DIR, same place
  [ -x "$build/$1" ] || return 0
  mkdir -p "$dir/$(dirname "$1")"
  strip -o "$dir/$1" "$build/$1"
}
for p in src/corank src/mpi/corank-mpi tools/gen/corank-gen tools/validate/corank-validate tools/bench/corank-bench \
  tools/loggen/corank-loggen; do
  copy "$p"
done
if [ $# -gt 0 ]; then
  for t in "$@"; do
    found=$(cd "$build" && find tests -name "$t" -type f -perm -u+x)
    [ -n "$found" ] || { echo "gpu-carry.sh: no test binary $t in $build" >&2; exit 2; }
    copy "$found"
  done
else
  while IFS= read -r t; do copy "$t"; done < <(cd "$build" && find tests -name 'corank_*_test' -type f -perm -u+x)
fi
cp -a "$build"/lib/. "$dir/lib/"
for lib in simdjson cctz; do
  so=$(ldconfig -p | awk -v l="lib$lib.so." '$1 ~ "^" l && !found { print $NF; found = 1 }')  # reads all: an early exit would kill ldconfig with SIGPIPE
  [ -n "$so" ] && cp -L "$so" "$dir/lib/$(basename "$so")"
done
du -sh "$dir"
