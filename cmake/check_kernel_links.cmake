# Script mode (cmake -P): fails when the LLVM IR in LL, compiled at -O0, calls a clpipe
# function (clp_*) that the file declares but never defines.
# Why: OpenCL C follows C99 inline semantics, so a plain `inline` function is only an
# inline definition and no symbol is emitted for it. A compiler that does not inline a call
# (NVIDIA's with -cl-opt-disable, or any compiler with another inlining threshold) then
# fails to link the program. At -O0 clang inlines nothing, so every such call shows up
# here as a `declare`. clp_shader_main is generated code: the check preludes declare it.
file(STRINGS ${LL} declares REGEX "^declare .*@clp_")
set(missing "")
foreach(d ${declares})
  string(REGEX MATCH "@clp_[A-Za-z0-9_]+" fn "${d}")
  if(NOT fn STREQUAL "@clp_shader_main")
    string(APPEND missing " ${fn}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "${SRC}: called but never defined at -O0 (a C99 `inline` definition? "
                      "drop its `inline`):${missing}")
endif()

# And fails when a helper is defined with external linkage: every function but the kernels
# is `static`, so the device compiler drops the helpers a program does not call before it
# optimises them (an external one is compiled into every program that includes its file:
# 0.5 s of PoCL's 1.7 s front end for a tile program, issue 15's measurement).
file(STRINGS ${LL} defines REGEX "^define ")
set(external "")
foreach(d ${defines})
  if(NOT d MATCHES " internal " AND NOT d MATCHES " spir_kernel ")
    string(REGEX MATCH "@[A-Za-z0-9_]+" fn "${d}")
    string(APPEND external " ${fn}")
  endif()
endforeach()
if(external)
  message(FATAL_ERROR "${SRC}: defines functions with external linkage (make them `static`):"
                      "${external}")
endif()
