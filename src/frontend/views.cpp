// Sampler views, surfaces and stream-output targets: validation against the resource
// (format compatibility, target, level and layer ranges, swizzles) and creation.
#include "frontend/views.h"

#include <algorithm>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/format_support.h"
#include "frontend/layout.h"
#include "frontend/limits.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

template <typename Impl, typename Handle>
const Impl& impl_of(const Handle& h, uint64_t screen_id, const char* what, const char* kind) {
  auto* impl = dynamic_cast<const Impl*>(h.get());
  if (impl == nullptr || impl->screen_id() != screen_id) {
    runtime::invalid(what, ": the ", kind, " is null or was not created on this screen");
  }
  return *impl;
}

void check_swizzle(Swizzle s, const char* field) {
  if (unsigned(s) > unsigned(Swizzle::ONE))
    runtime::invalid(field, ": invalid swizzle ", unsigned(s));
}

// Layer count rules of a view target.
void check_view_layers(TextureTarget target, unsigned first, unsigned last, const char* what) {
  const unsigned n = last - first + 1;
  switch (target) {
    case TextureTarget::TEXTURE_1D:
    case TextureTarget::TEXTURE_2D:
    case TextureTarget::TEXTURE_RECT:
    case TextureTarget::TEXTURE_3D:
      if (n != 1)
        runtime::invalid(what, ": a ", target_name(target), " view has one layer, not ", n);
      break;
    case TextureTarget::TEXTURE_CUBE:
      if (n != 6) runtime::invalid(what, ": a cube view has 6 layers, not ", n);
      break;
    case TextureTarget::TEXTURE_CUBE_ARRAY:
      if (n % 6 != 0)
        runtime::invalid(what, ": a cube-array view needs a multiple of 6 layers, not ", n);
      break;
    default:
      break;
  }
}

}  // namespace

const SurfaceImpl& surface_of(const SurfaceHandle& s, uint64_t screen_id, const char* what) {
  return impl_of<SurfaceImpl>(s, screen_id, what, "surface");
}
const SamplerViewImpl& sampler_view_of(const SamplerViewHandle& v, uint64_t screen_id,
                                       const char* what) {
  return impl_of<SamplerViewImpl>(v, screen_id, what, "sampler view");
}
const StreamOutputTargetImpl& so_target_of(const StreamOutputTargetHandle& t, uint64_t screen_id,
                                           const char* what) {
  return impl_of<StreamOutputTargetImpl>(t, screen_id, what, "stream-output target");
}

Result<SamplerViewHandle> ContextImpl::create_sampler_view(const ResourceRef& res,
                                                           const SamplerViewTemplate& t) {
  return guard_result<SamplerViewHandle>("create_sampler_view", [&] {
    const ResourceImpl& r = resource(res, "create_sampler_view");
    if (!format_is_valid(t.format)) runtime::invalid("invalid view format ", unsigned(t.format));
    if (unsigned(t.target) >= kTextureTargets)
      runtime::invalid("invalid view target ", unsigned(t.target));
    check_swizzle(t.swizzle_r, "swizzle_r");
    check_swizzle(t.swizzle_g, "swizzle_g");
    check_swizzle(t.swizzle_b, "swizzle_b");
    check_swizzle(t.swizzle_a, "swizzle_a");
    const TextureTarget rt = r.info().target;
    if (!view_target_compatible(rt, t.target)) {
      runtime::invalid("a ", target_name(t.target), " view of a ", target_name(rt),
                       " resource is not allowed");
    }
    if (!format_supported(t.format, t.target, r.info().nr_samples, r.info().nr_samples,
                          Bind::SAMPLER_VIEW)) {
      runtime::unsupported(format_name(t.format), " cannot be sampled as ", target_name(t.target));
    }
    if (r.is_buffer()) {
      if (t.buf_offset % kTextureBufferOffsetAlignment != 0) {
        runtime::invalid("buf_offset ", t.buf_offset, " is not a multiple of ",
                         kTextureBufferOffsetAlignment);
      }
      if (t.buf_size == 0 || uint64_t(t.buf_offset) + t.buf_size > r.size_bytes()) {
        runtime::invalid("bytes ", t.buf_offset, "+", t.buf_size,
                         " are empty or exceed the buffer (", r.size_bytes(), " bytes)");
      }
    } else {
      check_viewable_size(r.size_bytes(), "create_sampler_view");
      if (!view_format_compatible(r.info().format, t.format)) {
        runtime::invalid("view format ", format_name(t.format), " is incompatible with ",
                         format_name(r.info().format));
      }
      if (t.first_level > t.last_level || t.last_level >= r.layout().num_levels()) {
        runtime::invalid("levels ", unsigned(t.first_level), "..", unsigned(t.last_level),
                         " exceed the resource's ", r.layout().num_levels());
      }
      // Layers index array_size (1 for 3D textures, whose slices a view always spans).
      if (t.first_layer > t.last_layer || t.last_layer >= r.info().array_size) {
        runtime::invalid("layers ", t.first_layer, "..", t.last_layer, " exceed the resource's ",
                         r.info().array_size);
      }
      check_view_layers(t.target, t.first_layer, t.last_layer, "create_sampler_view");
      if ((t.target == TextureTarget::TEXTURE_CUBE ||
           t.target == TextureTarget::TEXTURE_CUBE_ARRAY) &&
          r.info().width0 != r.info().height0) {
        runtime::invalid("a cube view needs square layers");
      }
    }
    return SamplerViewHandle(std::make_shared<SamplerViewImpl>(res, t, screen_->id()));
  });
}

