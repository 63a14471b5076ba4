#!/usr/bin/env bash
# Builds the Debian packages from a configured build folder and checks them:
#   corank_VERSION_ARCH.deb      corank, corank-gen, corank-validate, man page,
#                                bash and zsh completion
#   corank-dev_VERSION_ARCH.deb  headers, static libraries, CMake package, corank.pc
#   corank-mpi_VERSION_ARCH.deb  corank-mpi, where the build has MPI
# The checks: control fields and contents, stripped programs, the programs run
# from the unpacked packages, tests/package/consumer built against them with
# find_package(corank); as root, where corank is not installed yet, dpkg -i of
# the packages, a sort with the installed corank (and corank-mpi), and dpkg -r,
# which must leave nothing behind.
#   tools/package.sh [BUILD_DIR]      (default: build, as tools/setup.sh makes it)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
build=$(realpath "${1:-build}")
fail() { echo "package.sh: $*" >&2; exit 1; }

cmake --build "$build" -j"$(nproc)" >/dev/null
rm -f "$build"/corank*.deb
(cd "$build" && cpack -G DEB >cpack.log 2>&1) || { cat "$build/cpack.log"; fail "cpack failed"; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
arch=$(dpkg --print-architecture)
deb=$build/corank_${version}_${arch}.deb
dev=$build/corank-dev_${version}_${arch}.deb
[ -f "$deb" ] && [ -f "$dev" ] || fail "cpack made no $deb and $dev"
# corank-mpi's package where CPack was told to make it (the build has MPI).
mpi=
debs=("$deb" "$dev")
if grep -qE '^set\(CPACK_COMPONENTS_ALL "[^"]*\bmpi\b' "$build/CPackConfig.cmake"; then
  mpi=$build/corank-mpi_${version}_${arch}.deb
  [ -f "$mpi" ] || fail "cpack made no $mpi"
  debs+=("$mpi")
elif ls "$build"/corank-mpi_*.deb >/dev/null 2>&1; then
  fail "a corank-mpi package from a build without MPI"
fi

for p in "${debs[@]}"; do
  echo "== $(basename "$p")"
  dpkg-deb -I "$p" | sed -n '/^ Package:/p;/^ Version:/p;/^ Depends:/p'
done
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 liburing2; do
  [[ $depends == *"$lib "* || $depends == *"$lib," || $depends == *"$lib" ]] || fail "Depends lacks $lib: $depends"
done

if [ -n "$mpi" ]; then
  mpi_depends=$(dpkg-deb -f "$mpi" Depends)
  for dep in "corank (= $version)" libopenmpi; do
    [[ $mpi_depends == *"$dep"* ]] || fail "corank-mpi's Depends lacks $dep: $mpi_depends"
  done
  mpi_contents=$(dpkg-deb -c "$mpi")
  for path in usr/bin/corank-mpi usr/share/man/man1/corank-mpi.1.gz usr/share/doc/corank-mpi/copyright; do
    grep -qE " \./$path\$" <<<"$mpi_contents" || fail "no /$path in $(basename "$mpi")"
  done
  ! grep -q "corank-mpi" <<<"$(dpkg-deb -c "$deb"; dpkg-deb -c "$dev")" || fail "corank-mpi is in corank or corank-dev"
fi

contents=$(dpkg-deb -c "$deb"; dpkg-deb -c "$dev")
for path in usr/bin/corank usr/bin/corank-gen usr/bin/corank-validate usr/share/man/man1/corank.1.gz \
            usr/share/bash-completion/completions/corank usr/share/zsh/vendor-completions/_corank \
            usr/share/doc/corank/copyright usr/share/doc/corank-dev/copyright \
            usr/include/corank/sort_options.hpp usr/include/corank/io/options.hpp \
            "usr/lib/[^ ]*libcorank_core.a" "usr/lib/[^ ]*cmake/corank/corankConfig.cmake" \
            "usr/lib/[^ ]*pkgconfig/corank.pc"; do
  grep -qE " \./$path\$" <<<"$contents" || fail "no /$path in the packages"
done
! grep -q "include/corank/cli/" <<<"$contents" || fail "the CLI's headers are packaged"

# Unpacked into a throwaway root: the programs run, and a program builds
# against the library there.
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root/root"
dpkg-deb -x "$dev" "$root/root"
progs=(corank corank-gen corank-validate)
if [ -n "$mpi" ]; then
  dpkg-deb -x "$mpi" "$root/root"
  progs+=(corank-mpi)
fi
for prog in "${progs[@]}"; do
  readelf -S "$root/root/usr/bin/$prog" | grep -q '\.symtab' && fail "$prog is not stripped"
done
# Open MPI: as root only when told, without a network on loopback and shared memory.
mpi_env=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader)
[ -z "$mpi" ] || "${mpi_env[@]}" "$root/root/usr/bin/corank-mpi" --version
"$root/root/usr/bin/corank" --version
[ "$(printf 'pear\napple\nfig\n' | "$root/root/usr/bin/corank")" = $'apple\nfig\npear' ] ||
  fail "the packaged corank does not sort"
"$root/root/usr/bin/corank-gen" --help >/dev/null
cmake -S "$src/tests/package/consumer" -B "$root/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$root/root/usr" >/dev/null
cmake --build "$root/consumer" >/dev/null
"$root/consumer/consumer" "$root"

# Installed for real, then removed.
if [ "$(id -u)" -ne 0 ]; then
  echo "package.sh: not root, so dpkg -i and -r are skipped"
elif dpkg -s corank >/dev/null 2>&1 || dpkg -s corank-dev >/dev/null 2>&1 || dpkg -s corank-mpi >/dev/null 2>&1 ||
     command -v corank >/dev/null; then
  echo "package.sh: corank is installed on this machine already, so dpkg -i and -r are skipped"
else
  pkgs=(corank corank-dev)
  [ -z "$mpi" ] || pkgs+=(corank-mpi)
  dpkg -i "${debs[@]}" >/dev/null
  installed=$(dpkg -L "${pkgs[@]}" | while read -r f; do [ -f "$f" ] && echo "$f"; done)
  [ "$(printf '3\n1\n2\n' | corank -n)" = $'1\n2\n3' ] || { dpkg -r "${pkgs[@]}"; fail "the installed corank does not sort"; }
  [ -f /usr/share/man/man1/corank.1.gz ] || fail "no installed man page"
  if [ -n "$mpi" ]; then
    printf '3\n1\n2\n' > "$root/in.txt"
    "${mpi_env[@]}" corank-mpi -n -o "$root/out.txt" "$root/in.txt" &&
      [ "$(cat "$root/out.txt")" = $'1\n2\n3' ] || { dpkg -r "${pkgs[@]}"; fail "the installed corank-mpi does not sort"; }
  fi
  dpkg -r "${pkgs[@]}" >/dev/null
  for f in $installed; do [ ! -e "$f" ] || fail "dpkg -r left $f"; done
  ! dpkg -s corank >/dev/null 2>&1 || fail "corank still installed after dpkg -r"
  echo "dpkg -i, a sort and dpkg -r: ok"
fi
echo "package.sh: $(for p in "${debs[@]}"; do basename "$p"; done | paste -sd ' ') ok"
