// Parameter state set by value: blend colour, stencil ref, masks, clip planes, stipple,
// scissors, viewports, framebuffer, vertex / constant / shader buffers, images, sampler
// views, stream-output targets and tessellation defaults. Each call validates all of its
// input before it stores anything, so a failed call keeps the previous bindings.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/format_support.h"
#include "frontend/layout.h"
#include "frontend/limits.h"
#include "frontend/views.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

void check_stage(ShaderType shader) {
  if (unsigned(shader) >= kShaderTypes) runtime::invalid("invalid shader stage ", unsigned(shader));
}

void check_slots(uint64_t start, uint64_t count, uint64_t limit, const char* what) {
  if (start + count > limit) {
    runtime::invalid(what, " slots ", start, "..", start + count, " exceed the ", limit, " slots");
  }
}

// A byte range of a buffer resource; size 0 means "to the end" only where noted by the
// caller, so here it is checked as given.
void check_buffer_range(const ResourceImpl& r, uint64_t offset, uint64_t size, const char* what) {
  if (!r.is_buffer()) runtime::invalid(what, ": the resource is not a BUFFER");
  if (offset + size > r.size_bytes()) {
    runtime::invalid(what, ": bytes ", offset, "..", offset + size, " exceed the buffer (",
                     r.size_bytes(), " bytes)");
  }
}

}  // namespace

void ContextImpl::set_blend_color(const BlendColor& color) {
  state_.blend_color = color;
  state_.dirty |= kDirtyBlendColor;
}

void ContextImpl::set_stencil_ref(const StencilRef& ref) {
  state_.stencil_ref = ref;
  state_.dirty |= kDirtyStencilRef;
}

void ContextImpl::set_sample_mask(uint32_t mask) {
  state_.sample_mask = mask;
  state_.dirty |= kDirtySampleMask;
}

Status ContextImpl::get_sample_position(unsigned sample_count, unsigned index, float out[2]) const {
  return screen_->get_sample_position(sample_count, index, out);
}

void ContextImpl::set_min_samples(unsigned min_samples) {
  state_.min_samples = min_samples;
  state_.dirty |= kDirtyMinSamples;
}

void ContextImpl::set_clip_state(const ClipState& clip) {
  state_.clip = clip;
  state_.dirty |= kDirtyClip;
}

void ContextImpl::set_polygon_stipple(const PolyStipple& stipple) {
  state_.stipple = stipple;
  state_.dirty |= kDirtyStipple;
}

Status ContextImpl::set_scissor_states(unsigned start, const std::vector<ScissorState>& s) {
  return guard("set_scissor_states", [&] {
    check_slots(start, s.size(), kMaxViewports, "scissor");
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i].minx > s[i].maxx || s[i].miny > s[i].maxy) {
        runtime::invalid("scissor ", start + i, ": min (", s[i].minx, ",", s[i].miny,
                         ") is beyond max (", s[i].maxx, ",", s[i].maxy, ")");
      }
    }
    std::copy(s.begin(), s.end(), state_.scissors.begin() + start);
    state_.dirty |= kDirtyScissors;
  });
}

Status ContextImpl::set_viewport_states(unsigned start, const std::vector<ViewportState>& v) {
  return guard("set_viewport_states", [&] {
    check_slots(start, v.size(), kMaxViewports, "viewport");
    for (size_t i = 0; i < v.size(); ++i) {
      for (int c = 0; c < 3; ++c) {
        if (!std::isfinite(v[i].scale[c]) || !std::isfinite(v[i].translate[c])) {
          runtime::invalid("viewport ", start + i, ": scale and translate must be finite");
        }
      }
    }
    std::copy(v.begin(), v.end(), state_.viewports.begin() + start);
    state_.dirty |= kDirtyViewports;
  });
}