Result<SurfaceHandle> ContextImpl::create_surface(const ResourceRef& res,
                                                  const SurfaceTemplate& t) {
  return guard_result<SurfaceHandle>("create_surface", [&] {
    const ResourceImpl& r = resource(res, "create_surface");
    if (!format_is_valid(t.format)) runtime::invalid("invalid surface format ", unsigned(t.format));
    // A surface has its resource's samples (no implicit multisampling of a single-sampled
    // texture, EXT_multisampled_render_to_texture).
    if (t.nr_samples > 1 && t.nr_samples != r.info().nr_samples) {
      runtime::unsupported("a surface of ", unsigned(t.nr_samples), " samples on a resource of ",
                           std::max<unsigned>(1, r.info().nr_samples), " samples");
    }
    if (r.is_buffer()) runtime::unsupported("surfaces of buffers are not supported");
    if (!view_format_compatible(r.info().format, t.format)) {
      runtime::invalid("surface format ", format_name(t.format), " is incompatible with ",
                       format_name(r.info().format));
    }
    const uint32_t bind =
        format_is_depth_or_stencil(t.format) ? Bind::DEPTH_STENCIL : Bind::RENDER_TARGET;
    if (!format_supported(t.format, r.info().target, r.info().nr_samples, r.info().nr_samples,
                          bind)) {
      runtime::unsupported(format_name(t.format), " on ", target_name(r.info().target),
                           " cannot be rendered to");
    }
    if (t.level >= r.layout().num_levels()) {
      runtime::invalid("level ", unsigned(t.level), " does not exist (", r.layout().num_levels(),
                       " levels)");
    }
    const LevelLayout& lv = r.layout().level(t.level);
    // Layers of 3D textures are the slices of the level (gallium.md §7.3).
    if (t.first_layer > t.last_layer || t.last_layer >= lv.layers) {
      runtime::invalid("layers ", t.first_layer, "..", t.last_layer, " exceed level ",
                       unsigned(t.level), "'s ", lv.layers);
    }
    return SurfaceHandle(std::make_shared<SurfaceImpl>(res, t, lv.width, lv.height, screen_->id()));
  });
}

Result<StreamOutputTargetHandle> ContextImpl::create_stream_output_target(const ResourceRef& res,
                                                                          uint32_t buffer_offset,
                                                                          uint32_t buffer_size) {
  return guard_result<StreamOutputTargetHandle>("create_stream_output_target", [&] {
    const ResourceImpl& r = resource(res, "create_stream_output_target");
    if (!r.is_buffer()) runtime::invalid("the resource is not a BUFFER");
    if (buffer_offset % kStreamOutputOffsetAlignment != 0) {
      runtime::invalid("buffer_offset ", buffer_offset, " is not a multiple of ",
                       kStreamOutputOffsetAlignment);
    }
    if (uint64_t(buffer_offset) + buffer_size > r.size_bytes()) {
      runtime::invalid("bytes ", buffer_offset, "+", buffer_size, " exceed the buffer (",
                       r.size_bytes(), " bytes)");
    }
    return StreamOutputTargetHandle(
        std::make_shared<StreamOutputTargetImpl>(res, buffer_offset, buffer_size, screen_->id()));
  });
}

}  // namespace clpipe::frontend
