// clpipe's resource layout and the rules a resource template and a box must follow.
//
// Producer: Screen::resource_create computes one ResourceLayout per resource; every pass
// that addresses texels (transfers, clears, copies, and later rendering and sampling)
// consumes it. Layout, for each mip level in order:
//   row_pitch   = align(width_in_blocks * block_bytes, 16)
//   layer_pitch = row_pitch * height            (one 3D slice, array layer or cube face)
//   size        = layer_pitch * layers          (layers = 3D depth of the level, or array_size)
//   offset      = previous level's offset + size, aligned to 64
// so every row starts on a 16-byte boundary of the buffer (kernels use 16-byte stores)
// and the allocation is a multiple of 16 bytes. 1D arrays keep their layers in z
// (height 1). A BUFFER is one row of width0 bytes; its allocation is padded to 16 bytes
// but the padding is never exposed. All formats have 1x1 blocks (no compressed formats).
// A multisampled resource (2D or 2D array, one level, N = 2, 4 or 8 samples) keeps each
// layer as N planes of one sample each: sample s of layer z is the single-sampled layer
// z * N + s, so sample_pitch = row_pitch * height and layer_pitch = N * sample_pitch.
// Code that knows nothing of samples and addresses a layer reaches its sample 0; a box
// of layers [z, z + d) is the planes [z N, (z + d) N), which region_of (device_ops.h)
// hands to the clears and copies, so that they treat every sample.
#pragma once

#include <cstdint>
#include <vector>

#include "clpipe/state.h"

namespace clpipe::frontend {

constexpr uint32_t kRowAlignment = 16;    // bytes; power of two
constexpr uint64_t kLevelAlignment = 64;  // bytes; power of two, multiple of kRowAlignment

struct LevelLayout {
  uint32_t width = 0, height = 0;  // texels (height 1 for 1D kinds and buffers)
  uint32_t depth = 0;              // 3D slices of this level (1 for other targets)
  uint32_t layers = 0;             // z extent of boxes: depth for 3D, else array_size
  uint32_t row_pitch = 0;          // bytes
  uint64_t sample_pitch = 0;       // bytes: row_pitch * height (one sample plane)
  uint64_t layer_pitch = 0;        // bytes: sample_pitch * samples
  uint32_t samples = 1;            // sample planes per layer
  uint64_t offset = 0;             // bytes from the start of the buffer
  uint64_t size = 0;               // bytes: layer_pitch * layers
};

class ResourceLayout {
 public:
  // templ must have passed validate_template().
  explicit ResourceLayout(const ResourceTemplate& templ);

  unsigned num_levels() const { return unsigned(levels_.size()); }
  const LevelLayout& level(unsigned l) const { return levels_.at(l); }
  uint32_t block_bytes() const { return block_bytes_; }
  bool is_buffer() const { return is_buffer_; }
  // Bytes a user may address (width0 for buffers).
  uint64_t size_bytes() const { return size_bytes_; }
  // Bytes to allocate: size_bytes() rounded up to kRowAlignment.
  uint64_t alloc_bytes() const { return alloc_bytes_; }
  // Byte offset of texel (x, y, z) of a level.
  uint64_t texel_offset(unsigned l, uint32_t x, uint32_t y, uint32_t z) const {
    const LevelLayout& lv = levels_[l];
    return lv.offset + z * lv.layer_pitch + uint64_t(y) * lv.row_pitch + uint64_t(x) * block_bytes_;
  }

 private:
  std::vector<LevelLayout> levels_;
  uint32_t block_bytes_ = 1;
  bool is_buffer_ = false;
  uint64_t size_bytes_ = 0;
  uint64_t alloc_bytes_ = 0;
};

// The most bytes a texture that is sampled or bound as an image may have: its views'
// descriptors (ClpTexView, kernels/sampling_abi.h) hold 32-bit level offsets and pitches.
constexpr uint64_t kMaxViewedTextureBytes = 0xffffffffu;

// Throws kOutOfMemory when a texture of size_bytes is too large to be viewed; `what`
// names the call.
void check_viewable_size(uint64_t size_bytes, const char* what);

// Size limits of a screen (from the device; see Screen caps MAX_TEXTURE_*).
struct TextureLimits {
  uint32_t max_2d = 16384;     // width/height of 1D, 2D, RECT and array textures
  uint32_t max_3d = 2048;      // each dimension of 3D textures
  uint32_t max_cube = 16384;   // width = height of cube faces
  uint32_t max_layers = 2048;  // array_size of array textures
  uint64_t max_buffer = 0;     // bytes of a BUFFER (width0)
  uint64_t max_alloc = 0;      // bytes of one device allocation
};

// Throws clpipe::Error (kInvalidArgument for a template that breaks a rule of the API,
// kUnsupported for valid requests clpipe cannot do: samples, flags; kOutOfMemory when the
// layout exceeds one device allocation, or kMaxViewedTextureBytes for a texture bound for
// sampling or images). Format support per bind is checked by the caller.
void validate_template(const ResourceTemplate& templ, const TextureLimits& limits);

// Throws kInvalidArgument unless box is non-empty and inside `level` of the layout.
void check_box(const ResourceLayout& layout, unsigned level, const Box& box, const char* what);

// Number of mip levels of a full chain for the largest dimension.
unsigned full_mip_count(uint32_t max_dimension);

}  // namespace clpipe::frontend
