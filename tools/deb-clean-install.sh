#!/usr/bin/env bash
# Installs corank's .deb on a clean Debian 12 and sorts with it there: a
# minimal root made by debootstrap (network, root, a few minutes; not part of
# CI), the package installed by apt so that its Depends are what pulls the
# libraries in, then a gensort sort validated by corank-validate and a text
# sort checked by corank -c; where the build has corank-mpi, its package too
# (Open MPI pulled in by apt) and a two-rank sort with it. Leaves ROOT in
# place (pass it again to reuse it).
#   tools/deb-clean-install.sh BUILD_DIR [ROOT]   (default ROOT: /tmp/corank-clean-debian)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:?usage: deb-clean-install.sh BUILD_DIR [ROOT]}")
root=${2:-/tmp/corank-clean-debian}
[ "$(id -u)" -eq 0 ] || { echo "deb-clean-install.sh: needs root (chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
[ -x "$root/bin/sh" ] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/corank_*.deb)
cp "$deb" "$root/tmp/"
mpi_deb=$(ls "$build"/corank-mpi_*.deb 2>/dev/null || true)
[ -z "$mpi_deb" ] || cp "$mpi_deb" "$root/tmp/"
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"  # Open MPI's hwloc reads the CPU topology there
trap 'umount "$root/proc" "$root/sys"' EXIT
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
chroot "$root" /bin/sh -euxc "
  apt-get update -qq
  apt-get install -y -qq /tmp/$(basename "$deb") >/dev/null
  corank --version
  cd /tmp
  corank-gen -n 100000 -o g.dat
  corank --format gensort -S 1M -T /tmp -o g.sorted g.dat
  corank-validate --input g.dat g.sorted
  printf 'b 2\na 10\nc 1\n' > t.txt
  corank -k2,2n t.txt | corank -c -k2,2n
  man -w corank 2>/dev/null || test -f /usr/share/man/man1/corank.1.gz
  if [ -n '$(basename "${mpi_deb:-}")' ]; then
    apt-get install -y -qq '/tmp/$(basename "${mpi_deb:-none}")' >/dev/null
    mpirun --allow-run-as-root --oversubscribe -np 2 corank-mpi --format gensort -o g.mpi g.dat
    cmp g.sorted g.mpi
    apt-get remove -y -qq corank-mpi >/dev/null
    test ! -e /usr/bin/corank-mpi
  fi
  apt-get remove -y -qq corank >/dev/null
  test ! -e /usr/bin/corank
"
echo "deb-clean-install.sh: $(basename "$deb") ${mpi_deb:+and $(basename "$mpi_deb") }installed, sorted and removed on a clean Debian 12"
