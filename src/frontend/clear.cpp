// Clears: clear (bound surfaces), clear_render_target, clear_depth_stencil,
// clear_texture and clear_buffer. The clear value is packed on the host into one texel
// (format_codec.h) and the fill kernel replicates it; depth-only or stencil-only clears
// of a combined format write through a bit mask that keeps the other aspect. A clear of
// the bound framebuffer starts a scene instead where it can: the scene's first tile pass
// applies it as it loads its pixels (draw::SceneClear).
#include <algorithm>
#include <cstring>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/draw_setup.h"
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

bool ContextImpl::clear_in_scene(uint32_t buffers, const int32_t (&rect)[4],
                                 const ColorUnion& color, double depth, unsigned stencil) {
  // Draws under a render condition may be skipped on the device, the clear not: the
  // tile pass applies clears only in runs without a predicate (tile.cl).
  if (state_.render_cond_query) return false;
  const FramebufferState& fb = state_.framebuffer;
  draw::SceneClear c;
  std::copy(rect, rect + 4, c.rect);
  DrawResources used;
  std::vector<std::pair<SurfaceHandle, FillPattern>> fills;
  // The tile pass writes one layer of a target, and every pixel of the rectangle.
  auto fits = [&](const SurfaceHandle& h) {
    const SurfaceTemplate& t = h->info();
    return t.first_layer == t.last_layer && h->width() >= uint32_t(rect[2]) &&
           h->height() >= uint32_t(rect[3]) && !resource(h->resource(), "clear").is_buffer();
  };
  for (unsigned i = 0; i < fb.nr_cbufs; ++i) {
    if (!(buffers & (Clear::COLOR0 << i)) || !fb.cbufs[i]) continue;
    if (i >= CLP_MAX_RTS || !fits(fb.cbufs[i])) return false;
    const FillPattern p = colour_pattern(fb.cbufs[i]->info().format, color);
    std::memcpy(c.texels.color[i], p.bytes.data(), sizeof(c.texels.color[i]));  // phase 0
    c.cbufs[i] = color_target(fb.cbufs[i], screen_->id(), "clear", &used);
    c.mask |= 1u << i;
    fills.emplace_back(fb.cbufs[i], p);
  }
  FillPattern zs;
  if ((buffers & Clear::DEPTHSTENCIL) && fb.zsbuf &&
      depth_stencil_pattern(fb.zsbuf->info().format, buffers, depth, stencil, &zs)) {
    // Only a clear of every aspect stores a whole texel (X bits read as 0).
    const Format f = fb.zsbuf->info().format;
    if ((format_has_depth(f) && !(buffers & Clear::DEPTH)) ||
        (format_has_stencil(f) && !(buffers & Clear::STENCIL)) || !fits(fb.zsbuf)) {
      return false;
    }
    std::memcpy(c.texels.zs, zs.bytes.data(), sizeof(c.texels.zs));
    c.zsbuf = color_target(fb.zsbuf, screen_->id(), "clear", &used);
    c.mask |= 1u << CLP_CLEAR_ZS_BIT;
    fills.emplace_back(fb.zsbuf, zs);
  }
  if (!c.mask) return true;  // nothing to clear
  c.fill = [this, fills = std::move(fills), rect] {
    for (const auto& [surface, pattern] : fills) {
      fill_surface(*surface, unsigned(rect[0]), unsigned(rect[1]), unsigned(rect[2] - rect[0]),
                   unsigned(rect[3] - rect[1]), pattern);
    }
  };

  // A scene's clear comes before its draws; a second clear of the same rectangle joins
  // the first (its buffers replace those they share).
  if (!pipeline_) pipeline_ = std::make_unique<draw::DrawPipeline>(queue_, screen_->programs());
  const draw::SceneClear* before = pipeline_->scene_clear();
  if (pipeline_->has_draws() || (before && !std::equal(rect, rect + 4, before->rect))) {
    flush_scene();
    before = nullptr;
  }
  if (before) {
    for (uint32_t r = 0; r < CLP_MAX_RTS; ++r) {
      if (!((before->mask >> r) & 1u) || ((c.mask >> r) & 1u)) continue;
      std::copy(before->texels.color[r], before->texels.color[r] + 4, c.texels.color[r]);
      c.cbufs[r] = before->cbufs[r];
    }
    if (!((c.mask >> CLP_CLEAR_ZS_BIT) & 1u) && ((before->mask >> CLP_CLEAR_ZS_BIT) & 1u)) {
      std::copy(before->texels.zs, before->texels.zs + 2, c.texels.zs);
      c.zsbuf = before->zsbuf;
    }
    c.mask |= before->mask;
    c.fill = [first = before->fill, second = std::move(c.fill)] {
      first();
      second();
    };
  }
  pipeline_->set_clear(std::move(c));
  note_scene_use(used);
  return true;
}

Status ContextImpl::clear(uint32_t buffers, const ScissorState* scissor, const ColorUnion& color,
                          double depth, unsigned stencil) {
  return guard("clear", [&] {
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
    const int32_t rect[4] = {int32_t(x0), int32_t(y0), int32_t(x1), int32_t(y1)};
    if (clear_in_scene(buffers, rect, color, depth, stencil)) return;
    flush_scene();
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
