# Finds what clpipe builds against. Every dependency is a Debian 12 package:
#   ocl-icd-opencl-dev (libOpenCL + CL headers), opencl-clhpp-headers (CL/opencl.hpp),
#   catch2 (tests), clang (build-time kernel syntax check), zlib1g-dev (compressed captures).
find_package(OpenCL REQUIRED)
find_path(CLPIPE_CLHPP_INCLUDE CL/opencl.hpp REQUIRED)
find_package(Threads REQUIRED)
if(CLPIPE_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
endif()
if(CLPIPE_CHECK_KERNELS)
  find_program(CLPIPE_CLANG NAMES clang clang-14 clang-15 clang-16 REQUIRED)
endif()