Status ContextImpl::set_framebuffer_state(const FramebufferState& fb) {
  return guard("set_framebuffer_state", [&] {
    // A scene renders into one framebuffer: another one starts another scene.
    const FramebufferState& cur = state_.framebuffer;
    if (fb.width != cur.width || fb.height != cur.height || fb.layers != cur.layers ||
        fb.samples != cur.samples || fb.nr_cbufs != cur.nr_cbufs || fb.zsbuf != cur.zsbuf ||
        fb.cbufs != cur.cbufs) {
      flush_scene();
    }
    if (fb.nr_cbufs > kMaxColorBufs) {
      runtime::invalid("nr_cbufs ", unsigned(fb.nr_cbufs), " exceeds ", kMaxColorBufs);
    }
    // Attachments bound the size below; a framebuffer without any is bounded by the
    // largest render target the caps promise (the draw passes size tile grids from it).
    const unsigned max_size = unsigned(screen_->get_param(Cap::MAX_TEXTURE_2D_SIZE));
    const unsigned max_layers = unsigned(screen_->get_param(Cap::MAX_TEXTURE_ARRAY_LAYERS));
    if (fb.width > max_size || fb.height > max_size || fb.layers > max_layers) {
      runtime::invalid("framebuffer ", fb.width, "x", fb.height, "x", unsigned(fb.layers),
                       " exceeds the maximum ", max_size, "x", max_size, "x", max_layers);
    }
    auto check_size = [&](const Surface& s, const char* what, unsigned i) {
      if (s.width() < fb.width || s.height() < fb.height) {
        runtime::invalid(what, i, " (", s.width(), "x", s.height(),
                         ") is smaller than the framebuffer (", fb.width, "x", fb.height, ")");
      }
    };
    for (unsigned i = 0; i < kMaxColorBufs; ++i) {
      if (!fb.cbufs[i]) continue;
      if (i >= fb.nr_cbufs)
        runtime::invalid("cbufs[", i, "] is set beyond nr_cbufs ", unsigned(fb.nr_cbufs));
      const SurfaceImpl& s = surface_of(fb.cbufs[i], screen_->id(), "cbufs");
      if (format_is_depth_or_stencil(s.info().format)) {
        runtime::invalid("cbufs[", i, "] has the depth/stencil format ",
                         format_name(s.info().format));
      }
      check_size(s, "cbufs", i);
    }
    if (fb.zsbuf) {
      const SurfaceImpl& s = surface_of(fb.zsbuf, screen_->id(), "zsbuf");
      if (!format_is_depth_or_stencil(s.info().format)) {
        runtime::invalid("zsbuf has the colour format ", format_name(s.info().format));
      }
      check_size(s, "zsbuf", 0);
    }
    // Every attachment has the same samples (GL's framebuffer completeness); `samples`
    // counts for a framebuffer without attachments.
    unsigned samples = 0;
    const char* first = nullptr;
    auto check_samples = [&](const SurfaceHandle& ref, const char* what) {
      const SurfaceImpl& s = surface_of(ref, screen_->id(), what);
      const unsigned n = std::max<unsigned>(1, resource(s.resource(), what).info().nr_samples);
      if (first && n != samples) {
        runtime::invalid(what, " has ", n, " samples but ", first, " has ", samples,
                         ": the attachments of a framebuffer have equal sample counts");
      }
      samples = n;
      first = what;
    };
    for (unsigned i = 0; i < kMaxColorBufs; ++i) {
      if (fb.cbufs[i]) check_samples(fb.cbufs[i], "a colour buffer");
    }
    if (fb.zsbuf) check_samples(fb.zsbuf, "zsbuf");
    if (first && fb.samples > 1 && fb.samples != samples) {
      runtime::invalid("samples ", unsigned(fb.samples), " differs from the attachments' ",
                       samples);
    }
    if (!first && !sample_count_supported(fb.samples)) {
      runtime::unsupported("a framebuffer without attachments of ", unsigned(fb.samples),
                           " samples (clpipe offers 2, 4 and 8)");
    }
    state_.framebuffer = fb;
    state_.dirty |= kDirtyFramebuffer;
  });
}

Status ContextImpl::set_vertex_buffers(unsigned start, const std::vector<VertexBuffer>& buffers,
                                       unsigned unbind_trailing) {
  return guard("set_vertex_buffers", [&] {
    check_slots(start, uint64_t(buffers.size()) + unbind_trailing, kMaxVertexBuffers,
                "vertex buffer");
    for (size_t i = 0; i < buffers.size(); ++i) {
      const VertexBuffer& vb = buffers[i];
      if (vb.user_buffer) {
        runtime::unsupported("vertex buffer ", start + i,
                             ": user memory is not supported (USER_VERTEX_BUFFERS = 0)");
      }
      if (vb.stride > kMaxVertexAttribStride) {
        runtime::invalid("vertex buffer ", start + i, ": stride ", vb.stride, " exceeds ",
                         kMaxVertexAttribStride);
      }
      if (vb.buffer) {
        check_buffer_range(resource(vb.buffer, "set_vertex_buffers"), vb.buffer_offset, 0,
                           "vertex buffer");
      }
    }
    std::copy(buffers.begin(), buffers.end(), state_.vertex_buffers.begin() + start);
    for (unsigned i = 0; i < unbind_trailing; ++i) {
      state_.vertex_buffers[start + buffers.size() + i] = VertexBuffer{};
    }
    state_.dirty |= kDirtyVertexBuffers;
  });
}

