#include "frontend/draw_setup.h"

#include <algorithm>

#include "frontend/cso.h"
#include "frontend/views.h"
#include "runtime/error.h"

namespace clpipe::frontend {

using compiler::Semantic;

draw::VertexOutputLayout vertex_output_layout(const compiler::ShaderInfo& last) {
  draw::VertexOutputLayout o;
  // GL leaves the position undefined when the last stage writes none (a stage that only
  // feeds stream output, mostly with rasterizer discard): register 0 then, which every
  // stage's outputs have (the passes keep at least one register per vertex).
  const compiler::IoInfo* pos = last.find_output(Semantic::POSITION, 0);
  o.pos_reg = pos ? pos->reg : 0;
  if (const compiler::IoInfo* p = last.find_output(Semantic::PSIZE, 0))
    o.psize_reg = int32_t(p->reg);
  for (uint32_t i = 0; i < 2; ++i) {
    if (const compiler::IoInfo* c = last.find_output(Semantic::CLIPDIST, i))
      o.clipdist_reg[i] = int32_t(c->reg);
  }
  if (const compiler::IoInfo* c = last.find_output(Semantic::CLIPVERTEX, 0))
    o.clipvertex_reg = int32_t(c->reg);
  // GL applies edge flags to the vertices of the draw; primitives a geometry shader
  // emits have none.
  if (const compiler::IoInfo* e = last.find_output(Semantic::EDGEFLAG, 0);
      e && last.stage == ShaderType::VERTEX)
    o.edgeflag_reg = int32_t(e->reg);
  o.num_clip_dist = last.props.num_clip_distances;
  o.num_cull_dist = last.props.num_cull_distances;
  o.window_space_position = last.props.vs_window_space_position;
  return o;
}

std::vector<ClpFsLink> fs_link_table(const compiler::FsLinkage& linkage,
                                     const RasterizerState& rasterizer) {
  std::vector<ClpFsLink> table;
  for (const compiler::FsInputLink& in : linkage.inputs) {
    if (in.fs_reg >= CLP_MAX_FS_INPUTS) {
      runtime::unsupported("draw_vbo: fragment input register ", in.fs_reg, " (at most ",
                           CLP_MAX_FS_INPUTS, ")");
    }
    if (table.size() <= in.fs_reg) table.resize(in.fs_reg + 1, ClpFsLink{-1, -1, 0, {0, 0, 0, 0}});
    ClpFsLink& l = table[in.fs_reg];
    l.src_reg = in.source == compiler::FsInputSource::kVarying ? in.output_reg : -1;
    l.bcolor_reg = in.bcolor_reg;
    l.flags = uint32_t(in.from_output & 0xf) << CLP_LINK_CHAN_SHIFT |
              uint32_t(in.bcolor_from_output & 0xf) << CLP_LINK_BCOLOR_CHAN_SHIFT;
    if (in.semantic == Semantic::COLOR) l.flags |= CLP_LINK_COLOR;
    if (in.sprite_coord_index >= 0 &&
        ((rasterizer.sprite_coord_enable >> in.sprite_coord_index) & 1u)) {
      l.flags |= CLP_LINK_SPRITE;
    }
    for (int c = 0; c < 4; ++c)
      l.def[c] = in.default_value[c];
  }
  return table;
}

draw::ColorTarget color_target(const SurfaceHandle& handle, uint64_t screen_id, const char* what,
                               DrawResources* used) {
  const SurfaceImpl& surf = surface_of(handle, screen_id, what);
  ResourceImpl& res = resource_of(surf.resource(), screen_id, what);
  if (res.is_buffer()) runtime::unsupported("draw_vbo: buffer render targets");
  const SurfaceTemplate& t = surf.info();
  draw::ColorTarget ct;
  ct.buffer = res.storage();
  ct.format = t.format;
  ct.pitch = res.level_row_pitch(t.level);
  // Draws go to the first layer; layered draws (a GS LAYER output) move the offset by
  // layer_pitch per layer (DrawPipeline::draw).
  ct.layer_pitch = res.level_layer_pitch(t.level);
  ct.offset = res.level_offset(t.level) + uint64_t(t.first_layer) * ct.layer_pitch;
  ct.layers = t.last_layer >= t.first_layer ? uint32_t(t.last_layer - t.first_layer) + 1 : 1;
  ct.sample_rows = res.layout().level(t.level).height;
  ct.samples = res.layout().level(t.level).samples;
  used->writes.push_back(&res);
  return ct;
}

void fill_draw_setup(const ContextState& st, uint64_t screen_id, const compiler::ShaderInfo& vs,
                     const compiler::ShaderInfo& last, const compiler::ShaderInfo& fs,
                     const compiler::FsLinkage& linkage, const DrawInfo& info, draw::DrawSetup* s,
                     DrawResources* used) {
  s->outputs = vertex_output_layout(last);

  // Vertex input.
  if (st.vertex_elements) s->elements = st.vertex_elements->elements;
  if (s->elements.size() < vs.num_inputs) {
    runtime::invalid("draw_vbo: the vertex shader reads ", vs.num_inputs,
                     " inputs but the vertex elements provide ", s->elements.size());
  }
  for (const VertexElement& e : s->elements) {
    const VertexBuffer& vb = st.vertex_buffers[e.vertex_buffer_index];
    draw::VertexInput& in = s->inputs[e.vertex_buffer_index];
    if (in.buffer() || !vb.buffer) continue;  // done, or unbound: reads zeros
    ResourceImpl& res = resource_of(vb.buffer, screen_id, "vertex buffer");
    in.buffer = res.storage();
    in.offset = vb.buffer_offset;
    in.size = res.size_bytes();
    in.stride = vb.stride;
    used->vertex_reads.push_back(&res);
  }
  // User indices have no resource: draw_vbo copies them into a buffer the scene keeps.
  if (info.index_size && !info.has_user_indices) {
    ResourceImpl& res = resource_of(info.index_resource, screen_id, "index buffer");
    s->index_buffer = res.storage();
    s->index_offset = 0;
    s->index_size_bytes = res.size_bytes();
    used->reads.push_back(&res);
  }

  // Fixed-function state; an unbound CSO acts as its default template.
  s->rasterizer = st.rasterizer ? st.rasterizer->state : RasterizerState();
  s->dsa = st.depth_stencil_alpha ? st.depth_stencil_alpha->state : DepthStencilAlphaState();
  s->blend = st.blend ? st.blend->state : BlendState();
  s->blend_color = st.blend_color;
  s->stencil_ref = st.stencil_ref;
  s->clip = st.clip;
  s->stipple = st.stipple;
  s->viewport = st.viewports[0];
  s->scissor = st.scissors[0];
  s->sample_mask = st.sample_mask;
  s->min_samples = st.min_samples;

  // Framebuffer.
  const FramebufferState& fb = st.framebuffer;
  s->fb_width = fb.width;
  s->fb_height = fb.height;
  s->nr_cbufs = std::min<uint32_t>(fb.nr_cbufs, kMaxColorBufs);
  for (uint32_t i = 0; i < s->nr_cbufs; ++i) {
    if (fb.cbufs[i]) s->cbufs[i] = color_target(fb.cbufs[i], screen_id, "colour buffer", used);
  }
  if (fb.zsbuf) s->zsbuf = color_target(fb.zsbuf, screen_id, "depth/stencil buffer", used);
  // The attachments' samples (set_framebuffer_state made them agree), or the samples of
  // a framebuffer without attachments.
  s->samples = std::max<uint32_t>(1, fb.samples);
  for (uint32_t i = 0; i < s->nr_cbufs; ++i) {
    if (fb.cbufs[i]) s->samples = s->cbufs[i].samples;
  }
  if (fb.zsbuf) s->samples = s->zsbuf.samples;
  // Attachments of different sizes (PIPE_CAP_MIXED_FRAMEBUFFER_SIZES): draw only where all
  // of them exist, so no pixel is written outside a surface.
  for (uint32_t i = 0; i < s->nr_cbufs; ++i) {
    if (!fb.cbufs[i]) continue;
    s->fb_width = std::min(s->fb_width, fb.cbufs[i]->width());
    s->fb_height = std::min(s->fb_height, fb.cbufs[i]->height());
  }
  if (fb.zsbuf) {
    s->fb_width = std::min(s->fb_width, fb.zsbuf->width());
    s->fb_height = std::min(s->fb_height, fb.zsbuf->height());
  }

  // Fragment stage facts and linkage.
  for (uint32_t i = 0; i < kMaxColorBufs; ++i)
    s->fs_color_reg[i] = fs.fs_outputs.color[i];
  s->fs_color0_broadcast = fs.props.fs_color0_writes_all_cbufs;
  s->fs_coord_lower_left = fs.props.fs_coord_origin_lower_left;
  s->fs_coord_pixel_center_integer = fs.props.fs_pixel_center_integer;
  s->fs_reads_prim_id = fs.find_input(Semantic::PRIMID, 0) != nullptr;
  s->fs_links = fs_link_table(linkage, s->rasterizer);
}

}  // namespace clpipe::frontend
