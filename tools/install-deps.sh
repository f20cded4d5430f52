#!/bin/sh
# Installs the Debian 12 packages clpipe builds and runs with, if any is missing.
# Used by the README's two commands and by .ci/run.
#   ocl-icd-opencl-dev opencl-clhpp-headers  OpenCL loader, C and C++ headers
#   pocl-opencl-icd                          PoCL: the OpenCL CPU device (any GPU driver works too)
#   clang                                    build-time syntax check of the OpenCL C kernels
#   libclang-rt-dev                          clang's libFuzzer and sanitizer runtimes: the
#                                            vtest server's fuzz test (tests/vtest/fuzz)
#   catch2                                   tests
#   zlib1g-dev                               gzip-compressed vtest captures (replay)
#   piglit libgl1-mesa-dri                   the piglit smoke test: piglit's GL tests through
#                                            Mesa's virpipe driver and clpipe-vtest
#   pkg-config dpkg-dev                      the install test (a pkg-config consumer) and
#                                            `cpack -G DEB` (dpkg-shlibdeps)
#   xvfb mesa-utils                          clpipe-run's GLX test (glxgears under Xvfb)
set -eu
PACKAGES="cmake ninja-build g++ clang libclang-rt-dev ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd catch2 zlib1g-dev piglit libgl1-mesa-dri pkg-config dpkg-dev xvfb mesa-utils"
[ $# -gt 0 ] && PACKAGES="$PACKAGES $*"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
