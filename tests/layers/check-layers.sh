#!/bin/sh
# The layering test (src/CMakeLists.txt): each layer compiles against its own include
# root, so a header of a layer above it does not exist there. For each layer this
# compiles a one-line file that includes a header it may use (which must build) and
# headers of the layers above it (which must not), with the layer's own include flags;
# and it checks that the two layers without OpenCL (base, compiler) include no OpenCL
# header.
#   usage: check-layers.sh CXX SOURCE_DIR LAYER_INCLUDE_DIR CLHPP_INCLUDE_DIR
set -eu
cxx=$1
src=$2
roots=$3
clhpp=$4
bad=0

try() { # LAYER HEADER EXPECT(ok|fails)
  # fails = the compiler finds no such header; any other error is reported as such.
  got=ok
  out=$(printf '#include "%s"\n' "$2" |
    "$cxx" -std=c++17 -fsyntax-only -I"$src/include" -I"$roots/$1" -I"$clhpp" -x c++ - 2>&1) ||
    got=error
  if [ $got = error ] && echo "$out" | grep -q "No such file or directory"; then got=fails; fi
  if [ "$got" = "$3" ]; then
    echo "ok: $1 including $2 $got"
  else
    echo "WRONG: $1 including $2 $got (expected: $3)"
    bad=1
  fi
}

try clpipe_base base/error.h ok
try clpipe_base compiler/ir.h fails
try clpipe_base runtime/error.h fails
try clpipe_compiler compiler/ir.h ok
try clpipe_compiler kernels/shader_lib_shared.h ok
try clpipe_compiler runtime/error.h fails
try clpipe_compiler frontend/cso.h fails
try clpipe_runtime runtime/program_cache.h ok
try clpipe_runtime compiler/ir.h fails
try clpipe_runtime frontend/cso.h fails
try clpipe frontend/cso.h ok
try clpipe vtest/server.h fails
try clpipe_vtest vtest/server.h ok
try clpipe_vtest frontend/context_impl.h fails
try clpipe_vtest runtime/error.h fails

if grep -rlE '#include *[<"](CL/|runtime/)' "$src/src/base" "$src/src/compiler"; then
  echo "WRONG: the files above (base or compiler) include OpenCL or the runtime"
  bad=1
fi
[ $bad -eq 0 ] && echo "layers: passed"
exit $bad