Status ContextImpl::set_constant_buffer(ShaderType shader, unsigned index,
                                        const ConstantBuffer* cb) {
  return guard("set_constant_buffer", [&] {
    check_stage(shader);
    check_slots(index, 1, kMaxConstantBuffers, "constant buffer");
    BoundConstantBuffer bound;
    if (cb) {
      if (cb->buffer && cb->user_buffer) runtime::invalid("both a buffer and user memory given");
      if (!cb->buffer && !cb->user_buffer)
        runtime::invalid("neither a buffer nor user memory given");
      bound.buffer_size = cb->buffer_size;
      if (cb->buffer) {
        if (cb->buffer_offset % kConstantBufferOffsetAlignment != 0) {
          runtime::invalid("buffer_offset ", cb->buffer_offset, " is not a multiple of ",
                           kConstantBufferOffsetAlignment);
        }
        check_buffer_range(resource(cb->buffer, "set_constant_buffer"), cb->buffer_offset,
                           cb->buffer_size, "constant buffer");
        bound.buffer = cb->buffer;
        bound.buffer_offset = cb->buffer_offset;
      } else {
        // User memory is read now (context.h): the caller may reuse it after the call.
        if (cb->buffer_offset != 0) runtime::invalid("buffer_offset must be 0 with user memory");
        const auto* p = static_cast<const uint8_t*>(cb->user_buffer);
        bound.user_data = std::make_shared<const std::vector<uint8_t>>(p, p + cb->buffer_size);
      }
    }
    state_.constant_buffers[unsigned(shader)][index] = std::move(bound);
    state_.dirty |= kDirtyConstantBuffers;
  });
}

Status ContextImpl::set_shader_buffers(ShaderType shader, unsigned start,
                                       const std::vector<ShaderBuffer>& buffers,
                                       uint32_t writable_bitmask) {
  return guard("set_shader_buffers", [&] {
    check_stage(shader);
    check_slots(start, buffers.size(), kMaxShaderBuffers, "shader buffer");
    if (buffers.size() < 32 && (writable_bitmask >> buffers.size()) != 0) {
      runtime::invalid("writable_bitmask 0x", std::hex, writable_bitmask,
                       " names slots beyond the ", std::dec, buffers.size(), " given");
    }
    for (const ShaderBuffer& b : buffers) {
      if (b.buffer) {
        check_buffer_range(resource(b.buffer, "set_shader_buffers"), b.buffer_offset, b.buffer_size,
                           "shader buffer");
      }
    }
    std::copy(buffers.begin(), buffers.end(),
              state_.shader_buffers[unsigned(shader)].begin() + start);
    if (!buffers.empty()) {
      // start + size <= 32 (checked above), so the shifts stay below 32.
      uint32_t& writable = state_.shader_buffers_writable[unsigned(shader)];
      const uint32_t range = buffers.size() == 32 ? ~0u : ((1u << buffers.size()) - 1) << start;
      writable = (writable & ~range) | (writable_bitmask << start);
    }
    state_.dirty |= kDirtyShaderBuffers;
  });
}

Status ContextImpl::set_shader_images(ShaderType shader, unsigned start,
                                      const std::vector<ImageView>& images,
                                      unsigned unbind_trailing) {
  return guard("set_shader_images", [&] {
    check_stage(shader);
    check_slots(start, uint64_t(images.size()) + unbind_trailing, kMaxShaderImages, "image");
    for (size_t i = 0; i < images.size(); ++i) {
      const ImageView& v = images[i];
      if (!v.resource) continue;
      const ResourceImpl& r = resource(v.resource, "set_shader_images");
      if (!view_format_compatible(r.info().format, v.format) && !r.is_buffer()) {
        runtime::invalid("image ", start + i, ": format ", format_name(v.format),
                         " cannot view a resource of ", format_name(r.info().format));
      }
      if (r.is_buffer() && !format_is_valid(v.format))
        runtime::invalid("image ", start + i, ": invalid format");
      if (r.info().nr_samples > 1) {
        runtime::unsupported("image ", start + i, ": images of multisampled textures");
      }
      if ((v.access | v.shader_access) & ~ImageAccess::READ_WRITE) {
        runtime::invalid("image ", start + i, ": invalid access bits");
      }
      if (r.is_buffer()) {
        check_buffer_range(r, v.buf_offset, v.buf_size, "image");
      } else {
        check_viewable_size(r.size_bytes(), "set_shader_images");
        if (v.level >= r.layout().num_levels())
          runtime::invalid("image ", start + i, ": level ", unsigned(v.level), " does not exist");
        if (v.first_layer > v.last_layer || v.last_layer >= r.layout().level(v.level).layers) {
          runtime::invalid("image ", start + i, ": layers ", v.first_layer, "..", v.last_layer,
                           " exceed the level's ", r.layout().level(v.level).layers);
        }
      }
    }
    auto& slots = state_.images[unsigned(shader)];
    std::copy(images.begin(), images.end(), slots.begin() + start);
    for (unsigned i = 0; i < unbind_trailing; ++i)
      slots[start + images.size() + i] = ImageView{};
    state_.dirty |= kDirtyImages;
  });
}

