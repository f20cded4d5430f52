// Resource layout computation and the template / box rules (see layout.h).
#include "frontend/layout.h"

#include <algorithm>

#include "frontend/format_support.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

uint64_t align_up(uint64_t v, uint64_t a) {
  return (v + a - 1) & ~(a - 1);
}

bool is_array_target(TextureTarget t) {
  return t == TextureTarget::TEXTURE_1D_ARRAY || t == TextureTarget::TEXTURE_2D_ARRAY ||
         t == TextureTarget::TEXTURE_CUBE_ARRAY;
}

}  // namespace

unsigned full_mip_count(uint32_t max_dimension) {
  unsigned n = 1;
  while (max_dimension > 1) {
    max_dimension >>= 1;
    ++n;
  }
  return n;
}

ResourceLayout::ResourceLayout(const ResourceTemplate& templ) {
  block_bytes_ = format_desc(templ.format).block_bytes;
  if (templ.target == TextureTarget::BUFFER) {
    is_buffer_ = true;
    block_bytes_ = 1;  // buffers are addressed in bytes whatever their format
    LevelLayout lv;
    lv.width = templ.width0;
    lv.height = lv.depth = lv.layers = 1;
    lv.row_pitch = templ.width0;
    lv.sample_pitch = lv.layer_pitch = templ.width0;
    lv.size = templ.width0;
    levels_.push_back(lv);
    size_bytes_ = templ.width0;
    alloc_bytes_ = align_up(std::max<uint64_t>(size_bytes_, 1), kRowAlignment);
    return;
  }
  const bool is_3d = templ.target == TextureTarget::TEXTURE_3D;
  const bool is_1d =
      templ.target == TextureTarget::TEXTURE_1D || templ.target == TextureTarget::TEXTURE_1D_ARRAY;
  uint64_t offset = 0;
  for (unsigned l = 0; l <= templ.last_level; ++l) {
    LevelLayout lv;
    lv.width = std::max<uint32_t>(1, templ.width0 >> l);
    lv.height = is_1d ? 1 : std::max<uint32_t>(1, uint32_t(templ.height0) >> l);
    lv.depth = is_3d ? std::max<uint32_t>(1, uint32_t(templ.depth0) >> l) : 1;
    lv.layers = is_3d ? lv.depth : templ.array_size;
    lv.row_pitch = uint32_t(align_up(uint64_t(lv.width) * block_bytes_, kRowAlignment));
    lv.samples = std::max<uint32_t>(1, templ.nr_samples);
    lv.sample_pitch = uint64_t(lv.row_pitch) * lv.height;
    lv.layer_pitch = lv.sample_pitch * lv.samples;
    lv.size = lv.layer_pitch * lv.layers;
    offset = align_up(offset, kLevelAlignment);
    lv.offset = offset;
    offset += lv.size;
    levels_.push_back(lv);
  }
  size_bytes_ = offset;
  alloc_bytes_ = align_up(offset, kRowAlignment);
}

