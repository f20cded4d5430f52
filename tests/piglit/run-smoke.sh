#!/bin/sh
# The piglit smoke test: runs tests/piglit/smoke.list through Mesa's virpipe against
# clpipe-vtest and fails when any listed test does not pass. Registered with CTest
# (tests/CMakeLists.txt); exit 77 = skipped, on a machine without piglit, Mesa's virpipe
# or mount namespaces (tools/install-deps.sh installs the first two).
#   usage: run-smoke.sh CLPIPE_VTEST BUILD_DIR
#
# Mesa 22.3's virpipe always connects to /tmp/.virgl_test, so the server and the tests
# run in a private mount namespace (a user namespace too when not root) whose /tmp is
# an empty tmpfs: no other server on the machine is reached or disturbed. The /tmp the
# caller sees stays reachable through a bind mount, for a build that lives there.
set -eu
piglit=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
jobs=${PIGLIT_JOBS:-2}
limit=${PIGLIT_TIMEOUT:-120}

# --one NUMBER LINE (run by xargs below, inside the namespace): one test. The first word
# is a program in piglit's bin/, paths are relative to the piglit folder; its result is
# the last 'PIGLIT: {"result": ...}' line it prints.
if [ "${1:-}" = --one ]; then
  out=$CLPIPE_SMOKE_LOG/$2.out
  line=$3
  # shellcheck disable=SC2086 # the line's words are the test's argv
  set -- $line
  prog=$1
  shift
  (cd "$piglit" && timeout -k 5 "$limit" "bin/$prog" "$@") >"$out" 2>&1 </dev/null || true
  result=$(sed -n 's/^PIGLIT: {"result": *"\([a-z-]*\)".*/\1/p' "$out" | tail -n 1)
  echo "${result:-none}" >"$out.result"
  exit 0
fi

server=$1
build=$2
build_arg=$2
here=$(cd "$(dirname "$0")" && pwd)

skip() {
  echo "piglit smoke: SKIPPED: $*"
  exit 77
}

if [ "${CLPIPE_SMOKE_OLD_TMP:-}" = "" ]; then
  [ -x "$piglit/bin/shader_runner" ] || skip "no piglit in $piglit (apt-get install piglit)"
  ls /usr/lib/x86_64-linux-gnu/dri/virtio_gpu_dri.so >/dev/null 2>&1 ||
    skip "no Mesa virpipe driver (apt-get install libgl1-mesa-dri)"
  if [ "$(id -u)" -eq 0 ]; then ns="unshare -m"; else ns="unshare -Urm"; fi
  $ns --propagation private true 2>/dev/null ||
    skip "'$ns' is not permitted here (the test needs a mount namespace)"
  old_tmp=$(mktemp -d /dev/shm/clpipe-smoke.XXXXXX 2>/dev/null) ||
    skip "no /dev/shm to keep the caller's /tmp reachable"
  status=0
  CLPIPE_SMOKE_OLD_TMP=$old_tmp $ns --propagation private sh "$0" "$@" || status=$?
  rmdir "$old_tmp" 2>/dev/null || true
  exit $status
fi

# Inside the namespace: the caller's /tmp under $old, then a private /tmp.
old=$CLPIPE_SMOKE_OLD_TMP
mount --bind /tmp "$old"
mount -t tmpfs -o mode=1777 tmpfs /tmp
outside() { # a path of the caller's, as seen from here
  case "$1" in
    /tmp/*) echo "$old${1#/tmp}" ;;
    *) echo "$1" ;;
  esac
}
server=$(outside "$server")
build=$(outside "$build")
script=$(outside "$here")/run-smoke.sh
log=$build/piglit-smoke
rm -rf "$log"
mkdir -p "$log"

env -u GALLIUM_DRIVER CLPIPE_CACHE_DIR="$build/program-cache" "$server" >"$log/server.log" 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null || true' EXIT
tries=0
while [ ! -S /tmp/.virgl_test ]; do
  tries=$((tries + 1))
  if [ $tries -gt 300 ] || ! kill -0 $srv 2>/dev/null; then
    echo "piglit smoke: the server did not start:"
    cat "$log/server.log"
    exit 1
  fi
  sleep 0.1
done

export PIGLIT_PLATFORM=surfaceless_egl EGL_PLATFORM=surfaceless GALLIUM_DRIVER=virpipe
export PIGLIT_SOURCE_DIR="$piglit" MESA_SHADER_CACHE_DISABLE=true CLPIPE_SMOKE_LOG="$log"
export PIGLIT_DIR="$piglit" PIGLIT_TIMEOUT="$limit"
grep -v '^#' "$(outside "$here")/smoke.list" | grep -v '^[[:space:]]*$' >"$log/tests"
n=0
while IFS= read -r line; do
  n=$((n + 1))
  printf '%s\0%s\0' "$n" "$line"
done <"$log/tests" | xargs -0 -n 2 -P "$jobs" sh "$script" --one

bad=0
n=0
while IFS= read -r line; do
  n=$((n + 1))
  result=$(cat "$log/$n.out.result" 2>/dev/null || echo missing)
  if [ "$result" != pass ]; then
    bad=$((bad + 1))
    echo "NOT PASSING ($result): $line"
    tail -n 8 "$log/$n.out" 2>/dev/null | sed 's/^/    /'
  fi
done <"$log/tests"
echo "piglit smoke: $((n - bad)) of $n tests pass (logs in $build_arg/piglit-smoke)"
[ $bad -eq 0 ]
