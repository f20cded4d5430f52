// Context::generate_mipmap: fills levels base_level+1..last_level of a texture, each from
// the level above, by one blit per level through the Blitter (blit.h), as Mesa's
// util_gen_mipmap does with pipe->blit.
//
// Filtering: a LINEAR blit samples destination texel i at source coordinate
// (i + 0.5) * (source size / destination size), which for an even source size is the
// midpoint of texels 2i and 2i+1 with equal weights: a 2x2 box filter (2x2x2 for 3D,
// which filters between slices), in linear space for sRGB formats (decoded, averaged,
// encoded). Odd sizes get the linear blit's weights (llvmpipe's rule too). Integer and
// depth/stencil formats cannot be averaged meaningfully: they take NEAREST, which picks
// texel 2i+1 (the nearest to that midpoint); PIPE_CAP_GENERATE_MIPMAP is therefore true
// for every format that can be sampled and rendered.
#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/format_support.h"
#include "runtime/error.h"

namespace clpipe::frontend {

Status ContextImpl::generate_mipmap(const ResourceRef& res, Format format, unsigned base_level,
                                    unsigned last_level, unsigned first_layer,
                                    unsigned last_layer) {
  return guard("generate_mipmap", [&] {
    flush_scene();
    ResourceImpl& r = resource(res, "generate_mipmap");
    if (r.is_buffer()) runtime::invalid("a BUFFER has no mip levels");
    if (!format_is_valid(format)) runtime::invalid("invalid format ", unsigned(format));
    if (!view_format_compatible(r.info().format, format)) {
      runtime::invalid("format ", format_name(format), " is incompatible with the resource's ",
                       format_name(r.info().format));
    }
    const bool zs = format_is_depth_or_stencil(format);
    const TextureTarget target = r.info().target;
    const uint32_t need = Bind::SAMPLER_VIEW | (zs ? Bind::DEPTH_STENCIL : Bind::RENDER_TARGET);
    if ((supported_binds(format, target) & need) != need) {
      runtime::unsupported(format_name(format), " on ", target_name(target),
                           " cannot be sampled and rendered, so its levels cannot be generated");
    }
    const ResourceLayout& L = r.layout();
    if (base_level > last_level || last_level >= L.num_levels()) {
      runtime::invalid("levels ", base_level, "..", last_level, " are not a range of the ",
                       L.num_levels(), " levels of the resource");
    }
    // Layers index the array (cube faces included); a 3D texture's slices shrink with
    // each level, so every level is filtered whole and the layer range (Mesa passes the
    // base level's slices) only has to lie inside the base level.
    const bool is_3d = target == TextureTarget::TEXTURE_3D;
    const unsigned layers = L.level(base_level).layers;
    if (first_layer > last_layer || last_layer >= layers) {
      runtime::invalid("layers ", first_layer, "..", last_layer, " exceed the ", layers,
                       " of level ", base_level);
    }
    if (base_level == last_level) return;

    BlitInfo b;
    b.src.resource = res;
    b.dst.resource = res;
    b.src.format = format;
    b.dst.format = format;
    if (zs) {
      b.mask =
          (format_has_depth(format) ? Mask::Z : 0) | (format_has_stencil(format) ? Mask::S : 0);
    } else {
      b.mask = Mask::RGBA;
    }
    b.filter = zs || format_is_pure_integer(format) ? TexFilter::NEAREST : TexFilter::LINEAR;
    auto whole = [&](unsigned level) {
      const LevelLayout& lv = L.level(level);
      if (is_3d) return Box{0, 0, 0, int32_t(lv.width), int32_t(lv.height), int32_t(lv.layers)};
      return Box{0,
                 0,
                 int32_t(first_layer),
                 int32_t(lv.width),
                 int32_t(lv.height),
                 int32_t(last_layer - first_layer + 1)};
    };
    // The queue is in order, so each blit reads the level the previous one wrote.
    for (unsigned level = base_level + 1; level <= last_level; ++level) {
      b.src.level = uint8_t(level - 1);
      b.src.box = whole(level - 1);
      b.dst.level = uint8_t(level);
      b.dst.box = whole(level);
      blitter_.blit(r, r, b, true);  // generate_mipmap ignores render conditions
    }
  });
}

}  // namespace clpipe::frontend
