#!/bin/sh
# The package test: `cpack -G DEB` on the build, then the .deb's control fields and
# contents: it declares an OpenCL ICD (and the loader) as dependencies, recommends Mesa's
# DRI drivers for clpipe-run and suggests the OpenCL development files, and holds the
# tools, the library, the headers and the CMake and pkg-config files under /usr. Its
# maintainer scripts, run on a folder of the test's with a stand-in clpipe-vtest (the
# real warm-up runs in tests/tools/warm-cache-test.sh): postinst warms the machine's
# program cache with `clpipe-vtest --warm-cache --cache-dir=FOLDER` after removing an
# earlier warm-up's entries, and succeeds when the warm-up fails; postrm removes only
# what a warm-up writes.
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

dpkg-deb --ctrl-tarfile "$deb" | tar -tvf - >"$work/control"
for script in postinst postrm; do
  grep -q "^-rwxr-xr-x .* \./$script\$" "$work/control" || { echo "MISSING executable $script"; bad=1; }
done
dpkg-deb -e "$deb" "$work/DEBIAN"
grep -qxF 'vtest=${CLPIPE_VTEST:-/usr/bin/clpipe-vtest}' "$work/DEBIAN/postinst" ||
  { echo "postinst does not run /usr/bin/clpipe-vtest"; bad=1; }
grep -qxF 'dir=${CLPIPE_SYSTEM_CACHE_DIR-/var/cache/clpipe}' "$work/DEBIAN/postinst" ||
  { echo "postinst does not warm /var/cache/clpipe"; bad=1; }
# A stand-in clpipe-vtest: records its arguments and environment, writes an entry into
# the folder it is given, and exits with $STUB_STATUS.
printf '%s\n' '#!/bin/sh' \
  'echo "args: $*" >"$STUB_LOG"' \
  'echo "system: [${CLPIPE_SYSTEM_CACHE_DIR-unset}] pocl: [$POCL_CACHE_DIR]" >>"$STUB_LOG"' \
  'for a in "$@"; do case $a in --cache-dir=*) touch "${a#--cache-dir=}/new.clbin" ;; esac; done' \
  'echo "clpipe-vtest: warm-up: stand-in"' \
  'exit "$STUB_STATUS"' >"$work/stub"
chmod +x "$work/stub"
sys=$work/machine-cache
mkdir -p "$sys"
touch "$sys/old.clbin" "$sys/old.clbin.lock" "$sys/keep.txt"
for status in 0 1; do
  CLPIPE_SYSTEM_CACHE_DIR=$sys CLPIPE_VTEST=$work/stub STUB_LOG=$work/stub.log STUB_STATUS=$status \
    sh "$work/DEBIAN/postinst" configure >"$work/postinst.out" 2>&1 ||
    { cat "$work/postinst.out"; echo "postinst failed (warm-up status $status)"; bad=1; }
  grep -qxF "args: --warm-cache --cache-dir=$sys" "$work/stub.log" ||
    { cat "$work/stub.log"; echo "postinst ran the warm-up with other arguments"; bad=1; }
  grep -q '^system: \[\] pocl: \[/' "$work/stub.log" ||
    { cat "$work/stub.log"; echo "postinst's warm-up read a machine folder or PoCL's own cache"; bad=1; }
  [ ! -e "$sys/old.clbin" ] && [ ! -e "$sys/old.clbin.lock" ] && [ -e "$sys/new.clbin" ] ||
    { ls "$sys"; echo "postinst left an earlier warm-up's entries"; bad=1; }
  touch "$sys/old.clbin"
done
grep -q "the warm-up failed" "$work/postinst.out" || { echo "postinst said nothing of a failed warm-up"; bad=1; }
CLPIPE_SYSTEM_CACHE_DIR=$sys sh "$work/DEBIAN/postrm" remove || { echo "postrm failed"; bad=1; }
[ "$(ls "$sys")" = keep.txt ] || { ls "$sys"; echo "postrm removed other files, or not the warm-up's"; bad=1; }
rm "$sys/keep.txt"
CLPIPE_SYSTEM_CACHE_DIR=$sys sh "$work/DEBIAN/postrm" purge && [ ! -e "$sys" ] ||
  { echo "postrm left the empty folder"; bad=1; }
[ $bad -eq 0 ] && echo "deb test: passed"
exit $bad
