// The CSO and view objects behind the API's handles, and the validators of their
// templates.
//
// Producers: the create_* methods of ContextImpl (state_<cso>.cpp, views.cpp) validate a
// template and copy it into one of these immutable objects. Consumers: draw-time
// validation and the passes (issue 4), which read the stored state through the bound
// handles in ContextState (context_state.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <map>
#include <mutex>
#include "clpipe/context.h"

#include "compiler/emit/emit.h"
#include "compiler/ir.h"
#include "compiler/shader_info.h"
#include "runtime/program_cache.h"

namespace clpipe {

class BlendCso {
 public:
  explicit BlendCso(const BlendState& s) : state(s) {}
  const BlendState state;
};

class DepthStencilAlphaCso {
 public:
  explicit DepthStencilAlphaCso(const DepthStencilAlphaState& s) : state(s) {}
  const DepthStencilAlphaState state;
};

class RasterizerCso {
 public:
  explicit RasterizerCso(const RasterizerState& s) : state(s) {}
  const RasterizerState state;
};

class SamplerCso {
 public:
  explicit SamplerCso(const SamplerState& s) : state(s) {}
  const SamplerState state;
};

class VertexElementsCso {
 public:
  explicit VertexElementsCso(std::vector<VertexElement> e) : elements(std::move(e)) {}
  const std::vector<VertexElement> elements;
};

namespace frontend {
namespace draw {
class TieredProgram;
class TileVariants;
}  // namespace draw
// A shader's OpenCL C in one pass template, built (src/frontend/shader_program.h).
struct StageProgram {
  // vertex.cl, gs.cl: the quick, then the optimised program (draw/program_tiers.h);
  // compute.cl: the optimised one. Null for tile.cl.
  std::shared_ptr<draw::TieredProgram> tiers;
  std::vector<compiler::ResourceParam> params;
  // tile.cl: the generic program and its specialised variants.
  std::shared_ptr<draw::TileVariants> tile_variants;
  // A shader drawn interpreted first (compiler::emit_interpreted): the words its
  // kInterpCode parameter reads, and their device copy, made at the first bind.
  std::vector<uint32_t> interp_code;
  mutable std::mutex interp_mutex;
  mutable cl::Buffer interp_buffer;
};
}  // namespace frontend

// A shader's TGSI after the compiler front-end: parsed, validated and analysed at
// create time (errors are reported there, with line:column); the OpenCL C is emitted
// and built when a draw or launch first needs it, once per pass template.
struct CompiledTgsi {
  compiler::Shader ir;
  compiler::ShaderInfo info;
  // Built programs by template name; filled by frontend::program_for().
  mutable std::mutex programs_mutex;
  mutable std::map<std::string, std::shared_ptr<const frontend::StageProgram>> programs;
};

// A graphics shader: its stage, TGSI text and compiled form.
class Shader {
 public:
  Shader(ShaderType s, const ShaderState& st, std::shared_ptr<const CompiledTgsi> c)
      : stage(s), state(st), compiled(std::move(c)) {}
  const ShaderType stage;
  const ShaderState state;
  const std::shared_ptr<const CompiledTgsi> compiled;
};

class ComputeShader {
 public:
  ComputeShader(const ComputeState& st, std::shared_ptr<const CompiledTgsi> c)
      : state(st), compiled(std::move(c)) {}
  const ComputeState state;
  const std::shared_ptr<const CompiledTgsi> compiled;
};

}  // namespace clpipe

namespace clpipe::frontend {

// Each throws clpipe::Error(kInvalidArgument) naming the first bad field, or
// kUnsupported for a valid value clpipe does not implement.
void validate_blend(const BlendState& s);
void validate_depth_stencil_alpha(const DepthStencilAlphaState& s);
void validate_rasterizer(const RasterizerState& s);
void validate_sampler(const SamplerState& s);
void validate_vertex_elements(const std::vector<VertexElement>& elements);
// The stage named by the TGSI header must be `stage`; stream output is checked too.
void validate_shader(ShaderType stage, const ShaderState& s);
void validate_compute(const ComputeState& s, uint64_t max_local_mem);

// The stage named by the first token of TGSI text (VERT, FRAG, ...); throws when the
// text does not start with a known stage name.
ShaderType tgsi_header_stage(const std::string& tgsi);

// Parses, validates and analyses TGSI text; throws compiler::CompileError with
// line:column diagnostics.
std::shared_ptr<const CompiledTgsi> compile_tgsi_front(const std::string& tgsi);

}  // namespace clpipe::frontend
