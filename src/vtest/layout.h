// Resource descriptions as the client sends them, and the guest backing-store layout Mesa
// uses for them (doc 3.2-3.3): levels packed one after another, rows tightly packed.
//
// The connection validates a RESOURCE_CREATE(2) into a ResourceDesc (validate_resource),
// the resource table computes its GuestLayout once, and every transfer checks its box and
// its byte span against them before any memory is touched.
#pragma once

#include <array>
#include <cstdint>

#include "clpipe/defines.h"
#include "clpipe/format.h"
#include "clpipe/state.h"

namespace clpipe::frontend::vtest {

// Largest texture dimension and mip count the server accepts before asking clpipe.
constexpr uint32_t kMaxTextureDimension = 32768;
constexpr uint32_t kMaxLevels = kMaxTextureLevels;
constexpr uint32_t kMaxArrayLayers = 65535;
constexpr uint32_t kMaxSamples = 32;

// RESOURCE_CREATE / RESOURCE_CREATE2 fields after validation.
struct ResourceDesc {
  uint32_t handle = 0;
  TextureTarget target = TextureTarget::BUFFER;
  uint32_t virgl_format = 0;
  Format format = Format::NONE;
  uint32_t virgl_bind = 0;
  uint32_t width = 1;  // texels, or bytes for BUFFER
  uint32_t height = 1;
  uint32_t depth = 1;
  uint32_t array_size = 1;  // the wire's 0 (fence pseudo-resources) becomes 1
  uint32_t last_level = 0;
  uint32_t nr_samples = 0;  // 0 or 1 = single-sampled
};

// Raw fields d0..d9 of RESOURCE_CREATE(2) -> ResourceDesc; throws ProtocolError with the
// rule that was broken.
ResourceDesc validate_resource(const uint32_t fields[10]);

// "2D", "CUBE_ARRAY", ... for messages.
const char* target_name_for_errors(TextureTarget target);

// The clpipe template for a description.
ResourceTemplate resource_template(const ResourceDesc& desc);

// Extent of one mip level: texels (bytes for buffers), and the number of layers / cube
// faces / 3D slices addressed through box z.
struct LevelExtent {
  uint32_t width = 1, height = 1, slices = 1;
};
LevelExtent level_extent(const ResourceDesc& desc, uint32_t level);

// One level of the guest backing store.
struct LevelLayout {
  uint64_t offset = 0;        // bytes from the start of the store
  uint64_t stride = 0;        // bytes per row of blocks
  uint64_t layer_stride = 0;  // bytes per layer / face / slice
};

class GuestLayout {
 public:
  GuestLayout() = default;
  explicit GuestLayout(const ResourceDesc& desc);
  const LevelLayout& level(uint32_t l) const { return levels_[l]; }
  // Size of the guest backing store: the sum over all levels (width for buffers), 0 for
  // multisampled resources, which have none.
  uint64_t total_bytes() const { return total_; }
  // The same sum for one sample, whether or not the resource is multisampled.
  uint64_t packed_bytes() const { return packed_; }
  uint32_t block_bytes() const { return block_bytes_; }

 private:
  std::array<LevelLayout, kMaxLevels> levels_{};
  uint64_t total_ = 0;
  uint64_t packed_ = 0;
  uint32_t block_bytes_ = 1;
};

// A transfer box checked against a level, with its memory geometry.
struct TransferGeometry {
  Box box;                    // in texels (bytes for buffers), layers in z
  uint64_t row_bytes = 0;     // bytes of one row of the box
  uint32_t rows = 0;          // rows per layer
  uint32_t layers = 0;        // layers / slices
  uint64_t stride = 0;        // bytes between rows in guest memory
  uint64_t layer_stride = 0;  // bytes between layers in guest memory
  // Bytes from the first to one past the last byte touched; 0 for an empty box.
  uint64_t span() const;
};

// Checks level and box (x, y, z, w, h, d as sent) against the resource and derives the
// geometry with the given guest strides (0 = the level's own, doc 3.3). Throws
// ProtocolError naming `what` when anything is out of range. Strides smaller than a row
// (or a layer) of the box are rejected: rows would overlap.
TransferGeometry transfer_geometry(const ResourceDesc& desc, const GuestLayout& layout,
                                   uint32_t level, const uint32_t box[6], uint32_t stride,
                                   uint32_t layer_stride, const char* what);

// Throws unless [offset, offset + span) lies inside a store of `size` bytes.
void check_span(uint64_t offset, uint64_t span, uint64_t size, const char* what);

// Checks a box given as signed gallium values (x, y, z, w, h, d; w and h may be negative
// for mirrored blit sources) against a level. Throws ProtocolError naming `what`.
void check_box_in_level(const ResourceDesc& desc, uint32_t level, const Box& box, const char* what);

}  // namespace clpipe::frontend::vtest
