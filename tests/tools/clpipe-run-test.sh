#!/bin/sh
# clpipe-run's tests (tools/clpipe-run), one CTest test per mode:
#   status  PROGRAM's exit status comes back (3), a missing PROGRAM gives 127, and the
#           server and its folder are gone afterwards
#   root    a piglit test passes through clpipe-run as root
#   user    the same as an unprivileged user (nobody), and PROGRAM keeps that uid
#   glx     glxgears under Xvfb: GLX through the caller's DISPLAY, GL_RENDERER names clpipe
# Exit 77 (skipped) with the reason where what a mode needs is missing: root for
# 'user', piglit, Mesa's virpipe, Xvfb/glxgears, or namespaces.
#   usage: clpipe-run-test.sh MODE CLPIPE_RUN CLPIPE_VTEST BUILD_DIR
set -eu
mode=$1
run=$2
server=$3
build=$4
piglit=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
# A short piglit test of the smoke list.
piglit_test="bin/draw-vertices-half-float -auto -fbo"

skip() {
  echo "clpipe-run test ($mode): SKIPPED: $*"
  exit 77
}
need_gl() {
  [ -x "$piglit/bin/shader_runner" ] || skip "no piglit in $piglit"
  ls /usr/lib/x86_64-linux-gnu/dri/virtio_gpu_dri.so >/dev/null 2>&1 ||
    skip "no Mesa virpipe driver (libgl1-mesa-dri)"
}
need_ns() { # need_ns [AS-USER-PREFIX...]
  if [ "$(id -u)" -eq 0 ] && [ $# -eq 0 ]; then
    unshare -m --propagation private true 2>/dev/null || skip "'unshare -m' is not permitted"
  else
    "$@" unshare -Urm --propagation private true 2>/dev/null ||
      skip "user namespaces are not permitted"
  fi
}
export CLPIPE_CACHE_DIR="$build/program-cache"

case $mode in
  status)
    need_ns
    # clpipe-run keeps its server's socket in a folder under XDG_RUNTIME_DIR and removes
    # the folder after the server has ended.
    runtime=$(mktemp -d)
    trap 'rm -rf "$runtime"' EXIT
    export XDG_RUNTIME_DIR="$runtime"
    st=0
    "$run" --server "$server" -- sh -c 'exit 3' || st=$?
    [ $st -eq 3 ] || { echo "exit 3 came back as $st"; exit 1; }
    st=0
    "$run" --server "$server" -- no-such-program-here 2>/dev/null || st=$?
    [ $st -eq 127 ] || { echo "a missing program gave $st, not 127"; exit 1; }
    [ -z "$(ls -A "$runtime")" ] || { echo "left behind: $(ls -A "$runtime")"; exit 1; }
    echo "clpipe-run test: passed"
    ;;
  root)
    [ "$(id -u)" -eq 0 ] || skip "not root"
    need_gl
    need_ns
    cd "$piglit"
    # shellcheck disable=SC2086 # the test's words
    "$run" --server "$server" -- $piglit_test
    echo "clpipe-run test: passed"
    ;;
  user)
    [ "$(id -u)" -eq 0 ] || skip "not root (the test switches to user nobody)"
    need_gl
    as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
    $as_user test -x "$server" || skip "user nobody cannot run $server (a private build folder)"
    need_ns $as_user
    # The build's program cache is readable to nobody (its writes there fail and are
    # ignored); HOME, for PoCL's own cache, is a folder of its own.
    home=$(mktemp -d)
    trap 'rm -rf "$home"' EXIT
    chmod 777 "$home"
    uid=$($as_user env HOME="$home" "$run" --server "$server" -- id -u)
    [ "$uid" = 65534 ] || { echo "PROGRAM ran as uid $uid, not the caller's (65534)"; exit 1; }
    cd "$piglit"
    # shellcheck disable=SC2086 # the test's words
    $as_user env HOME="$home" "$run" --server "$server" -- $piglit_test
    echo "clpipe-run test: passed"
    ;;
  glx)
    need_gl
    need_ns
    command -v Xvfb >/dev/null || skip "no Xvfb (apt-get install xvfb)"
    command -v glxgears >/dev/null || skip "no glxgears (apt-get install mesa-utils)"
    display=:$(($$ % 400 + 100))
    Xvfb "$display" -screen 0 320x240x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb=$!
    trap 'kill $xvfb 2>/dev/null || true' EXIT
    n=0
    until [ -S "/tmp/.X11-unix/X${display#:}" ]; do
      n=$((n + 1))
      [ $n -le 100 ] || { echo "Xvfb did not start"; exit 1; }
      sleep 0.1
    done
    out=$(DISPLAY=$display "$run" --server "$server" -- timeout 10 glxgears -info 2>&1) || true
    echo "$out" | grep -E "GL_RENDERER|GL_VERSION"
    echo "$out" | grep -q "GL_RENDERER.*clpipe" || { echo "$out" | tail -20; exit 1; }
    echo "clpipe-run test: passed"
    ;;
  *)
    echo "usage: clpipe-run-test.sh status|root|user|glx CLPIPE_RUN CLPIPE_VTEST BUILD_DIR"
    exit 2
    ;;
esac
