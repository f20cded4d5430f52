// SET_* commands: parameter state and bindings (viewports, framebuffer, vertex, index,
// constant and uniform buffers, sampler views and states, stream output, shader buffers
// and images). Slot ranges are checked against the API limits of defines.h, resources
// against their size, objects against their type.
#include "vtest/decoder.h"
#include "vtest/formats.h"
#include "vtest/layout.h"
#include "vtest/log.h"
#include "vtest/protocol.h"

namespace clpipe::frontend::vtest {
namespace {

void check_slots(uint64_t start, uint64_t count, uint32_t limit, const char* what) {
  if (start + count > limit)
    protocol_error(what, " slots ", start, "..", start + count, " exceed the limit of ", limit);
}

const VtestResource& buffer_resource(const ResourceTable& t, uint32_t handle, uint64_t offset,
                                     uint64_t size, const char* what) {
  const VtestResource& r = t.get(handle, what);
  if (r.desc.target != TextureTarget::BUFFER)
    protocol_error(what, ": resource ", handle, " is not a buffer");
  if (offset + size > r.desc.width)
    protocol_error(what, ": range ", offset, "+", size, " exceeds buffer ", handle, " of ",
                   r.desc.width, " bytes");
  return r;
}

}  // namespace

void Decoder::cmd_set_viewport(const Payload& p, uint32_t) {
  p.expect_len_at_least(1);
  if ((p.len() - 1) % 6 != 0) protocol_error("length ", p.len(), " is not 1 + 6 x viewports");
  const uint32_t start = p[1], n = (p.len() - 1) / 6;
  check_slots(start, n, kMaxViewports, "viewport");
  std::vector<ViewportState> v(n);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t c = 0; c < 3; ++c) {
      v[i].scale[c] = p.f(2 + 6 * i + c);
      v[i].translate[c] = p.f(5 + 6 * i + c);
    }
  report(ctx().set_viewport_states(start, v));
}

void Decoder::cmd_set_framebuffer(const Payload& p, uint32_t) {
  p.expect_len_at_least(2);
  const uint32_t nr = p[1];
  if (nr > kMaxColorBufs) protocol_error(nr, " colour buffers (limit ", kMaxColorBufs, ")");
  p.expect_len(nr + 2);
  SubContext& s = sub();
  auto surface = [&](uint32_t h) -> SurfaceHandle {
    if (h == 0) return nullptr;
    auto it = s.objects.find(h);
    if (it == s.objects.end()) protocol_error("unknown surface ", h);
    if (it->second.type != ObjType::SURFACE && it->second.type != ObjType::MSAA_SURFACE)
      protocol_error("object ", h, " is a ", obj_type_name(it->second.type), ", not a surface");
    const SurfaceHandle* sh = std::get_if<SurfaceHandle>(&it->second.value);
    return sh ? *sh : nullptr;
  };
  FramebufferState fb;
  fb.nr_cbufs = uint8_t(nr);
  fb.zsbuf = surface(p[2]);
  for (uint32_t i = 0; i < nr; ++i)
    fb.cbufs[i] = surface(p[3 + i]);
  s.framebuffer = fb;
  apply_framebuffer();
}

void Decoder::cmd_set_framebuffer_no_attach(const Payload& p, uint32_t) {
  p.expect_len(2);
  SubContext& s = sub();
  s.no_attach_width = uint16_t(bits(p[1], 0, 16));
  s.no_attach_height = uint16_t(bits(p[1], 16, 16));
  s.framebuffer.layers = uint16_t(bits(p[2], 0, 16));
  const uint32_t samples = bits(p[2], 16, 16);
  if (samples > kMaxSamples) protocol_error("framebuffer sample count ", samples);
  s.framebuffer.samples = uint8_t(samples);
  apply_framebuffer();
}

