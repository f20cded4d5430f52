// Format × target × bind support and view compatibility (see format_support.h).
#include "frontend/format_support.h"

namespace clpipe::frontend {

namespace {

// Binds a BUFFER supports whatever its format (the format only matters for vertex fetch
// and texture-buffer views).
// CUSTOM marks driver-private buffers (virgl's query results and staging): plain memory.
constexpr uint32_t kBufferBinds = Bind::VERTEX_BUFFER | Bind::INDEX_BUFFER | Bind::CONSTANT_BUFFER |
                                  Bind::STREAM_OUTPUT | Bind::SHADER_BUFFER | Bind::QUERY_BUFFER |
                                  Bind::COMMAND_ARGS_BUFFER | Bind::CUSTOM | Bind::LINEAR;

bool same_channel(const FormatDesc& a, FormatSwizzle sa, const FormatDesc& b, FormatSwizzle sb) {
  if (sa == FormatSwizzle::NONE) return true;   // the view lacks this aspect
  if (sb == FormatSwizzle::NONE) return false;  // the view has an aspect the resource lacks
  const FormatChannel& ca = a.channel[int(sa)];
  const FormatChannel& cb = b.channel[int(sb)];
  return ca.type == cb.type && ca.bits == cb.bits && ca.shift == cb.shift;
}

}  // namespace

bool format_is_vertex_only(Format f) {
  const FormatDesc& d = format_desc(f);
  if (d.block_bytes > 16) return true;
  for (const FormatChannel& c : d.channel) {
    if (c.type == ChannelType::USCALED || c.type == ChannelType::SSCALED ||
        c.type == ChannelType::FIXED || c.bits == 64) {
      return true;
    }
  }
  return false;
}

uint32_t supported_binds(Format f, TextureTarget target) {
  if (!format_is_valid(f) || unsigned(target) >= kTextureTargets) return 0;
  const bool zs = format_is_depth_or_stencil(f);
  if (target == TextureTarget::BUFFER) {
    if (zs) return 0;
    // Texture-buffer views and buffer images read any colour format the codec decodes.
    return kBufferBinds |
           (format_is_vertex_only(f) ? 0u : uint32_t(Bind::SAMPLER_VIEW | Bind::SHADER_IMAGE));
  }
  if (format_is_vertex_only(f)) return 0;
  if (zs) {
    // GL has no 3D depth textures; depth/stencil surfaces are never colour targets.
    if (target == TextureTarget::TEXTURE_3D) return 0;
    return Bind::DEPTH_STENCIL | Bind::SAMPLER_VIEW | Bind::LINEAR;
  }
  // Shader images load and store texels through the same codec (shader_lib_image.h).
  uint32_t binds = Bind::RENDER_TARGET | Bind::SAMPLER_VIEW | Bind::SHADER_IMAGE | Bind::LINEAR;
  // A display target is an ordinary 2D image whose pixels the window system (the vtest
  // client) reads back with transfers; nothing is scanned out by clpipe itself.
  if (target == TextureTarget::TEXTURE_2D || target == TextureTarget::TEXTURE_RECT) {
    binds |= Bind::DISPLAY_TARGET | Bind::SCANOUT | Bind::SHARED;
  }
  // Pure integer targets are written as they are: never blended (gallium.md §2.2).
  if (!format_is_pure_integer(f)) binds |= Bind::BLENDABLE;
  return binds;
}

bool sample_count_supported(unsigned samples) {
  return samples <= 2 || samples == 4 || samples == 8;
}

bool format_supported(Format format, TextureTarget target, unsigned sample_count,
                      unsigned storage_sample_count, uint32_t bind) {
  uint32_t binds = supported_binds(format, target);
  if (sample_count > 1 || storage_sample_count > 1) {
    // Every sample is stored: no fewer storage samples than samples (no EQAA; 0 means
    // as many as samples).
    if (!sample_count_supported(sample_count) ||
        (storage_sample_count != 0 && storage_sample_count != sample_count) ||
        (target != TextureTarget::TEXTURE_2D && target != TextureTarget::TEXTURE_2D_ARRAY)) {
      return false;
    }
    binds &= Bind::RENDER_TARGET | Bind::DEPTH_STENCIL | Bind::BLENDABLE | Bind::SAMPLER_VIEW;
    if (!(binds & (Bind::RENDER_TARGET | Bind::DEPTH_STENCIL))) return false;
  }
  return binds != 0 && (bind & ~binds) == 0;
}

bool view_format_compatible(Format resource, Format view) {
  if (!format_is_valid(resource) || !format_is_valid(view)) return false;
  if (resource == view) return true;
  const FormatDesc& r = format_desc(resource);
  const FormatDesc& v = format_desc(view);
  if (r.block_bytes != v.block_bytes) return false;
  const bool rzs = r.colorspace == Colorspace::ZS;
  const bool vzs = v.colorspace == Colorspace::ZS;
  if (rzs != vzs) return false;
  if (!rzs) return true;
  return same_channel(v, v.swizzle[0], r, r.swizzle[0]) &&
         same_channel(v, v.swizzle[1], r, r.swizzle[1]);
}

bool view_target_compatible(TextureTarget resource, TextureTarget view) {
  using T = TextureTarget;
  switch (resource) {
    case T::BUFFER:
      return view == T::BUFFER;
    case T::TEXTURE_1D:
    case T::TEXTURE_1D_ARRAY:
      return view == T::TEXTURE_1D || view == T::TEXTURE_1D_ARRAY;
    case T::TEXTURE_2D:
      return view == T::TEXTURE_2D || view == T::TEXTURE_2D_ARRAY;
    case T::TEXTURE_RECT:
      return view == T::TEXTURE_RECT;
    case T::TEXTURE_3D:
      return view == T::TEXTURE_3D;
    case T::TEXTURE_2D_ARRAY:
    case T::TEXTURE_CUBE:
    case T::TEXTURE_CUBE_ARRAY:
      return view == T::TEXTURE_2D || view == T::TEXTURE_2D_ARRAY || view == T::TEXTURE_CUBE ||
             view == T::TEXTURE_CUBE_ARRAY;
  }
  return false;
}

}  // namespace clpipe::frontend