Status ContextImpl::set_sampler_views(ShaderType shader, unsigned start,
                                      const std::vector<SamplerViewHandle>& views,
                                      unsigned unbind_trailing) {
  return guard("set_sampler_views", [&] {
    check_stage(shader);
    check_slots(start, uint64_t(views.size()) + unbind_trailing, kMaxSamplerViews, "sampler view");
    for (const SamplerViewHandle& v : views) {
      if (v) sampler_view_of(v, screen_->id(), "set_sampler_views");
    }
    auto& slots = state_.sampler_views[unsigned(shader)];
    std::copy(views.begin(), views.end(), slots.begin() + start);
    for (unsigned i = 0; i < unbind_trailing; ++i)
      slots[start + views.size() + i].reset();
    state_.dirty |= kDirtySamplerViews;
  });
}

Status ContextImpl::set_stream_output_targets(const std::vector<StreamOutputTargetHandle>& targets,
                                              const std::vector<uint32_t>& offsets) {
  return guard("set_stream_output_targets", [&] {
    flush_scene();
    if (targets.size() > kMaxSoBuffers) {
      runtime::invalid(targets.size(), " targets exceed the maximum of ", kMaxSoBuffers);
    }
    if (offsets.size() != targets.size()) {
      runtime::invalid(offsets.size(), " offsets given for ", targets.size(), " targets");
    }
    for (size_t i = 0; i < targets.size(); ++i) {
      if (!targets[i]) continue;
      const StreamOutputTargetImpl& t =
          so_target_of(targets[i], screen_->id(), "set_stream_output_targets");
      if (offsets[i] != 0xffffffffu &&
          (offsets[i] % kStreamOutputOffsetAlignment != 0 || offsets[i] > t.buffer_size())) {
        runtime::invalid("offset ", offsets[i], " of target ", i, " is not a dword inside its ",
                         t.buffer_size(), " bytes");
      }
      // Two targets writing the same bytes would race: refused (GL forbids it too).
      for (size_t j = 0; j < i; ++j) {
        if (!targets[j]) continue;
        const StreamOutputTargetImpl& u =
            so_target_of(targets[j], screen_->id(), "set_stream_output_targets");
        if (targets[j] == targets[i] ||
            (u.buffer() == t.buffer() &&
             uint64_t(t.buffer_offset()) + t.buffer_size() > u.buffer_offset() &&
             uint64_t(u.buffer_offset()) + u.buffer_size() > t.buffer_offset())) {
          runtime::invalid("stream-output targets ", j, " and ", i, " overlap in one buffer");
        }
      }
    }
    // The filled sizes live on the device: an explicit offset is written in queue order
    // (after the draws before this call, before the ones after); (unsigned)-1 appends.
    for (size_t i = 0; i < targets.size(); ++i) {
      if (!targets[i]) continue;
      const StreamOutputTargetImpl& t =
          so_target_of(targets[i], screen_->id(), "set_stream_output_targets");
      if (!t.filled()()) {
        t.set_filled(queue_.create_buffer(sizeof(uint32_t)));
        queue_.fill_zero(t.filled(), 0, sizeof(uint32_t));
      }
      if (offsets[i] != 0xffffffffu) {
        queue_.copy(queue_.create_buffer_from(&offsets[i], sizeof(uint32_t)), 0, t.filled(), 0,
                    sizeof(uint32_t));
      }
    }
    state_.so_targets = targets;
    state_.so_offsets = offsets;
    state_.dirty |= kDirtyStreamOutput;
  });
}

void ContextImpl::set_tess_state(const float default_outer[4], const float default_inner[2]) {
  if (default_outer) std::memcpy(state_.tess_outer, default_outer, sizeof(state_.tess_outer));
  if (default_inner) std::memcpy(state_.tess_inner, default_inner, sizeof(state_.tess_inner));
  state_.dirty |= kDirtyTess;
}

void ContextImpl::set_patch_vertices(uint8_t patch_vertices) {
  state_.patch_vertices = patch_vertices;
  state_.dirty |= kDirtyTess;
}

}  // namespace clpipe::frontend
