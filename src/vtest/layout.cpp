// Resource validation and the guest backing-store layout (see layout.h).
#include "vtest/layout.h"

#include <algorithm>
#include <limits>

#include "vtest/formats.h"
#include "vtest/wire.h"

namespace clpipe::frontend::vtest {
namespace {

constexpr uint32_t kMaxBufferBytes = uint32_t(std::numeric_limits<int32_t>::max());

uint32_t minify(uint32_t v, uint32_t level) {
  return std::max<uint32_t>(1, v >> level);
}

uint32_t levels_for(uint32_t size) {
  uint32_t n = 1;
  while (size > 1) {
    size >>= 1;
    ++n;
  }
  return n;
}

}  // namespace

ResourceDesc validate_resource(const uint32_t f[10]) {
  ResourceDesc d;
  d.handle = f[0];
  if (d.handle == 0) protocol_error("resource handle 0 is reserved");
  d.target = target_from_wire(f[1]);
  d.virgl_format = f[2];
  d.format = format_from_wire(f[2], "resource format");
  d.virgl_bind = f[3];
  d.width = f[4];
  d.height = f[5];
  d.depth = f[6];
  d.array_size = f[7] == 0 ? 1 : f[7];  // fence pseudo-resources send 0 (doc 3.5)
  d.last_level = f[8];
  d.nr_samples = f[9];
  if (d.width == 0 || d.height == 0 || d.depth == 0)
    protocol_error("resource size ", d.width, "x", d.height, "x", d.depth, " has a zero extent");
  if (d.nr_samples > kMaxSamples) protocol_error("resource nr_samples ", d.nr_samples);
  const bool ms = d.nr_samples > 1;

  using T = TextureTarget;
  if (d.target == T::BUFFER) {
    if (d.width > kMaxBufferBytes) protocol_error("buffer of ", d.width, " bytes is too large");
    if (d.height != 1 || d.depth != 1 || d.array_size != 1 || d.last_level != 0 || ms)
      protocol_error("buffer must be width x 1 x 1, one layer, one level, single-sampled");
    return d;
  }
  if (d.width > kMaxTextureDimension || d.height > kMaxTextureDimension ||
      d.depth > kMaxTextureDimension || d.array_size > kMaxArrayLayers)
    protocol_error("texture size ", d.width, "x", d.height, "x", d.depth, " (", d.array_size,
                   " layers) exceeds the server limits");
  const bool one_d = d.target == T::TEXTURE_1D || d.target == T::TEXTURE_1D_ARRAY;
  if (one_d && d.height != 1) protocol_error("1D texture with height ", d.height);
  if (d.target != T::TEXTURE_3D && d.depth != 1)
    protocol_error(target_name_for_errors(d.target), " texture with depth ", d.depth);
  const bool arrays = d.target == T::TEXTURE_1D_ARRAY || d.target == T::TEXTURE_2D_ARRAY ||
                      d.target == T::TEXTURE_CUBE || d.target == T::TEXTURE_CUBE_ARRAY;
  if (!arrays && d.array_size != 1)
    protocol_error("non-array texture with array_size ", d.array_size);
  if (d.target == T::TEXTURE_CUBE && d.array_size != 6)
    protocol_error("cube texture with array_size ", d.array_size, " (must be 6)");
  if (d.target == T::TEXTURE_CUBE_ARRAY && d.array_size % 6 != 0)
    protocol_error("cube array with array_size ", d.array_size, " (must be a multiple of 6)");
  if ((d.target == T::TEXTURE_CUBE || d.target == T::TEXTURE_CUBE_ARRAY) && d.width != d.height)
    protocol_error("cube texture faces are not square: ", d.width, "x", d.height);
  const uint32_t max_dim = std::max({d.width, d.height, d.target == T::TEXTURE_3D ? d.depth : 1u});
  if (d.last_level >= std::min(kMaxLevels, levels_for(max_dim)))
    protocol_error("last_level ", d.last_level, " too large for ", d.width, "x", d.height, "x",
                   d.depth);
  if (d.target == T::TEXTURE_RECT && d.last_level != 0)
    protocol_error("rectangle texture with mip levels");
  if (ms && ((d.target != T::TEXTURE_2D && d.target != T::TEXTURE_2D_ARRAY) || d.last_level != 0))
    protocol_error("multisampled resources must be 2D or 2D arrays without mip levels");
  return d;
}

const char* target_name_for_errors(TextureTarget t) {
  static constexpr const char* kNames[] = {"BUFFER", "1D",       "2D",       "3D",        "CUBE",
                                           "RECT",   "1D_ARRAY", "2D_ARRAY", "CUBE_ARRAY"};
  return unsigned(t) < kTextureTargets ? kNames[unsigned(t)] : "?";
}

ResourceTemplate resource_template(const ResourceDesc& d) {
  ResourceTemplate t;
  t.target = d.target;
  t.format = d.format;
  t.width0 = d.width;
  t.height0 = uint16_t(d.height);
  t.depth0 = uint16_t(d.depth);
  t.array_size = uint16_t(d.array_size);
  t.last_level = uint8_t(d.last_level);
  t.nr_samples = uint8_t(d.nr_samples);
  t.nr_storage_samples = uint8_t(d.nr_samples);
  t.usage = resource_usage_from_virgl_bind(d.virgl_bind);
  t.bind = bind_from_virgl(d.virgl_bind);
  return t;
}

LevelExtent level_extent(const ResourceDesc& d, uint32_t level) {
  LevelExtent e;
  e.width = minify(d.width, level);
  e.height = minify(d.height, level);
  switch (d.target) {
    case TextureTarget::TEXTURE_3D:
      e.slices = minify(d.depth, level);
      break;
    case TextureTarget::TEXTURE_CUBE:
      e.slices = 6;
      break;
    default:
      e.slices = d.array_size;
      break;
  }
  return e;
}

GuestLayout::GuestLayout(const ResourceDesc& d) {
  if (d.target == TextureTarget::BUFFER) {
    levels_[0] = LevelLayout{0, d.width, d.width};
    total_ = packed_ = d.width;
    return;
  }
  block_bytes_ = format_desc(d.format).block_bytes;
  uint64_t offset = 0;
  for (uint32_t l = 0; l <= d.last_level; ++l) {
    const LevelExtent e = level_extent(d, l);
    // Every clpipe format has 1x1 blocks, so nblocksx == width and nblocksy == height.
    const uint64_t stride = uint64_t(e.width) * block_bytes_;
    const uint64_t layer = stride * e.height;
    levels_[l] = LevelLayout{offset, stride, layer};
    offset += layer * e.slices;
  }
  packed_ = offset;
  total_ = d.nr_samples > 1 ? 0 : offset;
}

uint64_t TransferGeometry::span() const {
  if (rows == 0 || layers == 0 || row_bytes == 0) return 0;
  return uint64_t(layers - 1) * layer_stride + uint64_t(rows - 1) * stride + row_bytes;
}

TransferGeometry transfer_geometry(const ResourceDesc& d, const GuestLayout& layout, uint32_t level,
                                   const uint32_t b[6], uint32_t stride, uint32_t layer_stride,
                                   const char* what) {
  if (level > d.last_level) protocol_error(what, ": level ", level, " > last_level ", d.last_level);
  const LevelExtent e = level_extent(d, level);
  const uint64_t x = b[0], y = b[1], z = b[2], w = b[3], h = b[4], dd = b[5];
  if (x + w > e.width || y + h > e.height || z + dd > e.slices)
    protocol_error(what, ": box (", x, ",", y, ",", z, " ", w, "x", h, "x", dd, ") exceeds level ",
                   level, " (", e.width, "x", e.height, "x", e.slices, ")");
  TransferGeometry g;
  g.box = Box{int32_t(x), int32_t(y), int32_t(z), int32_t(w), int32_t(h), int32_t(dd)};
  g.row_bytes = w * layout.block_bytes();
  g.rows = uint32_t(h);
  g.layers = uint32_t(dd);
  g.stride = stride ? stride : layout.level(level).stride;
  g.layer_stride = layer_stride ? layer_stride : layout.level(level).layer_stride;
  if (g.rows > 1 && g.stride < g.row_bytes)
    protocol_error(what, ": stride ", g.stride, " is smaller than a row of ", g.row_bytes,
                   " bytes");
  if (g.layers > 1 && g.rows > 0 && g.layer_stride < uint64_t(g.rows - 1) * g.stride + g.row_bytes)
    protocol_error(what, ": layer_stride ", g.layer_stride, " is smaller than a layer");
  return g;
}

void check_span(uint64_t offset, uint64_t span, uint64_t size, const char* what) {
  if (offset > size || span > size - offset)
    protocol_error(what, ": bytes ", offset, "..", offset + span, " exceed the ", size,
                   "-byte backing store");
}

void check_box_in_level(const ResourceDesc& d, uint32_t level, const Box& box, const char* what) {
  if (level > d.last_level) protocol_error(what, ": level ", level, " > last_level ", d.last_level);
  const LevelExtent e = level_extent(d, level);
  auto check = [&](int64_t origin, int64_t size, uint32_t extent, const char* axis) {
    const int64_t lo = std::min(origin, origin + size), hi = std::max(origin, origin + size);
    if (lo < 0 || hi > int64_t(extent))
      protocol_error(what, ": box ", axis, " range ", origin, "+", size, " outside 0..", extent);
  };
  check(box.x, box.width, e.width, "x");
  check(box.y, box.height, e.height, "y");
  if (box.depth < 0) protocol_error(what, ": negative box depth");
  check(box.z, box.depth, e.slices, "z");
}

}  // namespace clpipe::frontend::vtest
