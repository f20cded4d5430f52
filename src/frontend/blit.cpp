// Context::blit and the Blitter behind it (blit.h): validation of a BlitInfo against
// Gallium's rules (gallium.md §9, Mesa's pipe_blit_info), normalisation of the boxes and
// scissor, and the launch of one blit_texels command (src/kernels/blit.cl) or, for an
// unscaled copy of one format, one raw copy.
#include "frontend/blit.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/format_support.h"
#include "kernels/blit_shared.h"
#include "runtime/embedded_sources.h"
#include "runtime/error.h"

namespace clpipe::frontend {

static_assert(sizeof(ClpBlitParams) == 160, "ClpBlitParams must match src/kernels/blit_shared.h");
static_assert(offsetof(ClpBlitParams, src_row_pitch) == 32 &&
                  offsetof(ClpBlitParams, src_size) == 48 &&
                  offsetof(ClpBlitParams, src_origin) == 112 &&
                  offsetof(ClpBlitParams, mode) == 144,
              "ClpBlitParams must match src/kernels/blit_shared.h");

namespace {

// A half-open range of texels along one axis.
struct Span {
  int64_t begin = 0, end = 0;
  bool empty() const { return end <= begin; }
};

// The texels a box covers along one axis: [x, x + w), or [x + w, x) when w is negative
// (mirrored).
Span span_of(int32_t x, int32_t w) {
  const int64_t a = x, b = int64_t(x) + w;
  return {std::min(a, b), std::max(a, b)};
}

Span intersect(Span a, Span b) {
  return {std::max(a.begin, b.begin), std::min(a.end, b.end)};
}

bool overlaps(Span a, Span b) {
  return !intersect(a, b).empty();
}

// The format of one side is valid, a view of the resource's data, and usable in its
// role (sampled from, rendered to).
void check_side_format(const ResourceImpl& r, Format f, bool is_dst, const char* what) {
  if (!format_is_valid(f)) runtime::invalid(what, ": invalid format ", unsigned(f));
  if (!view_format_compatible(r.info().format, f)) {
    runtime::invalid(what, ": format ", format_name(f), " is incompatible with the resource's ",
                     format_name(r.info().format));
  }
  const uint32_t need = !is_dst                         ? uint32_t(Bind::SAMPLER_VIEW)
                        : format_is_depth_or_stencil(f) ? uint32_t(Bind::DEPTH_STENCIL)
                                                        : uint32_t(Bind::RENDER_TARGET);
  if ((supported_binds(f, r.info().target) & need) == 0) {
    runtime::unsupported(what, ": ", format_name(f), " on ", target_name(r.info().target),
                         is_dst ? " cannot be blitted to" : " cannot be blitted from");
  }
}

// The texels of a source level that a blit may read along one axis: the source span
// widened by the linear filter's one-texel reach, clamped to the level.
Span footprint(Span src, int64_t size) {
  return {std::clamp<int64_t>(src.begin - 1, 0, size), std::clamp<int64_t>(src.end + 1, 0, size)};
}

// Every texel of a level.
Box level_box_of(const LevelLayout& lv) {
  return Box{0, 0, 0, int32_t(lv.width), int32_t(lv.height), int32_t(lv.layers)};
}

// Work-items per group along x: a fixed small set (PoCL compiles a kernel once per
// local size): 16 for narrow launches such as small mip levels, 64, and 256 for wide
// rows (fewer, fuller groups schedule faster on PoCL).
size_t group_for(uint32_t width, size_t max_group) {
  size_t g = width <= 16 ? 16 : width <= 64 ? 64 : 256;
  while (g > max_group && g > 1)
    g /= 2;
  return g;
}

size_t max_group_size(const cl::Kernel& k, const cl::Device& device) {
  size_t max = 0;
  if (k.getWorkGroupInfo(device, CL_KERNEL_WORK_GROUP_SIZE, &max) != CL_SUCCESS || max == 0) {
    return 1;
  }
  return max;
}

}  // namespace

Blitter::Blitter(runtime::Queue& queue, runtime::ProgramCache& programs, DeviceOps& ops,
                 uint64_t context_id)
    : queue_(queue), programs_(programs), ops_(ops), context_id_(context_id) {}

void Blitter::blit(ResourceImpl& d, ResourceImpl& s, const BlitInfo& info) {
  // --- Validation: nothing is enqueued before all of it has passed. ------------------
  if (d.is_buffer() || s.is_buffer()) {
    runtime::invalid("blit works on textures; buffers are copied with resource_copy_region");
  }
  if (info.mask & ~uint32_t(Mask::RGBA | Mask::ZS)) {
    runtime::invalid("mask 0x", std::hex, info.mask, " has bits beyond PIPE_MASK_RGBA | ZS");
  }
  if (info.filter != TexFilter::NEAREST && info.filter != TexFilter::LINEAR) {
    runtime::invalid("invalid filter ", unsigned(info.filter));
  }
  const Format df = info.dst.format, sf = info.src.format;
  check_side_format(d, df, true, "dst");
  check_side_format(s, sf, false, "src");
  const unsigned dl = info.dst.level, sl = info.src.level;
  if (sl >= s.layout().num_levels()) {
    runtime::invalid("src: level ", sl, " does not exist (the resource has ",
                     s.layout().num_levels(), " levels)");
  }
  const LevelLayout& slv = s.layout().level(sl);

  // The destination box, normalised to positive sizes, lies inside its level.
  const Box& db = info.dst.box;
  const Span dx = span_of(db.x, db.width), dy = span_of(db.y, db.height),
             dz = span_of(db.z, db.depth);
  // (Checked here in 64 bits: a mirrored box may reach below INT32_MIN.)
  if (dl >= d.layout().num_levels()) {
    runtime::invalid("dst: level ", dl, " does not exist (the resource has ",
                     d.layout().num_levels(), " levels)");
  }
  const LevelLayout& dlv = d.layout().level(dl);
  if (db.width == 0 || db.height == 0 || db.depth == 0) {
    runtime::invalid("dst: empty box (", db.width, "x", db.height, "x", db.depth, ")");
  }
  if (dx.begin < 0 || dy.begin < 0 || dz.begin < 0 || dx.end > dlv.width || dy.end > dlv.height ||
      dz.end > dlv.layers) {
    runtime::invalid("dst: box (", db.x, ",", db.y, ",", db.z, ") ", db.width, "x", db.height, "x",
                     db.depth, " exceeds level ", dl, " (", dlv.width, "x", dlv.height, "x",
                     dlv.layers, ")");
  }

  // The source box is not empty and has at least one texel inside its level; the rest
  // of it reads clamped edge texels (blit.h).
  const Box& sb = info.src.box;
  if (sb.width == 0 || sb.height == 0 || sb.depth == 0) {
    runtime::invalid("src: empty box (", sb.width, "x", sb.height, "x", sb.depth, ")");
  }
  const Span sx = span_of(sb.x, sb.width), sy = span_of(sb.y, sb.height),
             sz = span_of(sb.z, sb.depth);
  const Span lx{0, slv.width}, ly{0, slv.height}, lz{0, slv.layers};
  if (!overlaps(sx, lx) || !overlaps(sy, ly) || !overlaps(sz, lz)) {
    runtime::invalid("src: box (", sb.x, ",", sb.y, ",", sb.z, ") ", sb.width, "x", sb.height, "x",
                     sb.depth, " lies entirely outside level ", sl, " (", slv.width, "x",
                     slv.height, "x", slv.layers, ")");
  }

  if (info.scissor_enable &&
      (info.scissor.minx > info.scissor.maxx || info.scissor.miny > info.scissor.maxy)) {
    runtime::invalid("scissor min is beyond max");
  }

  // Conversion class of the format pair, and what the mask selects.
  const bool linear = info.filter == TexFilter::LINEAR;
  const bool dzs = format_is_depth_or_stencil(df);
  if (dzs != format_is_depth_or_stencil(sf)) {
    runtime::invalid("cannot blit between the depth/stencil format ", format_name(dzs ? df : sf),
                     " and the colour format ", format_name(dzs ? sf : df));
  }
  ClpBlitParams p{};
  bool full_write = true;  // every component / aspect of the destination is written
  if (dzs) {
    const bool depth = (info.mask & Mask::Z) != 0, stencil = (info.mask & Mask::S) != 0;
    if (depth && !(format_has_depth(df) && format_has_depth(sf))) {
      runtime::invalid("mask Z needs depth in both formats (", format_name(sf), " -> ",
                       format_name(df), ")");
    }
    if (stencil && !(format_has_stencil(df) && format_has_stencil(sf))) {
      runtime::invalid("mask S needs stencil in both formats (", format_name(sf), " -> ",
                       format_name(df), ")");
    }
    if (stencil && linear) runtime::invalid("stencil is blitted with the NEAREST filter only");
    if (info.alpha_blend) runtime::invalid("alpha_blend applies to colour blits only");
    if (!depth && !stencil) return;  // the mask selects nothing of these formats
    p.mode = CLP_BLIT_MODE_ZS;
    p.flags |= (depth ? CLP_BLIT_DEPTH : 0u) | (stencil ? CLP_BLIT_STENCIL : 0u);
    if (depth && linear) p.flags |= CLP_BLIT_LINEAR_XY;
    full_write = depth == format_has_depth(df) && stencil == format_has_stencil(df);
  } else {
    const bool duint = format_is_pure_uint(df), dsint = format_is_pure_sint(df);
    if (duint != format_is_pure_uint(sf) || dsint != format_is_pure_sint(sf)) {
      runtime::invalid("incompatible formats ", format_name(sf), " -> ", format_name(df),
                       ": unsigned integer, signed integer and other formats blit only within "
                       "their own class");
    }
    if ((duint || dsint) && linear) {
      runtime::invalid("integer formats (", format_name(df), ") are blitted with NEAREST only");
    }
    if ((duint || dsint) && info.alpha_blend) {
      runtime::invalid("alpha_blend does not apply to integer formats (", format_name(df), ")");
    }
    const uint32_t rgba = info.mask & Mask::RGBA;
    if (rgba == 0) return;  // the mask selects nothing of these formats
    p.mode = duint ? CLP_BLIT_MODE_UINT : dsint ? CLP_BLIT_MODE_SINT : CLP_BLIT_MODE_FLOAT;
    if (linear) p.flags |= CLP_BLIT_LINEAR_XY;
    if (linear && s.info().target == TextureTarget::TEXTURE_3D) p.flags |= CLP_BLIT_LINEAR_Z;
    if (info.alpha_blend) p.flags |= CLP_BLIT_ALPHA_BLEND;
    p.write_mask = rgba;
    full_write = rgba == Mask::RGBA;
  }
  if (!full_write) p.flags |= CLP_BLIT_MASKED;
  // render_condition_enable asks the blit to honour the current render condition.
  // Conditional rendering arrives with issue 6: until then render_condition() refuses
  // every query (kConditionalRender is false), so no condition is ever active and the
  // blit always runs. TODO(issue 6): skip the blit when the condition says so.

  // --- The destination texels to write: the box cut by the scissor. ------------------
  Span wx = dx, wy = dy;
  if (info.scissor_enable) {
    wx = intersect(wx, Span{info.scissor.minx, info.scissor.maxx});
    wy = intersect(wy, Span{info.scissor.miny, info.scissor.maxy});
    if (wx.empty() || wy.empty()) return;
  }

  const ResourceLayout& S = s.layout();
  const ResourceLayout& D = d.layout();
  const bool same_level = &d == &s && dl == sl;

  // An unscaled, unmirrored copy of one format with everything written is a raw copy:
  // decode + encode of one format gives the bits back (up to NaN payloads, the two
  // encodings of -1 in SNORM and X padding, which a copy keeps).
  const bool unscaled = sb.width == db.width && sb.height == db.height && sb.depth == db.depth &&
                        db.width > 0 && db.height > 0 && db.depth > 0;
  const bool src_inside = sx.begin >= 0 && sy.begin >= 0 && sz.begin >= 0 && sx.end <= lx.end &&
                          sy.end <= ly.end && sz.end <= lz.end;
  if (df == sf && full_write && !info.alpha_blend && unscaled && src_inside && !same_level) {
    const Box to{int32_t(wx.begin),          int32_t(wy.begin),
                 int32_t(dz.begin),          int32_t(wx.end - wx.begin),
                 int32_t(wy.end - wy.begin), int32_t(dz.end - dz.begin)};
    const Box from{int32_t(sb.x + (wx.begin - db.x)),
                   int32_t(sb.y + (wy.begin - db.y)),
                   sb.z,
                   to.width,
                   to.height,
                   to.depth};
    const cl::Event ev =
        ops_.copy(s.storage(), region_of(S, sl, from), d.storage(), region_of(D, dl, to));
    s.note_use(context_id_, ev, false);
    d.note_use(context_id_, ev, true);
    return;
  }

  // --- One blit_texels launch. -------------------------------------------------------
  p.src_base = slv.offset;
  p.src_layer_pitch = slv.layer_pitch;
  p.src_row_pitch = slv.row_pitch;
  p.dst_base = dlv.offset;
  p.dst_layer_pitch = dlv.layer_pitch;
  p.dst_row_pitch = dlv.row_pitch;
  p.src_format = uint32_t(sf);
  p.dst_format = uint32_t(df);
  p.src_size[0] = int32_t(slv.width);
  p.src_size[1] = int32_t(slv.height);
  p.src_size[2] = int32_t(slv.layers);
  p.dst_origin[0] = db.x;
  p.dst_origin[1] = db.y;
  p.dst_origin[2] = db.z;
  p.launch_origin[0] = int32_t(wx.begin);
  p.launch_origin[1] = int32_t(wy.begin);
  p.launch_origin[2] = int32_t(dz.begin);
  p.launch_size[0] = uint32_t(wx.end - wx.begin);
  p.launch_size[1] = uint32_t(wy.end - wy.begin);
  p.launch_size[2] = uint32_t(dz.end - dz.begin);
  p.src_origin[0] = float(sb.x);
  p.src_origin[1] = float(sb.y);
  p.src_origin[2] = float(sb.z);
  // One single-precision division each, so that a host reference computing
  // float(src) / float(dst) gets the same scale.
  p.scale[0] = float(sb.width) / float(db.width);
  p.scale[1] = float(sb.height) / float(db.height);
  p.scale[2] = float(sb.depth) / float(db.depth);

  cl::Buffer src_storage = s.storage();
  const cl::Buffer dst_storage = d.storage();
  if (same_level && overlaps(footprint(sx, lx.end), wx) && overlaps(footprint(sy, ly.end), wy) &&
      overlaps(footprint(sz, lz.end), dz)) {
    // The launch would read texels it writes: read a copy of the source level instead.
    // The staging buffer lives until the launch has finished (OpenCL keeps memory objects
    // of queued commands alive).
    const ByteRegion level = region_of(S, sl, level_box_of(slv));
    ByteRegion staged = level;
    staged.base = 0;
    cl::Buffer staging = queue_.create_buffer(size_t(slv.size));
    const cl::Event ev = ops_.copy(src_storage, level, staging, staged);
    s.note_use(context_id_, ev, false);
    src_storage = staging;
    p.src_base = 0;
  }

  if (!program_) program_ = programs_.get(kernels::program_source("blit.cl"));
  cl::Kernel& k = queue_.kernel(program_, "blit_texels");
  if (max_group_ == 0) max_group_ = max_group_size(k, queue_.device().device());
  const size_t group = group_for(p.launch_size[0], max_group_);
  runtime::set_args(k, src_storage, dst_storage, p);
  const size_t gx = (size_t(p.launch_size[0]) + group - 1) / group * group;
  const cl::Event ev =
      queue_.launch(k, {gx, p.launch_size[1], p.launch_size[2]}, {group, 1, 1}, "blit");
  s.note_use(context_id_, ev, false);
  d.note_use(context_id_, ev, true);
}

Status ContextImpl::blit(const BlitInfo& info) {
  return guard("blit", [&] {
    ResourceImpl& d = resource(info.dst.resource, "blit (dst)");
    ResourceImpl& s = resource(info.src.resource, "blit (src)");
    blitter_.blit(d, s, info);
  });
}

}  // namespace clpipe::frontend
