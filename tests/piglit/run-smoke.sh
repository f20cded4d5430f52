#!/bin/sh
# The piglit smoke test: runs tests/piglit/smoke.list through Mesa's virpipe against
# clpipe-vtest with ../shared/tools/piglit-vtest and fails when any listed test does
# not pass. Registered with CTest (tests/CMakeLists.txt); exit 77 = skipped, for a
# machine without piglit, Mesa's virpipe, the piglit-vtest tool or mount namespaces
# (tools/install-deps.sh installs the first two).
#   usage: run-smoke.sh CLPIPE_VTEST BUILD_DIR
set -eu
server=$1
build=$2
here=$(cd "$(dirname "$0")" && pwd)
tool=${PIGLIT_VTEST:-$here/../../../shared/tools/piglit-vtest}
piglit=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}

skip() {
  echo "piglit smoke: SKIPPED: $*"
  exit 77
}
[ -x "$tool" ] || skip "no piglit-vtest at $tool (set PIGLIT_VTEST)"
[ -x "$piglit/bin/shader_runner" ] || skip "no piglit in $piglit (apt-get install piglit)"
ls /usr/lib/x86_64-linux-gnu/dri/virtio_gpu_dri.so >/dev/null 2>&1 ||
  skip "no Mesa virpipe driver (apt-get install libgl1-mesa-dri)"
if [ "$(id -u)" -eq 0 ]; then ns="unshare -m"; else ns="unshare -Urm"; fi
$ns true 2>/dev/null || skip "'$ns' is not permitted here (piglit-vtest needs a mount namespace)"

out=$build/piglit-smoke.json
"$tool" --server "$server" --server-env "CLPIPE_CACHE_DIR=$build/program-cache" \
  --list "$here/smoke.list" --piglit-dir "$piglit" --jobs 2 --timeout 120 \
  --out "$out" -q || true
# Every listed test must pass; print the others with the end of their output.
python3 - "$out" "$here/smoke.list" <<'PY'
import json, shlex, sys
doc = json.load(open(sys.argv[1]))
wanted = [l.strip() for l in open(sys.argv[2]) if l.strip() and not l.startswith('#')]
bad = 0
for t in wanted:
    r = doc['tests'].get(shlex.join(shlex.split(t)), {'result': 'missing'})
    if r['result'] != 'pass':
        bad += 1
        print('NOT PASSING (%s): %s' % (r['result'], t))
        for line in r.get('output_tail', [])[-8:]:
            print('    ' + line)
print('piglit smoke: %d of %d tests pass' % (len(wanted) - bad, len(wanted)))
sys.exit(1 if bad else 0)
PY