// The framebuffer size is implied by the attachments (the smallest of them); without
// attachments it is what SET_FRAMEBUFFER_STATE_NO_ATTACH said.
void Decoder::apply_framebuffer() {
  SubContext& s = sub();
  FramebufferState& fb = s.framebuffer;
  uint32_t w = UINT32_MAX, h = UINT32_MAX;
  auto take = [&](const SurfaceHandle& surf) {
    if (!surf) return;
    w = std::min(w, surf->width());
    h = std::min(h, surf->height());
  };
  take(fb.zsbuf);
  for (uint32_t i = 0; i < fb.nr_cbufs; ++i)
    take(fb.cbufs[i]);
  const bool attached = w != UINT32_MAX;
  fb.width = uint16_t(attached ? std::min<uint32_t>(w, 0xffff) : s.no_attach_width);
  fb.height = uint16_t(attached ? std::min<uint32_t>(h, 0xffff) : s.no_attach_height);
  report(s.ctx->set_framebuffer_state(fb));
}

void Decoder::cmd_set_vertex_buffers(const Payload& p, uint32_t) {
  if (p.len() % 3 != 0) protocol_error("length ", p.len(), " is not 3 x buffers");
  const uint32_t n = p.len() / 3;
  check_slots(0, n, kMaxVertexBuffers, "vertex buffer");
  std::vector<VertexBuffer> vb(n);
  for (uint32_t i = 0; i < n; ++i) {
    vb[i].stride = p[1 + 3 * i];
    vb[i].buffer_offset = p[2 + 3 * i];
    const uint32_t res = p[3 + 3 * i];
    if (res) vb[i].buffer = buffer_resource(resources_, res, 0, 0, "vertex buffer").host;
  }
  SubContext& s = sub();
  const uint32_t trailing = s.vertex_buffer_count > n ? s.vertex_buffer_count - n : 0;
  s.vertex_buffer_count = n;
  report(s.ctx->set_vertex_buffers(0, vb, trailing));
}

void Decoder::cmd_set_sampler_views(const Payload& p, uint32_t) {
  p.expect_len_at_least(2);
  const ShaderType stage = shader_type_from_wire(p[1]);
  const uint32_t start = p[2], n = p.len() - 2;
  check_slots(start, n, kMaxSamplerViews, "sampler view");
  std::vector<SamplerViewHandle> views(n);
  for (uint32_t i = 0; i < n; ++i)
    views[i] = object_as<SamplerViewHandle>(p[3 + i], ObjType::SAMPLER_VIEW, "sampler view");
  report(ctx().set_sampler_views(stage, start, views, 0));
}

void Decoder::cmd_set_index_buffer(const Payload& p, uint32_t) {
  if (p.len() != 1 && p.len() != 3) protocol_error("bad length ", p.len(), " (expected 1 or 3)");
  SubContext& s = sub();
  if (p.len() == 1 || p[1] == 0) {
    s.index_buffer.reset();
    s.index_size = 0;
    s.index_offset = 0;
    return;
  }
  if (p[2] != 1 && p[2] != 2 && p[2] != 4) protocol_error("index size ", p[2]);
  buffer_resource(resources_, p[1], p[3], 0, "index buffer");
  s.index_buffer = resources_.get_ref(p[1], "index buffer");
  s.index_size = p[2];
  s.index_offset = p[3];
}

void Decoder::cmd_set_constant_buffer(const Payload& p, uint32_t) {
  p.expect_len_at_least(2);
  const ShaderType stage = shader_type_from_wire(p[1]);
  const uint32_t index = p[2], n = p.len() - 2;
  check_slots(index, 1, kMaxConstantBuffers, "constant buffer");
  if (n == 0) return report(ctx().set_constant_buffer(stage, index, nullptr));
  ConstantBuffer cb;
  cb.user_buffer = p.span(3, n);
  cb.buffer_size = n * 4;
  report(ctx().set_constant_buffer(stage, index, &cb));
}

void Decoder::cmd_set_uniform_buffer(const Payload& p, uint32_t) {
  p.expect_len(5);
  const ShaderType stage = shader_type_from_wire(p[1]);
  const uint32_t index = p[2];
  check_slots(index, 1, kMaxConstantBuffers, "uniform buffer");
  if (p[5] == 0) return report(ctx().set_constant_buffer(stage, index, nullptr));
  ConstantBuffer cb;
  cb.buffer = buffer_resource(resources_, p[5], p[3], p[4], "uniform buffer").host;
  cb.buffer_offset = p[3];
  cb.buffer_size = p[4];
  report(ctx().set_constant_buffer(stage, index, &cb));
}

