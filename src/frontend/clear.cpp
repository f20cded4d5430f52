// Clears: clear (bound surfaces), clear_render_target, clear_depth_stencil,
// clear_texture and clear_buffer. The clear value is packed on the host into one texel
// (format_codec.h) and the fill kernel replicates it; depth-only or stencil-only clears
// of a combined format write through a bit mask that keeps the other aspect.
#include <algorithm>
#include <cstring>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/format_codec.h"
#include "frontend/views.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

// Sets the bits of one channel in a block-sized byte mask.
void set_channel_bits(const FormatChannel& c, uint8_t* mask) {
  for (unsigned b = c.shift; b < unsigned(c.shift) + c.bits; ++b)
    mask[b / 8] |= uint8_t(1u << (b % 8));
}

// The clear value of a colour surface: pure integer formats take the integer view of the
// colour (ColorUnion::ui / ::i), all others the float view.
FillPattern colour_pattern(Format f, const ColorUnion& color) {
  uint8_t texel[16] = {};
  if (format_is_pure_uint(f)) {
    pack_rgba_uint(f, color.ui, texel);
  } else if (format_is_pure_sint(f)) {
    pack_rgba_sint(f, color.i, texel);
  } else {
    pack_rgba_float(f, color.f, texel);
  }
  return make_fill_pattern(texel, format_desc(f).block_bytes, nullptr);
}

// A depth and/or stencil clear; false when the format has none of the requested aspects.
bool depth_stencil_pattern(Format f, uint32_t flags, double depth, unsigned stencil,
                           FillPattern* out) {
  const FormatDesc& d = format_desc(f);
  uint8_t texel[16] = {};
  uint8_t mask[16] = {};
  if ((flags & Clear::DEPTH) && format_has_depth(f)) {
    pack_depth(f, depth, texel);
    set_channel_bits(d.channel[int(d.swizzle[0])], mask);
  }
  if ((flags & Clear::STENCIL) && format_has_stencil(f)) {
    pack_stencil(f, stencil, texel);
    set_channel_bits(d.channel[int(d.swizzle[1])], mask);
  }
  if (std::all_of(mask, mask + d.block_bytes, [](uint8_t b) { return b == 0; })) return false;
  *out = make_fill_pattern(texel, d.block_bytes, mask);
  return true;
}

void check_rect(const Surface& s, unsigned x, unsigned y, unsigned w, unsigned h) {
  if (uint64_t(x) + w > s.width() || uint64_t(y) + h > s.height()) {
    runtime::invalid("rectangle (", x, ",", y, ") ", w, "x", h, " exceeds the surface (", s.width(),
                     "x", s.height(), ")");
  }
}

}  // namespace

void ContextImpl::fill_surface(const Surface& surf, unsigned x, unsigned y, unsigned w, unsigned h,
                               const FillPattern& pattern) {
  if (w == 0 || h == 0) return;
  ResourceImpl& r = resource(surf.resource(), "clear");
  const SurfaceTemplate& t = surf.info();
  const Box box{int32_t(x), int32_t(y), int32_t(t.first_layer),
                int32_t(w), int32_t(h), int32_t(t.last_layer - t.first_layer + 1)};
  check_box(r.layout(), t.level, box, "clear");
  const cl::Event ev = ops_.fill(r.storage(), region_of(r.layout(), t.level, box), pattern);
  r.note_use(id_, ev, true);
}

Status ContextImpl::clear(uint32_t buffers, const ScissorState* scissor, const ColorUnion& color,
                          double depth, unsigned stencil) {
  return guard("clear", [&] {
    flush_scene();
    if (buffers & ~(Clear::COLOR | Clear::DEPTHSTENCIL)) {
      runtime::invalid("buffers 0x", std::hex, buffers, " has bits beyond PIPE_CLEAR_*");
    }
    const FramebufferState& fb = state_.framebuffer;
    // The framebuffer area, cut by the scissor; every layer of each surface.
    unsigned x0 = 0, y0 = 0, x1 = fb.width, y1 = fb.height;
    if (scissor) {
      if (scissor->minx > scissor->maxx || scissor->miny > scissor->maxy) {
        runtime::invalid("scissor min is beyond max");
      }
      x0 = std::max<unsigned>(x0, scissor->minx);
      y0 = std::max<unsigned>(y0, scissor->miny);
      x1 = std::min<unsigned>(x1, scissor->maxx);
      y1 = std::min<unsigned>(y1, scissor->maxy);
    }
    if (x0 >= x1 || y0 >= y1) return;
    if (!render_condition_allows()) return;  // Gallium's clear honours the render condition
    for (unsigned i = 0; i < fb.nr_cbufs; ++i) {
      if (!(buffers & (Clear::COLOR0 << i)) || !fb.cbufs[i]) continue;
      const Surface& s = *fb.cbufs[i];
      fill_surface(s, x0, y0, std::min(x1, s.width()) - x0, std::min(y1, s.height()) - y0,
                   colour_pattern(s.info().format, color));
    }
    FillPattern zs;
    if ((buffers & Clear::DEPTHSTENCIL) && fb.zsbuf &&
        depth_stencil_pattern(fb.zsbuf->info().format, buffers, depth, stencil, &zs)) {
      const Surface& s = *fb.zsbuf;
      fill_surface(s, x0, y0, std::min(x1, s.width()) - x0, std::min(y1, s.height()) - y0, zs);
    }
  });
}

