#!/usr/bin/env bash
# Installs corank's .deb on a clean Debian 12 and sorts with it there: a
# minimal root made by debootstrap (network, root, a few minutes; not part of
# CI), the package installed by apt so that its Depends are what pulls the
# libraries in, then a gensort sort validated by corank-validate and a text
# sort checked by corank -c. Leaves ROOT in place (pass it again to reuse it).
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
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
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
  apt-get remove -y -qq corank >/dev/null
  test ! -e /usr/bin/corank
"
echo "deb-clean-install.sh: $(basename "$deb") installed, sorted and removed on a clean Debian 12"
