#!/bin/sh
# clpipe-vtest --warm-cache into an empty program cache: every bundled session replays,
# and then
#  - a second warm-up builds nothing: the first left every program it built in the cache
#    (none was lost with the replays' processes, none was an optimised build still due);
#  - sessions the warm-up does not bundle (a textured draw, a draw with clears and
#    readbacks, from tests/data/vtest-captures) replay without building a program: what
#    the warm-up builds is what other GL programs share, not its own sessions' programs;
#  - the demo's first frames (CLPIPE_DEMO) generate no work-group function in PoCL's
#    kernel cache: PoCL generates a kernel's code per local size at the first launch of
#    that size (blit_texels at 64 work-items took the demo's first frame from ~0.3 to
#    ~4 s), so the passes every GL program runs must launch with sizes the warm-up ran.
#    A device without PoCL's kernel cache has no files to count.
# Then the Debian package's flow: its postinst (BUILD_DIR/deb/postinst, from
# cmake/deb/postinst.in) warms a machine folder with this clpipe-vtest, and a user whose own
# program cache and PoCL kernel cache are empty replays those sessions building nothing:
# every program they share is a binary entry there (a marker would name a build in the
# install's temporary PoCL cache, and be built again).
#   usage: warm-cache-test.sh CLPIPE_VTEST SOURCE_DIR BUILD_DIR CLPIPE_DEMO
set -u
tool=$1
src=$2
build=$3
dir=$build/warm-cache-test
demo=$4
rm -rf "$dir"
mkdir -p "$dir"
CLPIPE_CACHE_DIR=$dir/cache
POCL_CACHE_DIR=$dir/pocl
# No machine folder: the warm-up into the user's folder must build what it needs.
CLPIPE_SYSTEM_CACHE_DIR=
export CLPIPE_CACHE_DIR POCL_CACHE_DIR CLPIPE_SYSTEM_CACHE_DIR
fail() {
  echo "warm-cache test: $*"
  exit 1
}

# "N programs built" of a run's output.
built() { sed -n 's/.* \([0-9][0-9]*\) programs\{0,1\} built.*/\1/p; s/^programs: \([0-9][0-9]*\) built.*/\1/p' "$1"; }

"$tool" --warm-cache > "$dir/first.txt" 2>&1 || { cat "$dir/first.txt"; fail "the warm-up failed"; }
cat "$dir/first.txt"
grep -q "sessions replayed" "$dir/first.txt" || fail "no total line"
n=$(built "$dir/first.txt" | tail -1)
[ "${n:-0}" -gt 0 ] || fail "the first warm-up into an empty cache built nothing"

"$tool" --warm-cache > "$dir/second.txt" 2>&1 || { cat "$dir/second.txt"; fail "the second warm-up failed"; }
n=$(built "$dir/second.txt" | tail -1)
[ "$n" = 0 ] || { cat "$dir/second.txt"; fail "the second warm-up built $n programs"; }

for c in 05-texture2D 03-cmod-clear-probe-all; do
  "$tool" --replay "$src/tests/data/vtest-captures/$c.vtcap.gz" > "$dir/$c.txt" 2>&1
  cat "$dir/$c.txt"
  n=$(built "$dir/$c.txt")
  [ "$n" = 0 ] || fail "$c built $n programs after the warm-up"
done
# The work-group functions in PoCL's kernel cache (one .so per kernel and launch shape).
work_group_functions() { find "$POCL_CACHE_DIR" -name '*.so' 2>/dev/null | sort; }
work_group_functions > "$dir/before-demo.txt"
"$demo" --out "$dir/demo.png" > "$dir/demo.txt" 2>&1 || { cat "$dir/demo.txt"; fail "the demo failed"; }
cat "$dir/demo.txt"
work_group_functions > "$dir/after-demo.txt"
new=$(comm -13 "$dir/before-demo.txt" "$dir/after-demo.txt")
[ -z "$new" ] || fail "the demo generated work-group functions after the warm-up: $new"

system=$dir/system
CLPIPE_SYSTEM_CACHE_DIR=$system CLPIPE_VTEST=$tool sh "$build/deb/postinst" configure \
  > "$dir/postinst.txt" 2>&1 || { cat "$dir/postinst.txt"; fail "the package's postinst failed"; }
cat "$dir/postinst.txt"
n=$(built "$system/warm-up.log" | tail -1)
[ "${n:-0}" -gt 0 ] || { cat "$system/warm-up.log"; fail "the postinst's warm-up built nothing"; }
CLPIPE_CACHE_DIR=$dir/user
POCL_CACHE_DIR=$dir/user-pocl
CLPIPE_SYSTEM_CACHE_DIR=$system
for c in 05-texture2D 03-cmod-clear-probe-all; do
  "$tool" --replay "$src/tests/data/vtest-captures/$c.vtcap.gz" > "$dir/$c-system.txt" 2>&1
  cat "$dir/$c-system.txt"
  n=$(built "$dir/$c-system.txt")
  [ "$n" = 0 ] || fail "$c built $n programs with the package's machine folder"
done
echo "warm-cache test: passed"
