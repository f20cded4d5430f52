// The per-launch resource facts generated shaders read beside their resource buffers:
// bound sizes (for bounds checks) and the CLOCK base. Compiled both as C++ (the host
// fills it) and as OpenCL C (generated code reads it through the kResourceInfo kernel
// parameter, compiler/emit/emit.h). Only 32-bit scalars and arrays of them, so the layouts
// agree; the host static_asserts the size.
//
// Producer: the front-end (or the test harness), once per launch, from the bound
// constant buffers, shader buffers, atomic counter buffers, global/input memory and the
// shared memory size. Consumer: shader_lib.h and the generated code. A size of 0 means
// "nothing bound": every access reads 0 and writes nothing.
#ifndef CLPIPE_SHADER_LIB_SHARED_H
#define CLPIPE_SHADER_LIB_SHARED_H

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define CLP_RI_U32 uint
#else
#include <cstdint>
#define CLP_RI_U32 uint32_t
#endif

// Array sizes; they equal clpipe's kMaxConstantBuffers, kMaxShaderBuffers (include/clpipe/
// defines.h) and PIPE_MAX_HW_ATOMIC_BUFFERS.
#define CLP_RI_MAX_CONST_BUFFERS 32
#define CLP_RI_MAX_SHADER_BUFFERS 32
#define CLP_RI_MAX_HW_ATOMIC_BUFFERS 32

typedef struct {
  // Bytes bound to CONST[b] (pipe_constant_buffer::buffer_size); reads at or past it are 0.
  CLP_RI_U32 const_size[CLP_RI_MAX_CONST_BUFFERS];
  // Bytes bound to BUFFER[n] (pipe_shader_buffer::buffer_size).
  CLP_RI_U32 buffer_size[CLP_RI_MAX_SHADER_BUFFERS];
  // Bytes bound to HWATOMIC buffer b (4 per counter).
  CLP_RI_U32 hw_atomic_size[CLP_RI_MAX_HW_ATOMIC_BUFFERS];
  // Bytes of the MEMORY GLOBAL and MEMORY INPUT buffers, and of the local memory bound to
  // the kSharedMemory parameter (pipe_compute_state::req_local_mem).
  CLP_RI_U32 global_size;
  CLP_RI_U32 input_size;
  CLP_RI_U32 shared_size;
  // CLOCK returns clock_base (64 bits, low word first) plus a count of the CLOCK
  // instructions the invocation executed before. The host sets it from a monotonic clock
  // (nanoseconds) at every launch, so values grow within an invocation and from one
  // launch to the next.
  CLP_RI_U32 clock_base_lo;
  CLP_RI_U32 clock_base_hi;
  CLP_RI_U32 pad[3];  // zero; keeps the size a multiple of 16 bytes
  // Where the bound data starts in the buffers passed to the shader, so that draws of one
  // scene share kernel arguments (the scene's arena, a resource's whole storage) and
  // differ only in these: CONST[b] starts at word const_offset[b] of its buffer; the
  // sampler view, sampler and image view tables at element view_base, sampler_base and
  // image_base of theirs. All 0 when each binding has a buffer of its own.
  CLP_RI_U32 const_offset[CLP_RI_MAX_CONST_BUFFERS];
  CLP_RI_U32 view_base;
  CLP_RI_U32 sampler_base;
  CLP_RI_U32 image_base;
  CLP_RI_U32 pad2;  // zero
} ClpResourceInfo;

#undef CLP_RI_U32

#endif  // CLPIPE_SHADER_LIB_SHARED_H
