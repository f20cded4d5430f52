// Draw-time derivation of the geometry-shader and stream-output parts of a DrawSetup
// (draw_setup.h): input-primitive checks, GS input linkage, the stream-output targets.
//
// Producer of the input: the bound shaders and targets (ContextState). Consumer of the
// output: DrawPipeline's geometry and stream-output passes (draw/geometry_pass.cpp,
// draw/stream_output_pass.cpp).
#include <algorithm>

#include "compiler/linkage.h"
#include "frontend/draw_setup.h"
#include "frontend/limits.h"
#include "frontend/resource.h"
#include "frontend/views.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

// The basic primitive a draw mode decomposes into: what a GS must take as input.
PrimType basic_prim(PrimType mode) {
  switch (mode) {
    case PrimType::POINTS:
      return PrimType::POINTS;
    case PrimType::LINES:
    case PrimType::LINE_LOOP:
    case PrimType::LINE_STRIP:
      return PrimType::LINES;
    case PrimType::LINES_ADJACENCY:
    case PrimType::LINE_STRIP_ADJACENCY:
      return PrimType::LINES_ADJACENCY;
    case PrimType::TRIANGLES_ADJACENCY:
    case PrimType::TRIANGLE_STRIP_ADJACENCY:
      return PrimType::TRIANGLES_ADJACENCY;
    default:
      return PrimType::TRIANGLES;
  }
}

}  // namespace

void fill_geometry_setup(const compiler::ShaderInfo& vs, const compiler::ShaderInfo& gs,
                         PrimType mode, draw::GeometrySetup* g) {
  const compiler::ShaderProperties& p = gs.props;
  if (basic_prim(mode) != p.gs_input_prim) {
    runtime::invalid("draw_vbo: ", prim_name(mode), " primitives cannot feed a geometry shader ",
                     "that takes ", prim_name(p.gs_input_prim));
  }
  if (p.gs_output_prim != PrimType::POINTS && p.gs_output_prim != PrimType::LINE_STRIP &&
      p.gs_output_prim != PrimType::TRIANGLE_STRIP) {
    runtime::invalid("draw_vbo: geometry shader output primitive ", prim_name(p.gs_output_prim),
                     " (POINTS, LINE_STRIP or TRIANGLE_STRIP)");
  }
  // The pass runs the shader twice (count, then write): side effects would happen twice.
  if (gs.writes_memory) {
    runtime::unsupported("draw_vbo: a geometry shader that writes memory (STORE / ATOM*)");
  }
  if (p.gs_invocations < 1 || p.gs_invocations > kMaxGsInvocations) {
    runtime::unsupported("draw_vbo: GS_INVOCATIONS ", p.gs_invocations, " (1 to ",
                         kMaxGsInvocations, ")");
  }
  g->output_prim = p.gs_output_prim;
  ClpGsParams& gp = g->params;
  gp = ClpGsParams{};
  gp.invocations = p.gs_invocations;
  gp.verts_per_prim = p.gs_input_vertices;
  gp.max_vertices = p.gs_max_output_vertices;
  gp.output_prim = uint32_t(p.gs_output_prim);
  gp.num_outputs = std::max<uint32_t>(gs.num_outputs, 1);
  std::fill(std::begin(gp.in_map), std::end(gp.in_map), CLP_GS_IN_NONE);
  const std::vector<int32_t> match = compiler::match_stage_inputs(vs, gs);
  for (size_t i = 0; i < gs.inputs.size(); ++i) {
    const compiler::IoInfo& in = gs.inputs[i];
    if (in.reg >= CLP_GS_MAX_INPUTS) {
      runtime::unsupported("draw_vbo: geometry shader input register ", in.reg, " (at most ",
                           CLP_GS_MAX_INPUTS - 1, ")");
    }
    const bool primid = in.has_semantic && in.semantic == compiler::Semantic::PRIMID;
    gp.in_map[in.reg] = primid ? CLP_GS_IN_PRIMID : match[i];
  }
}

void fill_stream_output_setup(const ContextState& st, uint64_t screen_id,
                              const StreamOutputInfo& info, draw::StreamOutputSetup* so,
                              DrawResources* used) {
  *so = draw::StreamOutputSetup{};
  if (info.output.empty()) return;
  ClpSoParams& sp = so->params;
  for (size_t b = 0; b < st.so_targets.size() && b < CLP_SO_BUFFERS; ++b) {
    if (!st.so_targets[b]) continue;
    const StreamOutputTargetImpl& t = so_target_of(st.so_targets[b], screen_id, "draw_vbo");
    ResourceImpl& res = resource_of(t.buffer(), screen_id, "stream-output target");
    if (!t.filled()()) runtime::invalid("draw_vbo: stream-output target ", b, " was never bound");
    so->buffers[b] = res.storage();
    so->filled[b] = t.filled();
    sp.bound |= 1u << b;
    sp.base[b] = int64_t(t.buffer_offset());
    sp.size[b] = t.buffer_size();
    used->writes.push_back(&res);
  }
  if (sp.bound == 0) return;
  for (uint32_t b = 0; b < CLP_SO_BUFFERS; ++b)
    sp.stride[b] = uint32_t(info.stride[b]) * 4;
  for (const StreamOutput& o : info.output) {
    // Only vertex stream 0 exists (MAX_VERTEX_STREAMS = 1): outputs of other streams
    // never receive a vertex.
    if (o.stream != 0 || sp.num_outputs >= CLP_SO_MAX_OUTPUTS) continue;
    ClpSoOutput& out = sp.out[sp.num_outputs++];
    out.reg = o.register_index;
    out.start = o.start_component;
    out.count = o.num_components;
    out.buffer = o.output_buffer;
    out.dst_offset = o.dst_offset;
  }
  so->active = sp.num_outputs > 0;
}

}  // namespace clpipe::frontend
