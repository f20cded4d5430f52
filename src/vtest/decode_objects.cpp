// CREATE_OBJECT / BIND_OBJECT / DESTROY_OBJECT for state objects, views, surfaces,
// queries and stream-output targets (doc 4.4; gallium.md 15). Shaders are in
// decode_shader.cpp.
//
// Every bit field is range-checked against the gallium enum it encodes before it is cast;
// every resource handle is looked up; every layer, level and element range is checked
// against the resource it names.
#include <algorithm>

#include "vtest/decoder.h"
#include "vtest/formats.h"
#include "vtest/layout.h"
#include "vtest/protocol.h"

namespace clpipe::frontend::vtest {
namespace {

bool valid_blend_factor(uint32_t f) {
  return (f >= 0x01 && f <= 0x0a) || (f >= 0x11 && f <= 0x15) || (f >= 0x17 && f <= 0x1a);
}

BlendFunc blend_func(uint32_t v) {
  if (v > uint32_t(BlendFunc::MAX)) protocol_error("invalid blend function ", v);
  return BlendFunc(v);
}

BlendFactor blend_factor(uint32_t v) {
  if (!valid_blend_factor(v)) protocol_error("invalid blend factor ", v);
  return BlendFactor(v);
}

PolygonMode polygon_mode(uint32_t v) {
  if (v > uint32_t(PolygonMode::FILL_RECTANGLE)) protocol_error("invalid polygon mode ", v);
  return PolygonMode(v);
}

StencilState stencil_state(uint32_t v) {
  StencilState s;
  s.enabled = bits(v, 0, 1);
  s.func = CompareFunc(bits(v, 1, 3));  // 3 bits: every value is a compare function
  s.fail_op = StencilOp(bits(v, 4, 3));
  s.zpass_op = StencilOp(bits(v, 7, 3));
  s.zfail_op = StencilOp(bits(v, 10, 3));
  s.valuemask = uint8_t(bits(v, 13, 8));
  s.writemask = uint8_t(bits(v, 21, 8));
  return s;
}

Swizzle swizzle(uint32_t v) {
  if (v > uint32_t(Swizzle::NONE)) protocol_error("invalid swizzle ", v);
  return Swizzle(v);
}

// Element range of a buffer view / surface: [first, last] in blocks of `block` bytes,
// last == first - 1 meaning an empty range. Returns {offset, size} in bytes.
std::pair<uint32_t, uint32_t> buffer_range(const ResourceDesc& d, uint32_t first, uint32_t last,
                                           uint32_t block, const char* what) {
  const int64_t count = int64_t(uint32_t(last + 1)) - int64_t(first);
  const uint64_t offset = uint64_t(first) * block;
  const uint64_t size = uint64_t(std::max<int64_t>(count, 0)) * block;
  if (count < 0 || offset + size > d.width)
    protocol_error(what, ": elements ", first, "..", last, " of ", block,
                   " bytes exceed the buffer of ", d.width, " bytes");
  return {uint32_t(offset), uint32_t(size)};
}

}  // namespace

void Decoder::cmd_create_object(const Payload& p, uint32_t obj_type) {
  switch (obj_type) {
    case ObjType::BLEND:
      return create_blend(p);
    case ObjType::RASTERIZER:
      return create_rasterizer(p);
    case ObjType::DSA:
      return create_dsa(p);
    case ObjType::SHADER:
      return create_shader(p);
    case ObjType::VERTEX_ELEMENTS:
      return create_vertex_elements(p);
    case ObjType::SAMPLER_VIEW:
      return create_sampler_view(p);
    case ObjType::SAMPLER_STATE:
      return create_sampler_state(p);
    case ObjType::SURFACE:
      return create_surface(p, false);
    case ObjType::MSAA_SURFACE:
      return create_surface(p, true);
    case ObjType::QUERY:
      return create_query(p);
    case ObjType::STREAMOUT_TARGET:
      return create_so_target(p);
  }
  protocol_error("invalid object type ", obj_type);
}

void Decoder::create_blend(const Payload& p) {
  p.expect_len(11);
  BlendState b;
  const uint32_t s0 = p[2];
  b.independent_blend_enable = bits(s0, 0, 1);
  b.logicop_enable = bits(s0, 1, 1);
  b.dither = bits(s0, 2, 1);
  b.alpha_to_coverage = bits(s0, 3, 1);
  b.alpha_to_coverage_dither = b.alpha_to_coverage;  // GL's default dithering
  b.alpha_to_one = bits(s0, 4, 1);
  b.logicop_func = LogicOp(bits(p[3], 0, 4));  // 4 bits: every value is a logic op
  b.max_rt = b.independent_blend_enable ? kMaxColorBufs - 1 : 0;
  for (uint32_t i = 0; i < kMaxColorBufs; ++i) {
    const uint32_t v = p[4 + i];
    RtBlendState& rt = b.rt[i];
    rt.blend_enable = bits(v, 0, 1);
    rt.colormask = uint8_t(bits(v, 27, 4));
    // Mesa sends zero factors for render targets without blending: they mean nothing.
    if (!rt.blend_enable) continue;
    rt.rgb_func = blend_func(bits(v, 1, 3));
    rt.rgb_src_factor = blend_factor(bits(v, 4, 5));
    rt.rgb_dst_factor = blend_factor(bits(v, 9, 5));
    rt.alpha_func = blend_func(bits(v, 14, 3));
    rt.alpha_src_factor = blend_factor(bits(v, 17, 5));
    rt.alpha_dst_factor = blend_factor(bits(v, 22, 5));
  }
  Result<BlendHandle> h = ctx().create_blend_state(b);
  report(h.status());
  insert_object(p[1], ObjType::BLEND, h ? ObjectValue(h.value()) : ObjectValue());
}

void Decoder::create_rasterizer(const Payload& p) {
  p.expect_len(9);
  RasterizerState r;
  const uint32_t s0 = p[2];
  r.flatshade = bits(s0, 0, 1);
  r.depth_clip_near = r.depth_clip_far = bits(s0, 1, 1);
  r.depth_clamp = !r.depth_clip_near;  // virgl has one bit: no clipping means clamping
  r.clip_halfz = bits(s0, 2, 1);
  r.rasterizer_discard = bits(s0, 3, 1);
  r.flatshade_first = bits(s0, 4, 1);
  r.light_twoside = bits(s0, 5, 1);
  r.sprite_coord_mode = SpriteCoordMode(bits(s0, 6, 1));
  r.point_quad_rasterization = bits(s0, 7, 1);
  r.cull_face = uint8_t(bits(s0, 8, 2));
  r.fill_front = polygon_mode(bits(s0, 10, 2));
  r.fill_back = polygon_mode(bits(s0, 12, 2));
  r.scissor = bits(s0, 14, 1);
  r.front_ccw = bits(s0, 15, 1);
  r.clamp_vertex_color = bits(s0, 16, 1);
  r.clamp_fragment_color = bits(s0, 17, 1);
  r.offset_line = bits(s0, 18, 1);
  r.offset_point = bits(s0, 19, 1);
  r.offset_tri = bits(s0, 20, 1);
  r.poly_smooth = bits(s0, 21, 1);
  r.poly_stipple_enable = bits(s0, 22, 1);
  r.point_smooth = bits(s0, 23, 1);
  r.point_size_per_vertex = bits(s0, 24, 1);
  r.multisample = bits(s0, 25, 1);
  r.line_smooth = bits(s0, 26, 1);
  r.line_stipple_enable = bits(s0, 27, 1);
  r.line_last_pixel = bits(s0, 28, 1);
  r.half_pixel_center = bits(s0, 29, 1);
  r.bottom_edge_rule = bits(s0, 30, 1);
  r.force_persample_interp = bits(s0, 31, 1);
  r.point_size = p.f(3);
  r.sprite_coord_enable = uint16_t(bits(p[4], 0, 16));
  r.line_stipple_pattern = uint16_t(bits(p[5], 0, 16));
  r.line_stipple_factor = uint8_t(bits(p[5], 16, 8));
  r.clip_plane_enable = uint8_t(bits(p[5], 24, 8));
  r.line_width = p.f(6);
  r.offset_units = p.f(7);
  r.offset_scale = p.f(8);
  r.offset_clamp = p.f(9);
  Result<RasterizerHandle> h = ctx().create_rasterizer_state(r);
  report(h.status());
  insert_object(p[1], ObjType::RASTERIZER, h ? ObjectValue(h.value()) : ObjectValue());
}

void Decoder::create_dsa(const Payload& p) {
  p.expect_len(5);
  DepthStencilAlphaState d;
  const uint32_t s0 = p[2];
  d.depth_enabled = bits(s0, 0, 1);
  d.depth_writemask = bits(s0, 1, 1);
  d.depth_func = CompareFunc(bits(s0, 2, 3));
  d.alpha_enabled = bits(s0, 8, 1);
  d.alpha_func = CompareFunc(bits(s0, 9, 3));
  d.stencil[0] = stencil_state(p[3]);
  d.stencil[1] = stencil_state(p[4]);
  d.alpha_ref_value = p.f(5);
  Result<DepthStencilAlphaHandle> h = ctx().create_depth_stencil_alpha_state(d);
  report(h.status());
  insert_object(p[1], ObjType::DSA, h ? ObjectValue(h.value()) : ObjectValue());
}

void Decoder::create_vertex_elements(const Payload& p) {
  p.expect_len_at_least(1);
  if ((p.len() - 1) % 4 != 0) protocol_error("length ", p.len(), " is not 1 + 4 x elements");
  const uint32_t n = (p.len() - 1) / 4;
  if (n > kMaxAttribs) protocol_error(n, " vertex elements (limit ", kMaxAttribs, ")");
  std::vector<VertexElement> elements(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t base = 2 + 4 * i;
    VertexElement& e = elements[i];
    if (p[base] > 0xffff) protocol_error("element ", i, " src_offset ", p[base]);
    e.src_offset = uint16_t(p[base]);
    e.instance_divisor = p[base + 1];
    if (p[base + 2] >= kMaxVertexBuffers)
      protocol_error("element ", i, " vertex buffer ", p[base + 2]);
    e.vertex_buffer_index = uint8_t(p[base + 2]);
    e.src_format = format_from_wire(p[base + 3], "vertex element format");
  }
  Result<VertexElementsHandle> h = ctx().create_vertex_elements_state(elements);
  report(h.status());
  insert_object(p[1], ObjType::VERTEX_ELEMENTS, h ? ObjectValue(h.value()) : ObjectValue());
}

void Decoder::create_sampler_view(const Payload& p) {
  p.expect_len(6);
  const VtestResource& res = resources_.get(p[2], "sampler view resource");
  const ResourceDesc& d = res.desc;
  SamplerViewTemplate t;
  t.format = format_from_wire(bits(p[3], 0, 24), "sampler view format");
  // The view target is on the wire only with VIRGL_CAP_TEXTURE_VIEW; 0 = the resource's.
  const uint32_t wire_target = bits(p[3], 24, 8);
  t.target = wire_target ? target_from_wire(wire_target) : d.target;
  if ((t.target == TextureTarget::BUFFER) != (d.target == TextureTarget::BUFFER))
    protocol_error("view target ", target_name_for_errors(t.target), " on a ",
                   target_name_for_errors(d.target), " resource");
  if (d.target == TextureTarget::BUFFER) {
    const auto [offset, size] =
        buffer_range(d, p[4], p[5], format_desc(t.format).block_bytes, "sampler view");
    t.buf_offset = offset;
    t.buf_size = size;
  } else {
    t.first_layer = uint16_t(bits(p[4], 0, 16));
    t.last_layer = uint16_t(bits(p[4], 16, 16));
    t.first_level = uint8_t(bits(p[5], 0, 8));
    t.last_level = uint8_t(bits(p[5], 8, 8));
    if (t.first_level > t.last_level || t.last_level > d.last_level)
      protocol_error("sampler view levels ", t.first_level, "..", t.last_level,
                     " (resource has 0..", d.last_level, ")");
    const uint32_t slices = level_extent(d, 0).slices;
    if (t.first_layer > t.last_layer || t.last_layer >= slices)
      protocol_error("sampler view layers ", t.first_layer, "..", t.last_layer, " (resource has ",
                     slices, ")");
  }
  t.swizzle_r = swizzle(bits(p[6], 0, 3));
  t.swizzle_g = swizzle(bits(p[6], 3, 3));
  t.swizzle_b = swizzle(bits(p[6], 6, 3));
  t.swizzle_a = swizzle(bits(p[6], 9, 3));
  Result<SamplerViewHandle> h = ctx().create_sampler_view(res.host, t);
  report(h.status());
  insert_object(p[1], ObjType::SAMPLER_VIEW, h ? ObjectValue(h.value()) : ObjectValue());
}

void Decoder::create_sampler_state(const Payload& p) {
  p.expect_len(9);
  SamplerState s;
  const uint32_t s0 = p[2];
  s.wrap_s = TexWrap(bits(s0, 0, 3));  // 3 bits: every value is a wrap mode
  s.wrap_t = TexWrap(bits(s0, 3, 3));
  s.wrap_r = TexWrap(bits(s0, 6, 3));
  const uint32_t min_img = bits(s0, 9, 2), min_mip = bits(s0, 11, 2), mag = bits(s0, 13, 2);
  if (min_img > 1 || mag > 1 || min_mip > 2)
    protocol_error("invalid filters min ", min_img, " mip ", min_mip, " mag ", mag);
  s.min_img_filter = TexFilter(min_img);
  s.min_mip_filter = TexMipFilter(min_mip);
  s.mag_img_filter = TexFilter(mag);
  s.compare_mode = TexCompare(bits(s0, 15, 1));
  s.compare_func = CompareFunc(bits(s0, 16, 3));
  s.seamless_cube_map = bits(s0, 19, 1);
  s.max_anisotropy = uint8_t(bits(s0, 20, 6));
  s.lod_bias = p.f(3);
  s.min_lod = p.f(4);
  s.max_lod = p.f(5);
  // Raw words, integers or floats by the texture they are used with (Mesa's virgl writes
  // the union pipe_sampler_state carries and no border_color_is_integer).
  s.border_color_in_view_format = true;
  for (uint32_t i = 0; i < 4; ++i)
    s.border_color.ui[i] = p[6 + i];
  Result<SamplerHandle> h = ctx().create_sampler_state(s);
  report(h.status());
  insert_object(p[1], ObjType::SAMPLER_STATE, h ? ObjectValue(h.value()) : ObjectValue());
}

void Decoder::create_surface(const Payload& p, bool msaa) {
  p.expect_len(msaa ? 6 : 5);
  const VtestResource& res = resources_.get(p[2], "surface resource");
  const ResourceDesc& d = res.desc;
  SurfaceTemplate t;
  t.format = format_from_wire(p[3], "surface format");
  if (d.target == TextureTarget::BUFFER) {
    const uint32_t block = format_desc(t.format).block_bytes;
    buffer_range(d, p[4], p[5], block, "buffer surface");
    t.first_element = p[4];
    t.last_element = p[5];
  } else {
    if (p[4] > d.last_level) protocol_error("surface level ", p[4], " > ", d.last_level);
    t.level = uint8_t(p[4]);
    t.first_layer = uint16_t(bits(p[5], 0, 16));
    t.last_layer = uint16_t(bits(p[5], 16, 16));
    const uint32_t slices = level_extent(d, t.level).slices;
    if (t.first_layer > t.last_layer || t.last_layer >= slices)
      protocol_error("surface layers ", t.first_layer, "..", t.last_layer, " (level has ", slices,
                     ")");
  }
  if (msaa) {
    if (p[6] > kMaxSamples) protocol_error("surface sample count ", p[6]);
    t.nr_samples = uint8_t(p[6]);
  }
  Result<SurfaceHandle> h = ctx().create_surface(res.host, t);
  report(h.status());
  insert_object(p[1], msaa ? ObjType::MSAA_SURFACE : ObjType::SURFACE,
                h ? ObjectValue(h.value()) : ObjectValue());
}

void Decoder::create_query(const Payload& p) {
  p.expect_len(4);
  QueryObject q;
  q.virgl_type = bits(p[2], 0, 16);
  const QueryType type = query_type_from_wire(q.virgl_type);
  const uint32_t index = bits(p[2], 16, 16);
  q.offset = p[3];
  q.buffer = resources_.get_ref(p[4], "query buffer");
  const ResourceDesc& d = q.buffer->desc;
  if (d.target != TextureTarget::BUFFER || uint64_t(q.offset) + kQueryStateBytes > d.width)
    protocol_error("query result at byte ", q.offset, " does not fit resource ", p[4]);
  Result<QueryHandle> h = ctx().create_query(type, index);
  report(h.status());
  if (h) q.query = h.value();
  insert_object(p[1], ObjType::QUERY, h ? ObjectValue(q) : ObjectValue());
}

void Decoder::create_so_target(const Payload& p) {
  p.expect_len(4);
  const VtestResource& res = resources_.get(p[2], "stream-output buffer");
  if (res.desc.target != TextureTarget::BUFFER || uint64_t(p[3]) + p[4] > uint64_t(res.desc.width))
    protocol_error("stream-output range ", p[3], "+", p[4], " outside resource ", p[2]);
  Result<StreamOutputTargetHandle> h = ctx().create_stream_output_target(res.host, p[3], p[4]);
  report(h.status());
  insert_object(p[1], ObjType::STREAMOUT_TARGET, h ? ObjectValue(h.value()) : ObjectValue());
}

void Decoder::cmd_bind_object(const Payload& p, uint32_t obj_type) {
  p.expect_len(1);
  const uint32_t h = p[1];
  switch (obj_type) {
    case ObjType::BLEND:
      return ctx().bind_blend_state(object_as<BlendHandle>(h, obj_type, "bind"));
    case ObjType::RASTERIZER:
      return ctx().bind_rasterizer_state(object_as<RasterizerHandle>(h, obj_type, "bind"));
    case ObjType::DSA:
      return ctx().bind_depth_stencil_alpha_state(
          object_as<DepthStencilAlphaHandle>(h, obj_type, "bind"));
    case ObjType::VERTEX_ELEMENTS:
      return ctx().bind_vertex_elements_state(object_as<VertexElementsHandle>(h, obj_type, "bind"));
  }
  protocol_error("objects of type ", obj_type_name(obj_type), " cannot be bound this way");
}

void Decoder::cmd_destroy_object(const Payload& p, uint32_t obj_type) {
  p.expect_len(1);
  SubContext& s = sub();
  const uint32_t h = p[1];
  if (obj_type == ObjType::SHADER) {
    auto partial = s.partial_shaders.find(h);
    if (partial != s.partial_shaders.end()) {
      pending_shader_bytes_ -= partial->second.text.size();
      s.partial_shaders.erase(partial);
      if (!s.objects.count(h)) return;
    }
  }
  object(h, obj_type, "destroy");  // checks existence and type
  s.objects.erase(h);
}

}  // namespace clpipe::frontend::vtest