void validate_template(const ResourceTemplate& t, const TextureLimits& limits) {
  using runtime::invalid;
  using runtime::unsupported;
  if (unsigned(t.target) >= kTextureTargets) invalid("invalid texture target ", unsigned(t.target));
  const char* target = target_name(t.target);
  if (!format_is_valid(t.format)) invalid("invalid format ", unsigned(t.format));
  if (t.width0 == 0 || t.height0 == 0 || t.depth0 == 0 || t.array_size == 0) {
    invalid(target, ": zero dimension (", t.width0, "x", t.height0, "x", t.depth0, ", ",
            t.array_size, " layers)");
  }
  if (unsigned(t.usage) > unsigned(ResourceUsage::STAGING)) {
    invalid("invalid resource usage ", unsigned(t.usage));
  }
  if (t.nr_samples > 1 || t.nr_storage_samples > 1) {
    if (!sample_count_supported(t.nr_samples)) {
      unsupported(target, ": ", unsigned(t.nr_samples), " samples (clpipe offers 2, 4 and 8)");
    }
    if (t.nr_storage_samples != 0 && t.nr_storage_samples != t.nr_samples) {
      unsupported(target, ": ", unsigned(t.nr_storage_samples), " storage samples for ",
                  unsigned(t.nr_samples), " samples (clpipe stores every sample)");
    }
    if (t.target != TextureTarget::TEXTURE_2D && t.target != TextureTarget::TEXTURE_2D_ARRAY) {
      invalid(target, ": only 2D and 2D array textures are multisampled");
    }
    if (t.last_level != 0) invalid(target, ": a multisampled texture has one level");
  }
  constexpr uint32_t kUnsupportedFlags = ResourceFlag::MAP_PERSISTENT | ResourceFlag::MAP_COHERENT |
                                         ResourceFlag::SPARSE | ResourceFlag::ENCRYPTED;
  if (t.flags & kUnsupportedFlags) {
    unsupported("resource flags 0x", std::hex, t.flags & kUnsupportedFlags,
                " (persistent/coherent mapping, sparse, encrypted) are not supported");
  }

  auto require = [&](bool ok, const char* rule) {
    if (!ok) invalid(target, ": ", rule);
  };
  const bool array = is_array_target(t.target);
  switch (t.target) {
    case TextureTarget::BUFFER:
      require(t.height0 == 1 && t.depth0 == 1 && t.array_size == 1,
              "height0, depth0 and array_size must be 1");
      require(t.last_level == 0, "last_level must be 0");
      if (t.width0 > limits.max_buffer) {
        invalid("BUFFER: width0 ", t.width0, " exceeds the maximum buffer size ",
                limits.max_buffer);
      }
      return;
    case TextureTarget::TEXTURE_1D:
    case TextureTarget::TEXTURE_1D_ARRAY:
      require(t.height0 == 1 && t.depth0 == 1, "height0 and depth0 must be 1");
      require(t.width0 <= limits.max_2d, "width0 exceeds MAX_TEXTURE_2D_SIZE");
      break;
    case TextureTarget::TEXTURE_2D:
    case TextureTarget::TEXTURE_2D_ARRAY:
    case TextureTarget::TEXTURE_RECT:
      require(t.depth0 == 1, "depth0 must be 1");
      require(t.width0 <= limits.max_2d && t.height0 <= limits.max_2d,
              "size exceeds MAX_TEXTURE_2D_SIZE");
      if (t.target == TextureTarget::TEXTURE_RECT)
        require(t.last_level == 0, "last_level must be 0");
      break;
    case TextureTarget::TEXTURE_3D:
      require(t.array_size == 1, "array_size must be 1");
      require(t.width0 <= limits.max_3d && t.height0 <= limits.max_3d && t.depth0 <= limits.max_3d,
              "size exceeds the 3D texture limit (MAX_TEXTURE_3D_LEVELS)");
      break;
    case TextureTarget::TEXTURE_CUBE:
    case TextureTarget::TEXTURE_CUBE_ARRAY:
      require(t.depth0 == 1, "depth0 must be 1");
      require(t.width0 == t.height0, "cube faces must be square (width0 == height0)");
      require(t.width0 <= limits.max_cube, "size exceeds the cube limit (MAX_TEXTURE_CUBE_LEVELS)");
      if (t.target == TextureTarget::TEXTURE_CUBE) {
        require(t.array_size == 6, "array_size must be 6");
      } else {
        require(t.array_size % 6 == 0, "array_size must be a multiple of 6");
      }
      break;
  }
  if (array) {
    require(t.array_size <= limits.max_layers, "array_size exceeds MAX_TEXTURE_ARRAY_LAYERS");
  } else if (t.target != TextureTarget::TEXTURE_CUBE) {
    require(t.array_size == 1, "array_size must be 1");
  }
  uint32_t largest = std::max<uint32_t>(t.width0, t.height0);
  if (t.target == TextureTarget::TEXTURE_3D) largest = std::max<uint32_t>(largest, t.depth0);
  if (t.last_level >= full_mip_count(largest)) {
    invalid(target, ": last_level ", unsigned(t.last_level), " exceeds the mip chain of a ",
            largest, "-texel texture (", full_mip_count(largest), " levels)");
  }
  if (format_desc(t.format).block_bytes > 16) {
    invalid(target, ": format ", format_name(t.format), " is for vertex buffers only");
  }
  const ResourceLayout layout(t);
  if (t.bind & (Bind::SAMPLER_VIEW | Bind::SHADER_IMAGE))
    check_viewable_size(layout.size_bytes(), target);
  if (layout.alloc_bytes() > limits.max_alloc) {
    runtime::fail(ErrorCode::kOutOfMemory, target, " ", t.width0, "x", t.height0, "x", t.depth0,
                  " (", t.array_size, " layers, ", unsigned(t.last_level) + 1, " levels) of ",
                  format_name(t.format), " needs ", layout.alloc_bytes(),
                  " bytes, more than the device's largest allocation (", limits.max_alloc,
                  " bytes)");
  }
}

void check_viewable_size(uint64_t size_bytes, const char* what) {
  if (size_bytes > kMaxViewedTextureBytes) {
    runtime::fail(ErrorCode::kOutOfMemory, what, ": a texture of ", size_bytes,
                  " bytes cannot be sampled or bound as an image (at most 4 GiB - 1: its views' "
                  "offsets are 32-bit)");
  }
}

void check_box(const ResourceLayout& layout, unsigned level, const Box& b, const char* what) {
  if (level >= layout.num_levels()) {
    runtime::invalid(what, ": level ", level, " does not exist (the resource has ",
                     layout.num_levels(), " levels)");
  }
  const LevelLayout& lv = layout.level(level);
  if (b.width <= 0 || b.height <= 0 || b.depth <= 0) {
    runtime::invalid(what, ": empty box (", b.width, "x", b.height, "x", b.depth, ")");
  }
  // 64-bit sums: x + width cannot overflow.
  if (b.x < 0 || b.y < 0 || b.z < 0 || int64_t(b.x) + b.width > int64_t(lv.width) ||
      int64_t(b.y) + b.height > int64_t(lv.height) || int64_t(b.z) + b.depth > int64_t(lv.layers)) {
    runtime::invalid(what, ": box (", b.x, ",", b.y, ",", b.z, ") ", b.width, "x", b.height, "x",
                     b.depth, " exceeds level ", level, " (", lv.width, "x", lv.height, "x",
                     lv.layers, ")");
  }
}

}  // namespace clpipe::frontend