Status ContextImpl::clear_render_target(const SurfaceHandle& dst, const ColorUnion& color,
                                        unsigned x, unsigned y, unsigned w, unsigned h,
                                        bool render_condition_enabled) {
  return guard("clear_render_target", [&] {
    flush_scene();
    const SurfaceImpl& s = surface_of(dst, screen_->id(), "clear_render_target");
    if (format_is_depth_or_stencil(s.info().format)) {
      runtime::invalid("the surface has the depth/stencil format ", format_name(s.info().format));
    }
    check_rect(s, x, y, w, h);
    if (render_condition_enabled && !render_condition_allows()) return;
    fill_surface(s, x, y, w, h, colour_pattern(s.info().format, color));
  });
}

Status ContextImpl::clear_depth_stencil(const SurfaceHandle& dst, uint32_t clear_flags,
                                        double depth, unsigned stencil, unsigned x, unsigned y,
                                        unsigned w, unsigned h, bool render_condition_enabled) {
  return guard("clear_depth_stencil", [&] {
    flush_scene();
    const SurfaceImpl& s = surface_of(dst, screen_->id(), "clear_depth_stencil");
    if (!format_is_depth_or_stencil(s.info().format)) {
      runtime::invalid("the surface has the colour format ", format_name(s.info().format));
    }
    if (clear_flags & ~Clear::DEPTHSTENCIL) {
      runtime::invalid("clear_flags 0x", std::hex, clear_flags, " has bits beyond DEPTH|STENCIL");
    }
    check_rect(s, x, y, w, h);
    if (render_condition_enabled && !render_condition_allows()) return;
    FillPattern p;
    if (depth_stencil_pattern(s.info().format, clear_flags, depth, stencil, &p)) {
      fill_surface(s, x, y, w, h, p);
    }
  });
}

Status ContextImpl::clear_texture(const ResourceRef& res, unsigned level, const Box& box,
                                  const void* data) {
  return guard("clear_texture", [&] {
    flush_scene();
    ResourceImpl& r = resource(res, "clear_texture");
    if (r.is_buffer()) runtime::invalid("the resource is a BUFFER: use clear_buffer");
    check_box(r.layout(), level, box, "clear_texture");
    // A null texel clears to zero bits, as GL's glClearTexImage with no data.
    const uint8_t zero[16] = {};
    const FillPattern p = make_fill_pattern(data ? data : zero, r.layout().block_bytes(), nullptr);
    const cl::Event ev = ops_.fill(r.storage(), region_of(r.layout(), level, box), p);
    r.note_use(id_, ev, true);
  });
}

Status ContextImpl::clear_buffer(const ResourceRef& res, uint32_t offset, uint32_t size,
                                 const void* value, unsigned value_size) {
  return guard("clear_buffer", [&] {
    flush_scene();
    ResourceImpl& r = resource(res, "clear_buffer");
    if (!r.is_buffer()) runtime::invalid("the resource is not a BUFFER");
    if (!value) runtime::invalid("null clear value");
    if (value_size != 1 && value_size != 2 && value_size != 4 && value_size != 8 &&
        value_size != 12 && value_size != 16) {
      runtime::invalid("value_size ", value_size, " is not 1, 2, 4, 8, 12 or 16");
    }
    if (offset % value_size != 0 || size % value_size != 0) {
      runtime::invalid("offset ", offset, " and size ", size, " must be multiples of value_size ",
                       value_size);
    }
    if (uint64_t(offset) + size > r.size_bytes()) {
      runtime::invalid("bytes ", offset, "+", size, " exceed the buffer (", r.size_bytes(),
                       " bytes)");
    }
    if (size == 0) return;
    ByteRegion region;
    region.begin = offset;
    region.end = uint64_t(offset) + size;
    const cl::Event ev =
        ops_.fill(r.storage(), region, make_fill_pattern(value, value_size, nullptr, offset));
    r.note_use(id_, ev, true);
  });
}

}  // namespace clpipe::frontend
