// Translation of the bound Gallium state (a DrawSetup) into the device parameter blocks
// of the draw passes: ClpVertexParams, ClpDrawParams, ClpRasterParams.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontend/draw/draw_pipeline.h"
#include "runtime/error.h"

namespace clpipe::frontend::draw {

namespace {

bool uses_src1(BlendFactor f) {
  return f == BlendFactor::SRC1_COLOR || f == BlendFactor::SRC1_ALPHA ||
         f == BlendFactor::INV_SRC1_COLOR || f == BlendFactor::INV_SRC1_ALPHA;
}

uint32_t depth_bits(Format f) {
  const FormatDesc& d = format_desc(f);
  if (!format_has_depth(f)) return 0;
  return d.channel[int(d.swizzle[0])].bits;
}

bool depth_is_float(Format f) {
  const FormatDesc& d = format_desc(f);
  return format_has_depth(f) && d.channel[int(d.swizzle[0])].type == ChannelType::FLOAT;
}

}  // namespace

ClpVertexParams make_vertex_params(const DrawSetup& s, const DrawInfo& info,
                                   const DrawStartCountBias& range, uint32_t draw_id,
                                   std::array<int, kMaxVertexBuffers>* slot_of_buffer) {
  ClpVertexParams vp;
  std::memset(&vp, 0, sizeof(vp));
  slot_of_buffer->fill(-1);
  if (s.elements.size() > CLP_MAX_VERTEX_ELEMENTS) {
    runtime::invalid("draw_vbo: ", s.elements.size(), " vertex elements (at most ",
                     CLP_MAX_VERTEX_ELEMENTS, ")");
  }
  uint32_t next_slot = 0;
  for (size_t i = 0; i < s.elements.size(); ++i) {
    const VertexElement& e = s.elements[i];
    if (e.vertex_buffer_index >= kMaxVertexBuffers) {
      runtime::invalid("draw_vbo: vertex element ", i, " reads vertex buffer ",
                       unsigned(e.vertex_buffer_index));
    }
    int& slot = (*slot_of_buffer)[e.vertex_buffer_index];
    if (slot < 0) {
      if (next_slot >= CLP_MAX_VERTEX_BUFFERS) {
        runtime::unsupported("draw_vbo: the vertex elements read more than ",
                             CLP_MAX_VERTEX_BUFFERS, " vertex buffers");
      }
      slot = int(next_slot++);
      const VertexInput& in = s.inputs[e.vertex_buffer_index];
      ClpVertexBuffer& b = vp.vb[slot];
      b.offset = int64_t(in.offset);
      b.size = int64_t(in.buffer() ? in.size : 0);
      b.stride = in.stride;
    }
    ClpVertexElement& ve = vp.elem[i];
    ve.format = uint32_t(e.src_format);
    ve.offset = e.src_offset;
    ve.buffer = uint32_t(slot);
    ve.divisor = e.instance_divisor;
    ve.kind = format_is_pure_uint(e.src_format)   ? CLP_VE_UINT
              : format_is_pure_sint(e.src_format) ? CLP_VE_SINT
                                                  : CLP_VE_FLOAT;
    ve.block_bytes = format_desc(e.src_format).block_bytes;
  }
  vp.num_elements = uint32_t(s.elements.size());
  vp.num_outputs = s.vs.num_outputs;
  vp.count = range.count;
  vp.instance_count = info.instance_count;
  vp.start = range.start;
  vp.index_bias = info.index_size ? range.index_bias : 0;
  vp.start_instance = info.start_instance;
  vp.index_size = info.index_size;
  vp.index_offset = int64_t(s.index_offset);
  vp.index_limit = int64_t(s.index_size_bytes);
  vp.restart_enabled = info.index_size && info.primitive_restart ? 1 : 0;
  vp.restart_index = info.restart_index;
  vp.draw_id = draw_id;
  return vp;
}

ClpDrawParams make_draw_params(const DrawSetup& s, const DrawInfo& info, uint32_t count) {
  ClpDrawParams dp;
  std::memset(&dp, 0, sizeof(dp));
  const RasterizerState& r = s.rasterizer;
  const VertexOutputLayout& o = s.outputs;
  // Registers per vertex of the last vertex stage (the setup and tile passes read it).
  dp.num_outputs = s.gs.stage.program ? s.gs.stage.num_outputs : s.vs.num_outputs;
  dp.pos_reg = o.pos_reg;
  dp.psize_reg = o.psize_reg;
  dp.clipdist_reg[0] = o.clipdist_reg[0];
  dp.clipdist_reg[1] = o.clipdist_reg[1];
  dp.clipvertex_reg = o.clipvertex_reg;
  dp.edgeflag_reg = o.edgeflag_reg;
  dp.num_clip_dist = o.num_clip_dist;
  dp.num_cull_dist = o.num_cull_dist;
  dp.clip_plane_enable = r.clip_plane_enable;

  dp.prim_mode = uint32_t(info.mode);
  dp.count = count;
  dp.instance_count = info.instance_count;
  uint32_t f = CLP_DRAW_QUADS_FOLLOW_PROVOKING;  // PIPE_CAP_QUADS_FOLLOW_PROVOKING_... = 1
  if (r.flatshade_first) f |= CLP_DRAW_FLATSHADE_FIRST;
  if (info.index_size && info.primitive_restart) f |= CLP_DRAW_RESTART;
  if (r.cull_face & Face::FRONT) f |= CLP_DRAW_CULL_FRONT;
  if (r.cull_face & Face::BACK) f |= CLP_DRAW_CULL_BACK;
  if (r.front_ccw) f |= CLP_DRAW_FRONT_CCW;
  if (r.half_pixel_center) f |= CLP_DRAW_HALF_PIXEL_CENTER;
  if (r.bottom_edge_rule) f |= CLP_DRAW_BOTTOM_EDGE_RULE;
  if (r.depth_clip_near) f |= CLP_DRAW_DEPTH_CLIP_NEAR;
  if (r.depth_clip_far) f |= CLP_DRAW_DEPTH_CLIP_FAR;
  if (r.clip_halfz) f |= CLP_DRAW_CLIP_HALFZ;
  if (r.offset_point) f |= CLP_DRAW_OFFSET_POINT;
  if (r.offset_line) f |= CLP_DRAW_OFFSET_LINE;
  if (r.offset_tri) f |= CLP_DRAW_OFFSET_TRI;
  if (o.window_space_position) f |= CLP_DRAW_WINDOW_SPACE_POSITION;
  if (r.point_size_per_vertex) f |= CLP_DRAW_POINT_SIZE_PER_VERTEX;
  if (r.line_last_pixel) f |= CLP_DRAW_LINE_LAST_PIXEL;
  if (r.point_quad_rasterization) f |= CLP_DRAW_POINT_QUAD_RAST;
  if (s.fs_reads_prim_id) f |= CLP_DRAW_NEED_PRIM_ID;
  if (s.samples > 1 && r.multisample) f |= CLP_DRAW_MULTISAMPLE;
  if (s.exact_records) f |= CLP_DRAW_EXACT_RECORDS;
  const Format zs = s.zsbuf.format;
  if (zs != Format::NONE && depth_is_float(zs)) f |= CLP_DRAW_DEPTH_FLOAT;
  dp.flags = f;
  dp.fill_front = uint32_t(r.fill_front);
  dp.fill_back = uint32_t(r.fill_back);
  dp.prim_id_base = 0;

  for (int i = 0; i < 3; ++i) {
    dp.vp_scale[i] = s.viewport.scale[i];
    dp.vp_translate[i] = s.viewport.translate[i];
  }
  int x0 = 0, y0 = 0, x1 = int(s.fb_width), y1 = int(s.fb_height);
  if (r.scissor) {
    x0 = std::max(x0, int(s.scissor.minx));
    y0 = std::max(y0, int(s.scissor.miny));
    x1 = std::min(x1, int(s.scissor.maxx));
    y1 = std::min(y1, int(s.scissor.maxy));
  }
  dp.scissor[0] = x0;
  dp.scissor[1] = y0;
  dp.scissor[2] = std::max(x0, x1);
  dp.scissor[3] = std::max(y0, y1);
  if (!o.window_space_position) {
    // Pixel i is inside when its centre i + c lies in [lo, hi) of the viewport (a centre
    // on the left or top edge is inside, as the fill rule has it for a clipped edge).
    const double c = r.half_pixel_center ? 0.5 : 0.0;
    // The first pixel whose centre is at or past edge, within [-1, limit].
    auto first = [c](double edge, int limit) {
      return std::isfinite(edge) ? int(std::clamp(std::ceil(edge - c), -1.0, double(limit)))
                                 : limit;
    };
    const double tx = s.viewport.translate[0], hx = std::fabs(double(s.viewport.scale[0]));
    const double ty = s.viewport.translate[1], hy = std::fabs(double(s.viewport.scale[1]));
    x0 = std::max(x0, first(tx - hx, x1));
    x1 = std::min(x1, first(tx + hx, x1));
    y0 = std::max(y0, first(ty - hy, y1));
    y1 = std::min(y1, first(ty + hy, y1));
  }
  dp.tri_box[0] = x0;
  dp.tri_box[1] = y0;
  dp.tri_box[2] = std::max(x0, x1);
  dp.tri_box[3] = std::max(y0, y1);
  dp.fb_width = s.fb_width;
  dp.fb_height = s.fb_height;
  dp.tiles_x = (s.fb_width + CLP_TILE_SIZE - 1) / CLP_TILE_SIZE;
  dp.tiles_y = (s.fb_height + CLP_TILE_SIZE - 1) / CLP_TILE_SIZE;
  const float n =
      r.clip_halfz ? s.viewport.translate[2] : s.viewport.translate[2] - s.viewport.scale[2];
  const float fz = s.viewport.translate[2] + s.viewport.scale[2];
  dp.depth_min = std::min(n, fz);
  dp.depth_max = std::max(n, fz);
  for (int k = 0; k < 8; ++k) {
    for (int c = 0; c < 4; ++c)
      dp.ucp[k][c] = s.clip.ucp[k][c];
  }
  dp.point_size = r.point_size;
  dp.line_width = r.line_width;
  dp.offset_units = r.offset_units;
  dp.offset_scale = r.offset_scale;
  dp.offset_clamp = r.offset_clamp;
  // Fixed-point depth: the minimum resolvable difference is two units of the buffer.
  // Window depth comes from float positions and float math, which can differ by one
  // unit between two polygons at the same depth (near the near plane a float position
  // moves window depth by ~2 units of 24 bits), so one unit is not guaranteed to resolve
  // (piglit gl-1.4-polygon-offset measures 2 units there; llvmpipe's unit is 2 too).
  const uint32_t zb = zs != Format::NONE ? depth_bits(zs) : 24;
  dp.depth_mrd = r.offset_units_unscaled ? 1.0f : float(2.0 / (std::ldexp(1.0, int(zb)) - 1.0));
  dp.layer_reg = -1;  // DrawPipeline::draw sets the layer of each pass of a layered draw
  dp.layer = 0;
  return dp;
}

ClpRasterParams make_raster_params(const DrawSetup& s) {
  ClpRasterParams rp;
  std::memset(&rp, 0, sizeof(rp));
  const RasterizerState& r = s.rasterizer;
  const BlendState& b = s.blend;
  const DepthStencilAlphaState& z = s.dsa;
  rp.nr_cbufs = std::min<uint32_t>(s.nr_cbufs, CLP_MAX_RTS);
  for (uint32_t i = 0; i < rp.nr_cbufs; ++i) {
    const ColorTarget& t = s.cbufs[i];
    ClpRtState& rt = rp.rt[i];
    if (t.format == Format::NONE) continue;
    const RtBlendState& rb = b.rt[b.independent_blend_enable ? i : 0];
    uint32_t flags = CLP_RT_ENABLED;
    const bool is_uint = format_is_pure_uint(t.format), is_sint = format_is_pure_sint(t.format);
    const ChannelType base = format_base_type(t.format);
    if (is_uint) flags |= CLP_RT_UINT;
    if (is_sint) flags |= CLP_RT_SINT;
    if (base == ChannelType::UNORM) flags |= CLP_RT_UNORM;
    if (base == ChannelType::SNORM) flags |= CLP_RT_SNORM;
    const bool integer = is_uint || is_sint;
    // GL: the logic op is ignored for floating-point and sRGB colour buffers.
    const bool logic_ok = base != ChannelType::FLOAT && !format_is_srgb(t.format);
    if (b.logicop_enable && logic_ok) {
      flags |= CLP_RT_LOGICOP;
    } else if (rb.blend_enable && !integer && !b.logicop_enable) {
      flags |= CLP_RT_BLEND;
    }
    rt.flags = flags;
    rt.offset = int64_t(t.offset);
    rt.pitch = t.pitch;
    rt.format = uint32_t(t.format);
    rt.colormask = rb.colormask;
    rt.rgb_func = uint32_t(rb.rgb_func);
    rt.rgb_src = uint32_t(rb.rgb_src_factor);
    rt.rgb_dst = uint32_t(rb.rgb_dst_factor);
    rt.alpha_func = uint32_t(rb.alpha_func);
    rt.alpha_src = uint32_t(rb.alpha_src_factor);
    rt.alpha_dst = uint32_t(rb.alpha_dst_factor);
    rt.sample_rows = t.sample_rows;
  }
  uint32_t f = 0;
  if (s.zsbuf.format != Format::NONE) {
    f |= CLP_RAST_ZS_PRESENT;
    rp.zs_offset = int64_t(s.zsbuf.offset);
    rp.zs_pitch = s.zsbuf.pitch;
    rp.zs_format = uint32_t(s.zsbuf.format);
    rp.zs_sample_rows = s.zsbuf.sample_rows;
  }
  if (z.depth_enabled) f |= CLP_RAST_DEPTH_TEST;
  if (z.depth_enabled && z.depth_writemask) f |= CLP_RAST_DEPTH_WRITE;
  // EXT_depth_bounds_test: the bounds apply with the depth test off too.
  if (z.depth_bounds_test) f |= CLP_RAST_DEPTH_BOUNDS;
  if (z.stencil[0].enabled) f |= CLP_RAST_STENCIL_FRONT;
  if (z.stencil[0].enabled && z.stencil[1].enabled) f |= CLP_RAST_STENCIL_BACK;
  if (z.alpha_enabled) f |= CLP_RAST_ALPHA_TEST;
  if (r.depth_clamp || !r.depth_clip_near || !r.depth_clip_far) f |= CLP_RAST_DEPTH_CLAMP;
  if (r.poly_stipple_enable) f |= CLP_RAST_POLY_STIPPLE;
  if (r.flatshade) f |= CLP_RAST_FLATSHADE;
  if (r.light_twoside) f |= CLP_RAST_LIGHT_TWOSIDE;
  if (r.clamp_fragment_color) f |= CLP_RAST_CLAMP_FRAGMENT_COLOR;
  if (r.clamp_vertex_color) f |= CLP_RAST_CLAMP_VERTEX_COLOR;
  if (r.sprite_coord_mode == SpriteCoordMode::LOWER_LEFT) f |= CLP_RAST_SPRITE_LOWER_LEFT;
  if (r.half_pixel_center) f |= CLP_RAST_HALF_PIXEL_CENTER;
  if (s.fs_color0_broadcast) f |= CLP_RAST_COLOR0_BROADCAST;
  if (s.fs_coord_lower_left) f |= CLP_RAST_FS_COORD_LOWER_LEFT;
  if (s.fs_coord_pixel_center_integer) f |= CLP_RAST_FS_COORD_PIXEL_CENTER_INTEGER;
  const RtBlendState& rb0 = b.rt[0];
  if (rb0.blend_enable && (uses_src1(rb0.rgb_src_factor) || uses_src1(rb0.rgb_dst_factor) ||
                           uses_src1(rb0.alpha_src_factor) || uses_src1(rb0.alpha_dst_factor))) {
    f |= CLP_RAST_DUAL_SOURCE;
  }
  // GL: alpha to coverage and to one act on multisample rasterization only.
  if (s.samples > 1 && r.multisample) {
    if (b.alpha_to_coverage) f |= CLP_RAST_ALPHA_TO_COVERAGE;
    if (b.alpha_to_one) f |= CLP_RAST_ALPHA_TO_ONE;
    if (s.min_samples > 1) f |= CLP_RAST_SAMPLE_SHADING;
  }
  if (s.counters() && s.count_fragments) f |= CLP_RAST_COUNT;
  if (s.predicate()) {
    f |= CLP_RAST_PREDICATE;
    if (s.skip_when_true) f |= CLP_RAST_PREDICATE_WHEN_TRUE;
  }
  rp.flags = f;
  rp.depth_func = uint32_t(z.depth_func);
  rp.alpha_func = uint32_t(z.alpha_func);
  rp.alpha_ref = z.alpha_ref_value;
  const float n =
      r.clip_halfz ? s.viewport.translate[2] : s.viewport.translate[2] - s.viewport.scale[2];
  const float fz = s.viewport.translate[2] + s.viewport.scale[2];
  rp.depth_clamp_min = std::min(n, fz);
  rp.depth_clamp_max = std::max(n, fz);
  rp.depth_bounds_min = float(z.depth_bounds_min);
  rp.depth_bounds_max = float(z.depth_bounds_max);
  for (int i = 0; i < 2; ++i) {
    const StencilState& st = z.stencil[i];
    rp.stencil_func[i] = uint32_t(st.func);
    rp.stencil_fail[i] = uint32_t(st.fail_op);
    rp.stencil_zpass[i] = uint32_t(st.zpass_op);
    rp.stencil_zfail[i] = uint32_t(st.zfail_op);
    rp.stencil_valuemask[i] = st.valuemask;
    rp.stencil_writemask[i] = st.writemask;
    rp.stencil_ref[i] = s.stencil_ref.ref_value[i];
  }
  for (int i = 0; i < 4; ++i)
    rp.blend_color[i] = s.blend_color.color[i];
  rp.logicop_func = uint32_t(b.logicop_func);
  rp.sample_mask = s.sample_mask;
  rp.samples = s.samples;
  rp.fb_width = s.fb_width;
  rp.fb_height = s.fb_height;
  rp.tiles_x = (s.fb_width + CLP_TILE_SIZE - 1) / CLP_TILE_SIZE;
  rp.sprite_coord_enable = r.sprite_coord_enable;
  std::memcpy(rp.stipple, s.stipple.stipple, sizeof(rp.stipple));
  const size_t nin = std::min<size_t>(s.fs_links.size(), CLP_MAX_FS_INPUTS);
  rp.num_fs_inputs = uint32_t(nin);
  for (size_t i = 0; i < nin; ++i)
    rp.link[i] = s.fs_links[i];
  return rp;
}

}  // namespace clpipe::frontend::draw
