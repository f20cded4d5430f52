#!/bin/sh
# ctest: the libFuzzer targets of the vtest server (tests/vtest/fuzz) and of the draw path
# (tests/frontend/fuzz) in a build of its own with clang++, ASan and UBSan, each run for
# $CLPIPE_FUZZ_SECONDS (default 60).
# Exits 77 (skipped) where clang++ or its libFuzzer runtime is missing.
# Usage: run-fuzz-test.sh SOURCE-DIR BUILD-DIR GENERATOR
set -eu
src=$1 out=$2 gen=$3
command -v clang++ >/dev/null 2>&1 || { echo "skipped: no clang++"; exit 77; }
mkdir -p "$out"
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' \
  >"$out/probe.cpp"
if ! clang++ -fsanitize=fuzzer "$out/probe.cpp" -o "$out/probe" 2>/dev/null; then
  echo "skipped: clang++ has no libFuzzer runtime (Debian: libclang-rt-dev)"
  exit 77
fi
CC=clang CXX=clang++ cmake -S "$src" -B "$out" -G "$gen" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCLPIPE_FUZZ=ON -DCLPIPE_BUILD_TESTS=OFF -DCLPIPE_BUILD_BENCH=OFF -DCLPIPE_CHECK_KERNELS=OFF \
  >"$out/configure.log" || { cat "$out/configure.log"; exit 1; }
cmake --build "$out" --parallel 2 --target clpipe_vtest_fuzz clpipe_vtest_fuzz_seeds clpipe_draw_fuzz >"$out/build.log" ||
  { tail -40 "$out/build.log"; exit 1; }
ctest --test-dir "$out" --output-on-failure
