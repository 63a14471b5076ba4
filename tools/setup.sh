#!/usr/bin/env bash
# Installs the Debian packages corank builds with and configures + builds it.
#   tools/setup.sh [BUILD_DIR]      (default: build)
# Extra CMake arguments may be passed in CORANK_CMAKE_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
pkgs=(build-essential cmake pkg-config liburing-dev libboost-iostreams-dev libcli11-dev
      libgtest-dev libsimdjson-dev nlohmann-json3-dev libxxhash-dev zlib1g-dev libbz2-dev liblzma-dev libzstd-dev
      libcctz-dev tzdata python3  # time zones of time keys; the log corpus test's reference order
      gzip bzip2 xz-utils zstd lz4 coreutils help2man dpkg-dev file libopenmpi-dev openmpi-bin
      libicu-dev locales  # --collation; the locales that lines are compared with GNU sort under
      postgresql)  # the bulk-load example's test starts a server of its own
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The locales of the locale tests (tests/cli/locale_test.cpp): English, German
# (decimal comma), Swedish (its own letters, a multi-byte thousands separator).
for l in en_US de_DE sv_SE; do
  locale -a 2>/dev/null | grep -qix "$l.utf-\?8" ||
    $sudo localedef -i "$l" -c -f UTF-8 -A /usr/share/locale/locale.alias "$l.UTF-8"
done
# shellcheck disable=SC2086
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${CORANK_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)"
