#!/usr/bin/env bash
# The installed package relocates: installs BUILD_DIR into a prefix, moves the
# prefix, then builds and runs tests/package/consumer against the moved prefix,
# once with find_package(corank) and once with pkg-config --static (CXX,
# CXXFLAGS and LDFLAGS apply to both); neither names a directory of the build
# machine.
#   tests/package/install_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
consumer=$(realpath "$(dirname "$0")")/consumer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/staged" >/dev/null
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
pkgdir=$(dirname "$(find "$prefix" -name corankConfig.cmake)")
pcdir=$(dirname "$(find "$prefix" -name corank.pc)")

# The exported targets name IMPORTED targets, never a library file of the
# machine that built them, nor the prefix the package was installed into.
if grep -nE '["; ]/[a-z]|'"$work" "$pkgdir"/corankTargets*.cmake; then
  echo "install_test: corankTargets names paths of the build machine" >&2
  exit 1
fi

cmake -S "$consumer" -B "$work/cmake-build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/consumer" "$work"

# corank.pc's flags name directories through its variables only (prefix,
# libdir, includedir, cudalibdir), never one of the machine that built it; a
# CUDA build's cudalibdir can be pointed elsewhere.
if grep -nE '^(Cflags|Libs|Libs\.private):.*[ =]-[IL]/' "$pcdir/corank.pc"; then
  echo "install_test: corank.pc's flags name a directory of the build machine" >&2
  exit 1
fi
if grep -q '^cudalibdir=' "$pcdir/corank.pc"; then
  moved=$(PKG_CONFIG_PATH=$pcdir pkg-config --define-variable=cudalibdir=/elsewhere/cuda --libs --static corank)
  [[ " $moved " == *" -L/elsewhere/cuda "* ]] || { echo "install_test: cudalibdir is not used: $moved" >&2; exit 1; }
fi

# pkg-config, with the compiler alone.
# shellcheck disable=SC2046,SC2086
"${CXX:-c++}" -std=c++20 -O1 ${CXXFLAGS:-} -o "$work/consumer-pc" "$consumer/main.cpp" \
  $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs --static corank) ${LDFLAGS:-}
"$work/consumer-pc" "$work"
