#!/bin/sh
# The piglit smoke test: runs tests/piglit/smoke.list through Mesa's virpipe against
# clpipe-vtest and fails when any listed test does not pass. Registered with CTest
# (tests/CMakeLists.txt); exit 77 = skipped, on a machine without piglit, Mesa's virpipe
# or mount namespaces (tools/install-deps.sh installs the first two).
#   usage: run-smoke.sh CLPIPE_VTEST BUILD_DIR
#
# tools/clpipe-run/clpipe-run hosts the server and the namespace: it starts one
# CLPIPE_VTEST on a private socket and runs this script's --many part in a private mount
# namespace in which /tmp/.virgl_test (where Mesa 22.3's virpipe always connects) is
# that socket, so no other server on the machine is reached or disturbed and the
# caller's /tmp stays as it is. All the tests share that one server.
set -eu
piglit=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
jobs=${PIGLIT_JOBS:-2}
limit=${PIGLIT_TIMEOUT:-120}

# --one NUMBER LINE (run by --many's xargs, inside the namespace): one test. The first
# word is a program in piglit's bin/, paths are relative to the piglit folder; its
# result is the last 'PIGLIT: {"result": ...}' line it prints.
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

# --many (run by clpipe-run, in its namespace): the tests of $CLPIPE_SMOKE_LOG/tests,
# $jobs at a time, each by --one; test N's output goes to $CLPIPE_SMOKE_LOG/N.out.
if [ "${1:-}" = --many ]; then
  n=0
  while IFS= read -r line; do
    n=$((n + 1))
    printf '%s\0%s\0' "$n" "$line"
  done <"$CLPIPE_SMOKE_LOG/tests" | xargs -0 -n 2 -P "$jobs" sh "$0" --one
  exit 0
fi

if [ $# -ne 2 ]; then
  echo "usage: run-smoke.sh CLPIPE_VTEST BUILD_DIR" >&2
  exit 2
fi
server=$1
build=$2
here=$(cd "$(dirname "$0")" && pwd)
run=$here/../../tools/clpipe-run/clpipe-run

skip() {
  echo "piglit smoke: SKIPPED: $*"
  exit 77
}

[ -x "$piglit/bin/shader_runner" ] || skip "no piglit in $piglit (apt-get install piglit)"
ls /usr/lib/x86_64-linux-gnu/dri/virtio_gpu_dri.so >/dev/null 2>&1 ||
  skip "no Mesa virpipe driver (apt-get install libgl1-mesa-dri)"
# The namespaces clpipe-run makes (it fails with status 125 without them).
if [ "$(id -u)" -eq 0 ]; then
  unshare -m --propagation private true 2>/dev/null ||
    skip "'unshare -m' is not permitted here (the test needs a mount namespace)"
else
  unshare -Urm --propagation private \
    unshare -U --map-user="$(id -u)" --map-group="$(id -g)" true 2>/dev/null ||
    skip "'unshare -Urm' is not permitted here (the test needs a user and a mount" \
      "namespace)"
fi

rm -rf "$build/piglit-smoke"
mkdir -p "$build/piglit-smoke"
log=$(cd "$build/piglit-smoke" && pwd) # absolute: --one runs in the piglit folder
cache=$(cd "$build" && pwd)/program-cache

export PIGLIT_PLATFORM=surfaceless_egl EGL_PLATFORM=surfaceless
export PIGLIT_SOURCE_DIR="$piglit" MESA_SHADER_CACHE_DISABLE=true CLPIPE_SMOKE_LOG="$log"
export PIGLIT_DIR="$piglit" PIGLIT_TIMEOUT="$limit" PIGLIT_JOBS="$jobs"
grep -v '^#' "$here/smoke.list" | grep -v '^[[:space:]]*$' >"$log/tests"

# server.log: the server's errors (clpipe-run runs it with -q) and clpipe-run's own.
status=0
env -u GALLIUM_DRIVER CLPIPE_CACHE_DIR="$cache" \
  "$run" --server "$server" -- sh "$here/run-smoke.sh" --many 2>"$log/server.log" ||
  status=$?
if [ $status -ne 0 ]; then
  echo "piglit smoke: clpipe-run failed (status $status):"
  cat "$log/server.log"
  exit 1
fi

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
echo "piglit smoke: $((n - bad)) of $n tests pass (logs in $build/piglit-smoke)"
[ $bad -eq 0 ]