void Decoder::cmd_set_stencil_ref(const Payload& p, uint32_t) {
  p.expect_len(1);
  StencilRef r;
  r.ref_value[0] = uint8_t(bits(p[1], 0, 8));
  r.ref_value[1] = uint8_t(bits(p[1], 8, 8));
  ctx().set_stencil_ref(r);
}

void Decoder::cmd_set_blend_color(const Payload& p, uint32_t) {
  p.expect_len(4);
  BlendColor c;
  for (uint32_t i = 0; i < 4; ++i)
    c.color[i] = p.f(1 + i);
  ctx().set_blend_color(c);
}

void Decoder::cmd_set_scissor(const Payload& p, uint32_t) {
  p.expect_len_at_least(1);
  if ((p.len() - 1) % 2 != 0) protocol_error("length ", p.len(), " is not 1 + 2 x scissors");
  const uint32_t start = p[1], n = (p.len() - 1) / 2;
  check_slots(start, n, kMaxViewports, "scissor");
  std::vector<ScissorState> sc(n);
  for (uint32_t i = 0; i < n; ++i) {
    sc[i].minx = uint16_t(bits(p[2 + 2 * i], 0, 16));
    sc[i].miny = uint16_t(bits(p[2 + 2 * i], 16, 16));
    sc[i].maxx = uint16_t(bits(p[3 + 2 * i], 0, 16));
    sc[i].maxy = uint16_t(bits(p[3 + 2 * i], 16, 16));
  }
  report(ctx().set_scissor_states(start, sc));
}

void Decoder::cmd_bind_sampler_states(const Payload& p, uint32_t) {
  p.expect_len_at_least(2);
  const ShaderType stage = shader_type_from_wire(p[1]);
  const uint32_t start = p[2], n = p.len() - 2;
  check_slots(start, n, kMaxSamplers, "sampler");
  std::vector<SamplerHandle> samplers(n);
  for (uint32_t i = 0; i < n; ++i)
    samplers[i] = object_as<SamplerHandle>(p[3 + i], ObjType::SAMPLER_STATE, "sampler state");
  report(ctx().bind_sampler_states(stage, start, samplers));
}

void Decoder::cmd_set_polygon_stipple(const Payload& p, uint32_t) {
  p.expect_len(32);
  PolyStipple s;
  for (uint32_t i = 0; i < 32; ++i)
    s.stipple[i] = p[1 + i];
  ctx().set_polygon_stipple(s);
}

void Decoder::cmd_set_clip_state(const Payload& p, uint32_t) {
  p.expect_len(32);
  ClipState c;
  for (uint32_t i = 0; i < kMaxClipPlanes; ++i)
    for (uint32_t j = 0; j < 4; ++j)
      c.ucp[i][j] = p.f(1 + 4 * i + j);
  ctx().set_clip_state(c);
}

void Decoder::cmd_set_sample_mask(const Payload& p, uint32_t) {
  p.expect_len(1);
  ctx().set_sample_mask(p[1]);
}

void Decoder::cmd_set_min_samples(const Payload& p, uint32_t) {
  p.expect_len(1);
  if (p[1] > kMaxSamples) protocol_error("min samples ", p[1]);
  ctx().set_min_samples(p[1]);
}

void Decoder::cmd_set_streamout_targets(const Payload& p, uint32_t) {
  p.expect_len_at_least(1);
  const uint32_t n = p.len() - 1;
  check_slots(0, n, kMaxSoBuffers, "stream-output target");
  std::vector<StreamOutputTargetHandle> targets(n);
  std::vector<uint32_t> offsets(n);
  for (uint32_t i = 0; i < n; ++i) {
    targets[i] = object_as<StreamOutputTargetHandle>(p[2 + i], ObjType::STREAMOUT_TARGET,
                                                     "stream-output target");
    offsets[i] = bits(p[1], i, 1) ? 0xffffffffu : 0u;  // append, or restart at 0
  }
  SubContext& s = sub();
  if (n > 0) s.so_targets = targets;
  report(s.ctx->set_stream_output_targets(targets, offsets));
}

void Decoder::cmd_set_tess_state(const Payload& p, uint32_t) {
  p.expect_len(6);
  const float outer[4] = {p.f(1), p.f(2), p.f(3), p.f(4)};
  const float inner[2] = {p.f(5), p.f(6)};
  ctx().set_tess_state(outer, inner);
}

