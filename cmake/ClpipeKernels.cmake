# OpenCL C sources of src/kernels are embedded into the library as string constants,
# so nothing is looked up on disk at run time, and each is syntax-checked with clang
# at build time so that a kernel error fails the build rather than a test run.

# clpipe_embed_kernels(<out_cpp> FILES <abs paths...>)
#   Writes <out_cpp> defining clpipe::kernels::embedded_sources() at build time.
function(clpipe_embed_kernels out_cpp)
  cmake_parse_arguments(ARG "" "" "FILES" ${ARGN})
  clpipe_embed_files(${out_cpp} NAMESPACE clpipe::kernels FUNCTION embedded_sources
                     FILES ${ARG_FILES})
endfunction()

# clpipe_embed_files(<out_cpp> NAMESPACE <ns> FUNCTION <name> FILES <abs paths...>)
#   Writes <out_cpp> defining <ns>::<name>(), which returns the files' bytes as
#   clpipe::kernels::EmbeddedSource entries (base/embedded_sources.h).
function(clpipe_embed_files out_cpp)
  cmake_parse_arguments(ARG "" "NAMESPACE;FUNCTION" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} "-DFILES=${ARG_FILES}"
            -DNAMESPACE=${ARG_NAMESPACE} -DFUNCTION=${ARG_FUNCTION}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_kernels.cmake
    DEPENDS ${ARG_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_kernels.cmake
    COMMENT "Embedding ${ARG_FUNCTION}"
    VERBATIM)
endfunction()

# clpipe_check_kernels(<target> INCLUDE_DIRS <dirs...> DEPENDS <files...> FILES <.cl paths...>)
#   Adds <target>, which compiles every file with clang as OpenCL C 1.2 at -O0 to LLVM IR
#   for SPIR (a device target: the host's would warn about its vector ABI).
#   -pedantic-errors: clang accepts extensions (variadic macros, ...) that other OpenCL
#   compilers such as NVIDIA's reject, so an extension fails the build here instead.
#   check_kernel_links.cmake then fails the build on a call to a function that is
#   declared but not defined, which only inlining would have hidden.
function(clpipe_check_kernels target)
  cmake_parse_arguments(ARG "" "" "INCLUDE_DIRS;DEPENDS;FILES" ${ARGN})
  set(stamps)
  set(incs)
  # Ninja makes an output's folder itself, Unix Makefiles do not.
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/kernel_check)
  foreach(d ${ARG_INCLUDE_DIRS})
    list(APPEND incs -I${d})
  endforeach()
  foreach(f ${ARG_FILES})
    get_filename_component(name ${f} NAME)
    get_filename_component(dir ${f} DIRECTORY)
    set(stamp ${CMAKE_CURRENT_BINARY_DIR}/kernel_check/${name}.ok)
    set(ir ${CMAKE_CURRENT_BINARY_DIR}/kernel_check/${name}.ll)
    set(deps ${ARG_DEPENDS})
    # Templates wrapped around generated shader code (vertex.cl, tile.cl, ...) have a
    # check/<name>.h that stands in for the generated prelude during this check.
    set(prelude)
    if(EXISTS ${dir}/check/${name}.h)
      set(prelude -include ${dir}/check/${name}.h)
      list(APPEND deps ${dir}/check/${name}.h)
    endif()
    add_custom_command(
      OUTPUT ${stamp}
      COMMAND ${CLPIPE_CLANG} -target spir64 -x cl -cl-std=CL1.2 -O0 -S -emit-llvm -o ${ir}
              -pedantic-errors
              -Werror=implicit-function-declaration
              ${incs} ${prelude} ${f}
      COMMAND ${CMAKE_COMMAND} -DLL=${ir} -DSRC=${name}
              -P ${PROJECT_SOURCE_DIR}/cmake/check_kernel_links.cmake
      COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
      DEPENDS ${f} ${deps} ${PROJECT_SOURCE_DIR}/cmake/check_kernel_links.cmake
      COMMENT "Checking OpenCL C ${name}"
      VERBATIM)
    list(APPEND stamps ${stamp})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${stamps})
endfunction()
