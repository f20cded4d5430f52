#!/bin/sh
# The package test: `cpack -G DEB` on the build, then the .deb's control fields and
# contents: it declares an OpenCL ICD (and the loader) as dependencies, recommends Mesa's
# DRI drivers for clpipe-run and suggests the OpenCL development files, and holds the
# tools, the library, the headers and the CMake and pkg-config files under /usr.
#   usage: run-deb-test.sh BUILD_DIR
set -eu
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >cpack.log) ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/clpipe_*.deb)
echo "built $(basename "$deb")"
dpkg-deb -f "$deb" Package Version Architecture Depends Recommends Suggests
bad=0
need_field() { # FIELD TEXT
  dpkg-deb -f "$deb" "$1" | grep -qF "$2" || { echo "MISSING in $1: $2"; bad=1; }
}
need_field Depends "pocl-opencl-icd | opencl-icd"
need_field Depends "ocl-icd-libopencl1"
need_field Depends "libc6"
need_field Depends "libstdc++6"
need_field Recommends "libgl1-mesa-dri"
need_field Suggests "ocl-icd-opencl-dev"
dpkg-deb -c "$deb" | awk '{print $NF}' >"$work/files"
for f in ./usr/bin/clpipe-vtest ./usr/bin/clpipe-run ./usr/bin/clpipe-info ./usr/bin/clpipe-tgsi \
  ./usr/bin/clpipe-demo ./usr/include/clpipe/clpipe.h ./usr/lib/libclpipe.a \
  ./usr/lib/cmake/clpipe/clpipeConfig.cmake ./usr/lib/pkgconfig/clpipe.pc; do
  grep -qx "$f" "$work/files" || { echo "MISSING file: $f"; bad=1; }
done
[ $bad -eq 0 ] && echo "deb test: passed"
exit $bad
