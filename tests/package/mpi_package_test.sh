#!/usr/bin/env bash
# corank-mpi has a Debian package of its own: CPack's mpi component alone,
# made from BUILD_DIR into a scratch folder, is corank-mpi_VERSION_ARCH.deb
# with the program (stripped, and it runs), its man page, its bash completion,
# its copyright, and Depends on corank of the same version and on the MPI
# library's package.
#   tests/package/mpi_package_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "mpi_package_test: $*" >&2; exit 1; }

(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" -D CPACK_COMPONENTS_ALL=mpi >cpack.log 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
deb=$work/corank-mpi_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || { ls "$work"; fail "no $(basename "$deb")"; }
[ "$(dpkg-deb -f "$deb" Package)" = corank-mpi ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
[[ $depends == *"corank (= $version)"* ]] || fail "Depends lacks corank (= $version)"
[[ $depends == *libopenmpi* || $depends == *libmpich* ]] || fail "Depends lacks the MPI library's package"
contents=$(dpkg-deb -c "$deb")
paths=(usr/bin/corank-mpi usr/share/doc/corank-mpi/copyright usr/share/bash-completion/completions/corank-mpi)
# The man page, where the build made one (help2man).
[ ! -f "$build/packaging/corank-mpi.1.gz" ] || paths+=(usr/share/man/man1/corank-mpi.1.gz)
for path in "${paths[@]}"; do
  grep -qE " \./$path\$" <<<"$contents" || fail "no /$path in the package"
done
! grep -qE " \./usr/bin/corank(-gen|-validate)?\$" <<<"$contents" || fail "corank's own programs are in corank-mpi"
dpkg-deb -x "$deb" "$work/root"
readelf -S "$work/root/usr/bin/corank-mpi" | grep -q '\.symtab' && fail "corank-mpi is not stripped"
# Under tools/sanitize.sh, Open MPI's allocations that live until exit are no
# concern of a packaging test.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
  "$work/root/usr/bin/corank-mpi" --version | grep -qx "corank-mpi $version" || fail "the packaged corank-mpi does not run"
echo "mpi_package_test: $(basename "$deb") ok"
