#!/bin/sh
# The install test: `cmake --install` into a temporary prefix, then a user's project
# (tests/install/consumer) built against it twice — with find_package(clpipe) and with
# pkg-config — and run: it draws a triangle and checks its pixels. The installed tools
# must be there and run.
#   usage: run-install-test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for tool in clpipe-vtest clpipe-run clpipe-info clpipe-tgsi clpipe-demo; do
  [ -x "$prefix/bin/$tool" ] || { echo "install test: bin/$tool was not installed"; exit 1; }
done
"$prefix/bin/clpipe-info" | grep -q MAX_TEXTURE_2D_SIZE

echo "== find_package(clpipe)"
cmake -S "$src/tests/install/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/consumer" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/consumer/triangle"

echo "== pkg-config clpipe"
pc=$(find "$prefix" -name clpipe.pc)
[ -n "$pc" ] || { echo "install test: no clpipe.pc installed"; exit 1; }
export PKG_CONFIG_PATH="${pc%/clpipe.pc}"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
c++ $(pkg-config --cflags clpipe) -o "$work/triangle-pc" "$src/tests/install/consumer/triangle.cpp" \
  $(pkg-config --libs clpipe)
"$work/triangle-pc"
echo "install test: passed"
