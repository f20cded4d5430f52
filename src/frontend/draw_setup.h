// Draw-time validation and derivation: turns a Context's bound state into the DrawSetup
// the draw passes run on (everything except the stage programs, see shader_program.h).
//
// Producer of the input: the state calls of ContextImpl (ContextState). Consumer of the
// output: ContextImpl::draw_vbo, which adds the stage programs and runs DrawPipeline.
#pragma once

#include <vector>

#include "compiler/linkage.h"
#include "compiler/shader_info.h"
#include "frontend/context_state.h"
#include "frontend/draw/draw_pipeline.h"
#include "frontend/resource.h"

namespace clpipe::frontend {

// Resources a draw touches, so the context can report its commands to them.
struct DrawResources {
  std::vector<ResourceImpl*> reads;
  std::vector<ResourceImpl*> writes;
  std::vector<ResourceImpl*> vertex_reads;  // vertex buffers (reads too)
};

// Where the last vertex stage's special outputs are.
draw::VertexOutputLayout vertex_output_layout(const compiler::ShaderInfo& last);

// The per-register input table of the tile pass from the stage linkage.
std::vector<ClpFsLink> fs_link_table(const compiler::FsLinkage& linkage,
                                     const RasterizerState& rasterizer);

// Where a draw writes the surface `handle` (a colour or depth/stencil attachment), which
// `used` gains as written. Throws for a surface of another screen or a buffer.
draw::ColorTarget color_target(const SurfaceHandle& handle, uint64_t screen_id, const char* what,
                               DrawResources* used);

// Fills s (not its stage programs) from the bound state; `last` is the last vertex stage
// (the geometry shader when one is bound, else vs). Throws clpipe::Error for state a
// draw cannot use (no framebuffer size, a surface of a foreign screen, ...).
void fill_draw_setup(const ContextState& st, uint64_t screen_id, const compiler::ShaderInfo& vs,
                     const compiler::ShaderInfo& last, const compiler::ShaderInfo& fs,
                     const compiler::FsLinkage& linkage, const DrawInfo& info, draw::DrawSetup* s,
                     DrawResources* used);

// The geometry stage's facts (not its program): the GS input primitive must be what the
// draw's mode decomposes into; GS inputs are linked to VS outputs by semantic. Throws
// kInvalidArgument for a mismatch, kUnsupported for what the pass cannot run.
void fill_geometry_setup(const compiler::ShaderInfo& vs, const compiler::ShaderInfo& gs,
                         PrimType mode, draw::GeometrySetup* g);

// Stream output of the last vertex stage (`info`, its pipe_stream_output_info) into the
// bound targets; inactive when no target is bound or the stage declares no output. The
// targets' filled sizes must exist (set_stream_output_targets creates them).
void fill_stream_output_setup(const ContextState& st, uint64_t screen_id,
                              const StreamOutputInfo& info, draw::StreamOutputSetup* so,
                              DrawResources* used);

}  // namespace clpipe::frontend
