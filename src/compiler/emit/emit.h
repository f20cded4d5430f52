// TGSI -> OpenCL C: the emitter's public interface.
//
// emit_opencl() turns a validated Shader (ir.h) and its ShaderInfo (shader_info.h) into
// the two parts of shader code that src/kernels/shader_abi.h describes — the prelude
// (#defines) and the body (functions ending with clp_shader_main) — plus the ordered list
// of kernel resource parameters (CLP_RESOURCE_PARAMS) the host binds. A pass template
// (vertex.cl, tile.cl, harness.cl, compute.cl) is appended to make a program; see
// frontend/draw/stage_program.h for the assembly.
//
// compile_tgsi() (compile.h) is the convenience the front-end calls: parse, validate,
// analyse, emit.
//
// Execution model (design.md, shader_abi.h): one work-item runs CLP_LANES lanes (4 for
// vertex, tessellation and geometry; 4, 8 or 16 for fragment, EmitOptions; 1 for
// compute, so that BARRIER is barrier()). Every TGSI
// register channel is one `vf`; control flow is structured C with per-lane execution
// masks. Errors: anything that cannot be translated throws CompileError at the
// instruction's line:column. Every emitted program builds (tests build them all).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir.h"
#include "compiler/shader_info.h"

namespace clpipe::compiler {

// Facts about the device the program will be built for.
struct EmitOptions {
  bool fp64 = true;   // cl_khr_fp64: double opcodes are translated; else CompileError
  bool int64 = true;  // 64-bit integers (full profile): int64 opcodes; else CompileError
  // Bytes of local memory a work-group can have (CL_DEVICE_LOCAL_MEM_SIZE), and the
  // shared memory the compute state asks for (pipe_compute_state::req_local_mem): more
  // than the device has is a CompileError. 0 = not known at compile time.
  uint64_t local_mem_size = 0;
  uint32_t shared_memory_size = 0;
  // Lanes of a fragment-shader work-item (CLP_LANES): 4, 8 or 16 pixels, whole 2x2 quads
  // (shader_abi.h), or 1 pixel. At 1 a shader that reads the other pixels of its quad
  // (derivatives, implicit LOD, interpolation at an offset) still gets 4: see
  // EmittedShader::lanes. Other stages run 4 lanes, compute 1.
  uint32_t fragment_lanes = 4;
  // A fragment-shader work-item of the tile pass shades a whole tile (CLP_TILE_WHOLE,
  // kernels/tile.cl), else one block of fragment_lanes pixels (always at one lane).
  bool fragment_whole_tile = false;
  // Emit the parameters of the shader's interpreted form (emit_interpreted, which sets it
  // itself): a kResourceInfo whether or not the shader reads it, constant buffers from 0 up
  // to a size class of the highest, for a shader that samples the descriptor arrays and
  // texture units likewise (the ones it does not name are placeholders), and a kInterpCode
  // last, which compiled code does not read. A host that draws a shader both interpreted
  // and compiled binds the same arguments to both programs.
  bool interp_params = false;
};

// One kernel parameter of CLP_RESOURCE_PARAMS, in order. All are `global` buffers except
// kSharedMemory (a `local` buffer, compute only). A host binds them mechanically: walk
// `params`, bind the buffer named by (kind, index), and fill one ClpResourceInfo with the
// bound sizes (an unbound slot has size 0: every access reads 0 and writes nothing).
// What the host binds for each:
enum class ParamKind : uint8_t {
  kResourceInfo,    // ClpResourceInfo (kernels/shader_lib_shared.h): bound sizes, clock
  kConstBuffer,     // CONST[index]: the constant buffer's bytes (size in const_size[index])
  kShaderBuffer,    // BUFFER[index]: the shader buffer's bytes (size in buffer_size[index])
  kHwAtomicBuffer,  // HWATOMIC[index][..]: the counter buffer (size in hw_atomic_size)
  kSamplerViews,    // ClpTexView[n] (kernels/sampling_abi.h), entry u = sampler view u;
                    // n >= `index` (= the highest unit the shader names + 1)
  kSamplers,        // ClpSamplerState[n], entry u = sampler u; n >= `index`
  kTexture,         // the data buffer of sampler view `index` (texels, see ClpTexView)
  kImageViews,      // ClpTexView[n] of the shader images, n >= `index`
  kImage,           // the data buffer of image `index`
  kGlobalMemory,    // MEMORY GLOBAL: the buffer its byte addresses index (global_size)
  kInputMemory,     // MEMORY INPUT: the grid's input buffer (pipe_grid_info::input)
  kSharedMemory,    // MEMORY SHARED: `local` memory of shared_size bytes per work-group
  kInterpCode,      // interpreted shaders (emit_interpreted): EmittedShader::interp_code
};
const char* param_kind_name(ParamKind kind);

struct ResourceParam {
  ParamKind kind = ParamKind::kResourceInfo;
  uint32_t index = 0;  // unit / buffer number; for the descriptor arrays, the entry count
  std::string name;    // C name in the kernel signature, e.g. "clp_cb1"
  std::string decl;    // C declaration, e.g. "global const uint* clp_cb1"
  // kSharedMemory: bytes of local memory to bind (EmitOptions::shared_memory_size; 0 = not
  // known when compiling: bind req_local_mem). Also goes to ClpResourceInfo::shared_size.
  uint32_t bytes = 0;
  // A kConstBuffer or kTexture the shader does not read, there so that shaders of other
  // units share its interpreted program (EmitOptions::interp_params): bind the placeholder
  // (size 0), whatever the state binds to that unit.
  bool placeholder = false;
};

struct EmittedShader {
  ShaderType stage = ShaderType::VERTEX;
  uint32_t lanes = 4;                 // CLP_LANES; the pass launches its work-items to match
  bool reads_quads = false;           // the body reads other lanes of its quads
  std::string prelude;                // #defines (shader_abi.h) — before shader_abi.h
  std::string body;                   // #includes of the shader library and the functions
  std::vector<ResourceParam> params;  // CLP_RESOURCE_PARAMS, in order
  // CLP_NUM_INPUTS and CLP_NUM_OUTPUTS: ShaderInfo's counts, or for an interpreted
  // shader size classes of them (Emitter::prelude_inputs).
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
  bool uses_fp64 = false;     // the program needs cl_khr_fp64
  uint32_t sample_calls = 0;  // CLP_TEX_SAMPLE calls in the body (sampling.h)
  // emit_interpreted(): the shader as the words the body interprets (bound to the
  // kInterpCode parameter); empty for compiled shaders.
  std::vector<uint32_t> interp_code;
};

// Throws CompileError (line:column of the offending instruction or declaration) for what
// cannot be translated: double / int64 opcodes without device support, FBFETCH and the
// bindless opcodes (no pass template provides them), recursive subroutines, shared memory
// larger than the device's. `info` must be analyze(shader) of the same validated shader.
EmittedShader emit_opencl(const Shader& shader, const ShaderInfo& info, const EmitOptions& options);

// The shader for the interpreter (compile latency, issue 15): the parameters of
// emit_opencl() with interp_params, a prelude of size classes that leaves out what the
// code's header carries (the fragment shader's outputs and early-depth rule, the geometry
// shader's properties, which gs.cl reads from ClpGsParams), and a body that interprets
// `interp_code` and is the same text for every shader with the same prelude and temporary
// class, so their programs are one program of the cache.
// Every register write, mask and library call is the compiled code's (the interpreter's
// arithmetic is emit_opencl()'s own code for each opcode), so both draw the same bits.
// Vertex and fragment shaders of 32-bit arithmetic, IF / UIF / ELSE, loops, KILL and
// RET, reading TEMP, IN, OUT, CONST, IMM and SV (TEMP, IN, OUT and CONST also through
// address registers); anything else throws CompileError naming it (the caller compiles
// the shader instead).
EmittedShader emit_interpreted(const Shader& shader, const ShaderInfo& info,
                               const EmitOptions& options);

// The pass template that runs a shader of `stage` over plain buffers: "harness.cl" for the
// graphics stages, "compute.cl" for compute (the launch_grid template).
const char* harness_template_name(ShaderType stage);

}  // namespace clpipe::compiler