void Decoder::cmd_set_shader_buffers(const Payload& p, uint32_t) {
  p.expect_len_at_least(2);
  if ((p.len() - 2) % 3 != 0) protocol_error("length ", p.len(), " is not 2 + 3 x buffers");
  const ShaderType stage = shader_type_from_wire(p[1]);
  const uint32_t start = p[2], n = (p.len() - 2) / 3;
  check_slots(start, n, kMaxShaderBuffers, "shader buffer");
  std::vector<ShaderBuffer> b(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t offset = p[3 + 3 * i], size = p[4 + 3 * i], res = p[5 + 3 * i];
    if (!res) continue;
    b[i].buffer = buffer_resource(resources_, res, offset, size, "shader buffer").host;
    b[i].buffer_offset = offset;
    b[i].buffer_size = size;
  }
  // virgl does not send which buffers the shader writes: treat all as writable.
  const uint32_t writable = n >= 32 ? ~0u : (1u << n) - 1;
  report(ctx().set_shader_buffers(stage, start, b, writable));
}

void Decoder::cmd_set_shader_images(const Payload& p, uint32_t) {
  p.expect_len_at_least(2);
  if ((p.len() - 2) % 5 != 0) protocol_error("length ", p.len(), " is not 2 + 5 x images");
  const ShaderType stage = shader_type_from_wire(p[1]);
  const uint32_t start = p[2], n = (p.len() - 2) / 5;
  check_slots(start, n, kMaxShaderImages, "shader image");
  std::vector<ImageView> views(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t base = 3 + 5 * i, res = p[base + 4];
    if (!res) continue;
    const VtestResource& r = resources_.get(res, "shader image");
    ImageView& v = views[i];
    v.resource = r.host;
    v.format = format_from_wire(p[base], "shader image format");
    if (p[base + 1] > ImageAccess::READ_WRITE) protocol_error("image access ", p[base + 1]);
    v.access = v.shader_access = uint16_t(p[base + 1]);
    if (r.desc.target == TextureTarget::BUFFER) {
      buffer_resource(resources_, res, p[base + 2], p[base + 3], "shader image");
      v.buf_offset = p[base + 2];
      v.buf_size = p[base + 3];
    } else {
      v.first_layer = uint16_t(bits(p[base + 2], 0, 16));
      v.last_layer = uint16_t(bits(p[base + 2], 16, 16));
      if (p[base + 3] > r.desc.last_level) protocol_error("image level ", p[base + 3]);
      v.level = uint8_t(p[base + 3]);
      const uint32_t slices = level_extent(r.desc, v.level).slices;
      if (v.first_layer > v.last_layer || v.last_layer >= slices)
        protocol_error("image layers ", v.first_layer, "..", v.last_layer);
    }
  }
  report(ctx().set_shader_images(stage, start, views, 0));
}

void Decoder::cmd_set_atomic_buffers(const Payload& p, uint32_t) {
  p.expect_len_at_least(1);
  if ((p.len() - 1) % 3 != 0) protocol_error("length ", p.len(), " is not 1 + 3 x buffers");
  const uint32_t start = p[1], n = (p.len() - 1) / 3;
  check_slots(start, n, kMaxShaderBuffers, "atomic buffer");
  bool any = false;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t res = p[4 + 3 * i];
    if (!res) continue;
    buffer_resource(resources_, res, p[2 + 3 * i], p[3 + 3 * i], "atomic buffer");
    any = true;
  }
  // Unbinding is a no-op: nothing can ever be bound, because the clpipe API has no
  // set_hw_atomic_buffers and the caps advertise no atomic counter buffers.
  if (any)
    report(Status(ErrorCode::kUnsupported,
                  "atomic counter buffers: the clpipe API has no set_hw_atomic_buffers"));
}

void Decoder::cmd_set_tweaks(const Payload& p, uint32_t) {
  // Driver workarounds for GLES hosts (doc 4.4); none applies to clpipe.
  p.expect_len(2);
  log_at(LogLevel::kDebug, label_, ": SET_TWEAKS ", p[1], " = ", p[2], " ignored");
}

}  // namespace clpipe::frontend::vtest
