// Context::blit and the Blitter behind it (blit.h): validation of a BlitInfo against
// Gallium's rules (gallium.md §9, Mesa's pipe_blit_info), normalisation of the boxes and
// scissor, and the launch of one blit_texels command (src/kernels/blit.cl) or, for an
// unscaled copy of one format, one raw copy.
#include "frontend/blit.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <vector>

#include "compiler/emit/program_text.h"
#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/format_support.h"
#include "kernels/blit_shared.h"
#include "runtime/error.h"

namespace clpipe::frontend {

static_assert(sizeof(ClpBlitParams) == 184, "ClpBlitParams must match src/kernels/blit_shared.h");
static_assert(offsetof(ClpBlitParams, src_row_pitch) == 48 &&
                  offsetof(ClpBlitParams, src_size) == 64 &&
                  offsetof(ClpBlitParams, src_origin) == 128 &&
                  offsetof(ClpBlitParams, mode) == 160,
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
  // A multisampled side is a render target: blits read its samples directly.
  const unsigned samples = r.info().nr_samples;
  const uint32_t need = !is_dst && samples <= 1         ? uint32_t(Bind::SAMPLER_VIEW)
                        : format_is_depth_or_stencil(f) ? uint32_t(Bind::DEPTH_STENCIL)
                                                        : uint32_t(Bind::RENDER_TARGET);
  if (!format_supported(f, r.info().target, samples, samples, need)) {
    runtime::unsupported(what, ": ", format_name(f), " on ", target_name(r.info().target),
                         is_dst ? " cannot be blitted to" : " cannot be blitted from");
  }
}

// The texels of a source level that a blit may read along one axis, clamped to the
// level: the source span itself where the axis maps texel centres to texel centres
// exactly (`exact`: nearest filter, unscaled, so blit.cl's floor(c) is the source
// texel of each destination texel), else widened by one texel each side (the linear
// filter's reach, and a scaled nearest coordinate that rounds onto the next texel).
Span footprint(Span src, int64_t size, bool exact) {
  const int64_t reach = exact ? 0 : 1;
  return {std::clamp<int64_t>(src.begin - reach, 0, size),
          std::clamp<int64_t>(src.end + reach, 0, size)};
}

// Work-items per group along x: two sizes, because PoCL generates a kernel's code once
// per local size, and for blit_texels (every format's decode and encode) that took ~2-4 s
// at a GL program's first blit of a new size: 16 for narrow launches such as small mip
// levels, and 256 for the others (fewer, fuller groups schedule faster on PoCL; a row of
// 17-64 texels leaves most of its group's work-items without a texel, each of which
// returns at once). The warm-up's sessions launch both (tests/tools/warm-cache-test.sh).
size_t group_for(uint32_t width, size_t max_group) {
  size_t g = width <= 16 ? 16 : 256;
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

// The boxes of a validated blit per axis (0 = x, 1 = y, 2 = z), as texel ranges.
struct BlitGeometry {
  Span dst[3];    // the destination box, normalised; may reach outside its level
  Span src[3];    // the source box, normalised; may reach outside its level
  Span write[3];  // the destination texels written: dst cut by its level and the scissor
                  // (may be empty)
  Span level[3];  // the source level: [0, width), [0, height), [0, layers)
};

namespace {

// Validates levels, boxes and scissor of both sides (in 64 bits: a mirrored box may
// reach below INT32_MIN).
BlitGeometry check_geometry(const ResourceImpl& d, const ResourceImpl& s, const BlitInfo& info) {
  const unsigned dl = info.dst.level, sl = info.src.level;
  if (dl >= d.layout().num_levels()) {
    runtime::invalid("dst: level ", dl, " does not exist (the resource has ",
                     d.layout().num_levels(), " levels)");
  }
  if (sl >= s.layout().num_levels()) {
    runtime::invalid("src: level ", sl, " does not exist (the resource has ",
                     s.layout().num_levels(), " levels)");
  }
  const LevelLayout& dlv = d.layout().level(dl);
  const LevelLayout& slv = s.layout().level(sl);
  const Box& db = info.dst.box;
  const Box& sb = info.src.box;
  BlitGeometry g;
  g.dst[0] = span_of(db.x, db.width);
  g.dst[1] = span_of(db.y, db.height);
  g.dst[2] = span_of(db.z, db.depth);
  g.src[0] = span_of(sb.x, sb.width);
  g.src[1] = span_of(sb.y, sb.height);
  g.src[2] = span_of(sb.z, sb.depth);
  g.level[0] = Span{0, slv.width};
  g.level[1] = Span{0, slv.height};
  g.level[2] = Span{0, slv.layers};

  // The destination box is not empty; what of it lies outside its level is not written
  // (st/mesa sends scaled blits unclipped, as util_blitter draws them: the box keeps the
  // scale, the surface clips).
  if (db.width == 0 || db.height == 0 || db.depth == 0) {
    runtime::invalid("dst: empty box (", db.width, "x", db.height, "x", db.depth, ")");
  }
  const Span dst_level[3] = {{0, dlv.width}, {0, dlv.height}, {0, dlv.layers}};
  // The source box is not empty and has at least one texel inside its level; the rest
  // of it reads clamped edge texels (blit.h).
  if (sb.width == 0 || sb.height == 0 || sb.depth == 0) {
    runtime::invalid("src: empty box (", sb.width, "x", sb.height, "x", sb.depth, ")");
  }
  for (int a = 0; a < 3; ++a) {
    if (!overlaps(g.src[a], g.level[a])) {
      runtime::invalid("src: box (", sb.x, ",", sb.y, ",", sb.z, ") ", sb.width, "x", sb.height,
                       "x", sb.depth, " lies entirely outside level ", sl, " (", slv.width, "x",
                       slv.height, "x", slv.layers, ")");
    }
  }

  for (int a = 0; a < 3; ++a) {
    g.write[a] = intersect(g.dst[a], dst_level[a]);
    // The kernel maps texel d to d - box origin in 32 bits.
    if (!g.write[a].empty() && g.dst[a].begin < -(int64_t(1) << 30)) {
      runtime::invalid("dst: box (", db.x, ",", db.y, ",", db.z, ") ", db.width, "x", db.height,
                       "x", db.depth, " starts more than 2^30 texels before level ", dl);
    }
  }
  if (info.scissor_enable) {
    const ScissorState& sc = info.scissor;
    if (sc.minx > sc.maxx || sc.miny > sc.maxy) runtime::invalid("scissor min is beyond max");
    g.write[0] = intersect(g.write[0], Span{sc.minx, sc.maxx});
    g.write[1] = intersect(g.write[1], Span{sc.miny, sc.maxy});
  }
  return g;
}

// How texels convert for this format pair and mask: sets mode, flags and write_mask of
// *p. Returns false when the mask selects nothing of these formats (Gallium drivers
// ignore mask bits of the other kind). Throws for pairs and options a blit cannot do.
bool choose_conversion(const ResourceImpl& s, const BlitInfo& info, ClpBlitParams* p) {
  const Format df = info.dst.format, sf = info.src.format;
  const bool linear = info.filter == TexFilter::LINEAR;
  const bool dzs = format_is_depth_or_stencil(df);
  if (dzs != format_is_depth_or_stencil(sf)) {
    runtime::invalid("cannot blit between the depth/stencil format ", format_name(dzs ? df : sf),
                     " and the colour format ", format_name(dzs ? sf : df));
  }
  bool full_write;  // every component / aspect of the destination is written
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
    if (!depth && !stencil) return false;
    p->mode = CLP_BLIT_MODE_ZS;
    p->flags |= (depth ? CLP_BLIT_DEPTH : 0u) | (stencil ? CLP_BLIT_STENCIL : 0u);
    if (depth && linear) p->flags |= CLP_BLIT_LINEAR_XY;
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
    if (rgba == 0) return false;
    p->mode = duint ? CLP_BLIT_MODE_UINT : dsint ? CLP_BLIT_MODE_SINT : CLP_BLIT_MODE_FLOAT;
    if (linear) p->flags |= CLP_BLIT_LINEAR_XY;
    if (linear && s.info().target == TextureTarget::TEXTURE_3D) p->flags |= CLP_BLIT_LINEAR_Z;
    if (info.alpha_blend) p->flags |= CLP_BLIT_ALPHA_BLEND;
    p->write_mask = rgba;
    full_write = rgba == Mask::RGBA;
  }
  if (!full_write) p->flags |= CLP_BLIT_MASKED;
  return true;
}

}  // namespace

Blitter::Blitter(runtime::Queue& queue, runtime::ProgramCache& programs, DeviceOps& ops,
                 uint64_t context_id)
    : queue_(queue), programs_(programs), ops_(ops), context_id_(context_id) {}

void Blitter::blit(ResourceImpl& d, ResourceImpl& s, const BlitInfo& info, bool condition_passed) {
  // Validation: nothing is enqueued before all of it has passed.
  if (d.is_buffer() || s.is_buffer()) {
    runtime::invalid("blit works on textures; buffers are copied with resource_copy_region");
  }
  if (info.mask & ~uint32_t(Mask::RGBA | Mask::ZS)) {
    runtime::invalid("mask 0x", std::hex, info.mask, " has bits beyond PIPE_MASK_RGBA | ZS");
  }
  if (info.filter != TexFilter::NEAREST && info.filter != TexFilter::LINEAR) {
    runtime::invalid("invalid filter ", unsigned(info.filter));
  }
  check_side_format(d, info.dst.format, true, "dst");
  check_side_format(s, info.src.format, false, "src");
  const unsigned dsamples = d.layout().level(0).samples, ssamples = s.layout().level(0).samples;
  if (dsamples > 1 && ssamples > 1 && dsamples != ssamples) {
    runtime::invalid("a blit between multisampled textures needs equal sample counts (", ssamples,
                     " -> ", dsamples, ")");
  }
  const BlitGeometry g = check_geometry(d, s, info);
  ClpBlitParams p{};
  if (!choose_conversion(s, info, &p)) return;
  if (!condition_passed) return;  // validated, then skipped like a draw
  if (g.write[0].empty() || g.write[1].empty() || g.write[2].empty()) return;  // clipped away

  // An unscaled, unmirrored blit of one format that writes everything is a raw copy:
  // decode + encode of one format gives the bits back (up to NaN payloads, the two
  // encodings of -1 in SNORM and X padding, which a copy keeps). The copy kernel needs
  // disjoint regions, so a blit inside one level takes it only when the texels it reads
  // and writes are apart along some axis (glCopyPixels of one pixel to the next).
  const Box& db = info.dst.box;
  const Box& sb = info.src.box;
  const bool unscaled = sb.width == db.width && sb.height == db.height && sb.depth == db.depth &&
                        db.width > 0 && db.height > 0 && db.depth > 0;
  bool src_inside = true;
  for (int a = 0; a < 3; ++a)
    src_inside = src_inside && g.src[a].begin >= 0 && g.src[a].end <= g.level[a].end;
  bool apart = &d != &s || info.dst.level != info.src.level;
  for (int a = 0; a < 3 && unscaled; ++a) {
    // Unscaled: destination texel t reads source texel t - dst origin + src origin.
    const int64_t shift = g.src[a].begin - g.dst[a].begin;
    apart = apart || !overlaps(Span{g.write[a].begin + shift, g.write[a].end + shift}, g.write[a]);
  }
  if (info.dst.format == info.src.format && (p.flags & CLP_BLIT_MASKED) == 0 && !info.alpha_blend &&
      unscaled && src_inside && apart && dsamples == ssamples) {
    copy_texels(d, s, info, g);
  } else {
    launch(d, s, info, g, p);
  }
}

void Blitter::copy_texels(ResourceImpl& d, ResourceImpl& s, const BlitInfo& info,
                          const BlitGeometry& g) {
  const Box& db = info.dst.box;
  const Box& sb = info.src.box;
  const Box to{int32_t(g.write[0].begin),
               int32_t(g.write[1].begin),
               int32_t(g.write[2].begin),
               int32_t(g.write[0].end - g.write[0].begin),
               int32_t(g.write[1].end - g.write[1].begin),
               int32_t(g.write[2].end - g.write[2].begin)};
  // Unscaled: destination texel t reads source texel t - dst origin + src origin.
  const Box from{int32_t(sb.x + (to.x - db.x)),
                 int32_t(sb.y + (to.y - db.y)),
                 int32_t(sb.z + (to.z - db.z)),
                 to.width,
                 to.height,
                 to.depth};
  const cl::Event ev = ops_.copy(s.storage(), region_of(s.layout(), info.src.level, from),
                                 d.storage(), region_of(d.layout(), info.dst.level, to));
  s.note_use(context_id_, ev, false);
  d.note_use(context_id_, ev, true);
}

void Blitter::launch(ResourceImpl& d, ResourceImpl& s, const BlitInfo& info, const BlitGeometry& g,
                     ClpBlitParams p) {
  const LevelLayout& slv = s.layout().level(info.src.level);
  const LevelLayout& dlv = d.layout().level(info.dst.level);
  const Box& db = info.dst.box;
  const Box& sb = info.src.box;
  p.src_base = slv.offset;
  p.src_layer_pitch = slv.layer_pitch;
  p.src_row_pitch = slv.row_pitch;
  p.dst_base = dlv.offset;
  p.dst_layer_pitch = dlv.layer_pitch;
  p.dst_row_pitch = dlv.row_pitch;
  p.src_sample_pitch = slv.sample_pitch;
  p.dst_sample_pitch = dlv.sample_pitch;
  p.src_samples = slv.samples;
  p.dst_samples = dlv.samples;
  p.src_format = uint32_t(info.src.format);
  p.dst_format = uint32_t(info.dst.format);
  p.src_size[0] = int32_t(slv.width);
  p.src_size[1] = int32_t(slv.height);
  p.src_size[2] = int32_t(slv.layers);
  p.dst_origin[0] = db.x;
  p.dst_origin[1] = db.y;
  p.dst_origin[2] = db.z;
  for (int a = 0; a < 3; ++a) {
    p.launch_origin[a] = int32_t(g.write[a].begin);
    p.launch_size[a] = uint32_t(g.write[a].end - g.write[a].begin);
  }
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
  const uint32_t linear[3] = {p.flags & CLP_BLIT_LINEAR_XY, p.flags & CLP_BLIT_LINEAR_XY,
                              p.flags & CLP_BLIT_LINEAR_Z};
  const int32_t sizes[3][2] = {{sb.width, db.width}, {sb.height, db.height}, {sb.depth, db.depth}};
  Span reads[3];
  bool overlap = &d == &s && info.dst.level == info.src.level;
  for (int a = 0; a < 3; ++a) {
    // c = src_origin + (d - dst_origin + 0.5) * (+-1) is exact in float below 2^21 (a
    // whole number plus a half, and below 2^23 with the origin added).
    const bool exact = !linear[a] &&
                       std::abs(int64_t(sizes[a][0])) == std::abs(int64_t(sizes[a][1])) &&
                       std::abs(int64_t(sizes[a][0])) < (int64_t(1) << 21) &&
                       std::abs(int64_t(g.src[a].begin)) < (int64_t(1) << 21);
    reads[a] = footprint(g.src[a], g.level[a].end, exact);
    overlap = overlap && overlaps(reads[a], g.write[a]);
  }
  if (overlap) {
    // The launch would read texels it writes: read a copy of what it reads instead, at
    // the same place in a buffer the size of the level. The staging buffer lives until
    // the launch has finished (OpenCL keeps memory objects of queued commands alive).
    const Box read_box{int32_t(reads[0].begin),
                       int32_t(reads[1].begin),
                       int32_t(reads[2].begin),
                       int32_t(reads[0].end - reads[0].begin),
                       int32_t(reads[1].end - reads[1].begin),
                       int32_t(reads[2].end - reads[2].begin)};
    const ByteRegion read = region_of(s.layout(), info.src.level, read_box);
    ByteRegion staged = read;
    staged.base -= slv.offset;
    cl::Buffer staging = queue_.create_buffer(size_t(slv.size));
    const cl::Event ev = ops_.copy(src_storage, read, staging, staged);
    s.note_use(context_id_, ev, false);
    src_storage = staging;
    p.src_base = 0;
  }

  if (!program_) program_ = programs_.get(compiler::assemble_kernel_files({"blit.cl"}));
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
    flush_scene();
    ResourceImpl& d = resource(info.dst.resource, "blit (dst)");
    ResourceImpl& s = resource(info.src.resource, "blit (src)");
    // Gallium: render_condition_enable asks the blit to honour the current condition.
    blitter_.blit(d, s, info, !info.render_condition_enable || render_condition_allows());
  });
}

}  // namespace clpipe::frontend
