// The caps blob (doc 5): built from what a clpipe Screen reports, and read back the way
// Mesa 22.3.6 reads it to tell which GL version a blob yields.
//
// build_caps() maps Gallium caps and format support onto the virgl fields and bit sets;
// only what the Screen reports as working is advertised. The GL level is then chosen
// honestly: mesa_gl_version() evaluates the blob with Mesa's rules (doc 5.3) and the GLSL
// level is capped to the highest GL version whose requirements all hold, so the GLSL
// level never promises more than the features behind it. The connection sends the blob
// for GET_CAPS2 (and its first 308 bytes for GET_CAPS); clpipe-vtest --print-caps shows
// it with the evaluation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "clpipe/screen.h"
#include "vtest/protocol.h"

namespace clpipe::frontend::vtest {

using CapsBlob = std::array<uint8_t, kCapsV2Bytes>;

// Byte offsets of the caps fields this server fills or Mesa reads (doc 5.1).
namespace CapsOffset {
enum : uint32_t {
  MAX_VERSION = 0,
  SAMPLER = 4,
  RENDER = 68,
  DEPTHSTENCIL = 132,
  VERTEXBUFFER = 196,
  BSET = 260,
  GLSL_LEVEL = 264,
  MAX_TEXTURE_ARRAY_LAYERS = 268,
  MAX_STREAMOUT_BUFFERS = 272,
  MAX_DUAL_SOURCE_RENDER_TARGETS = 276,
  MAX_RENDER_TARGETS = 280,
  MAX_SAMPLES = 284,
  PRIM_MASK = 288,
  MAX_TBO_SIZE = 292,
  MAX_UNIFORM_BLOCKS = 296,
  MAX_VIEWPORTS = 300,
  MAX_TEXTURE_GATHER_COMPONENTS = 304,
  MIN_ALIASED_POINT_SIZE = 308,  // then 8 more floats up to MAX_TEXTURE_LOD_BIAS
  MAX_TEXTURE_LOD_BIAS = 340,
  MAX_GEOM_OUTPUT_VERTICES = 344,
  MAX_GEOM_TOTAL_OUTPUT_COMPONENTS = 348,
  MAX_VERTEX_OUTPUTS = 352,
  MAX_VERTEX_ATTRIBS = 356,
  MAX_SHADER_PATCH_VARYINGS = 360,
  MIN_TEXEL_OFFSET = 364,
  MAX_TEXEL_OFFSET = 368,
  MIN_TEXTURE_GATHER_OFFSET = 372,
  MAX_TEXTURE_GATHER_OFFSET = 376,
  TEXTURE_BUFFER_OFFSET_ALIGNMENT = 380,
  UNIFORM_BUFFER_OFFSET_ALIGNMENT = 384,
  SHADER_BUFFER_OFFSET_ALIGNMENT = 388,
  CAPABILITY_BITS = 392,
  SAMPLE_LOCATIONS = 396,
  MAX_VERTEX_ATTRIB_STRIDE = 428,
  MAX_SHADER_BUFFER_FRAG_COMPUTE = 432,
  MAX_SHADER_BUFFER_OTHER_STAGES = 436,
  MAX_SHADER_IMAGE_FRAG_COMPUTE = 440,
  MAX_SHADER_IMAGE_OTHER_STAGES = 444,
  MAX_IMAGE_SAMPLES = 448,
  MAX_COMPUTE_WORK_GROUP_INVOCATIONS = 452,
  MAX_COMPUTE_SHARED_MEMORY_SIZE = 456,
  MAX_COMPUTE_GRID_SIZE = 460,   // 3 x u32
  MAX_COMPUTE_BLOCK_SIZE = 472,  // 3 x u32
  MAX_TEXTURE_2D_SIZE = 484,
  MAX_TEXTURE_3D_SIZE = 488,
  MAX_TEXTURE_CUBE_SIZE = 492,
  MAX_COMBINED_SHADER_BUFFERS = 496,
  MAX_ATOMIC_COUNTERS = 500,         // 6 x u32
  MAX_ATOMIC_COUNTER_BUFFERS = 524,  // 6 x u32
  MAX_COMBINED_ATOMIC_COUNTERS = 548,
  MAX_COMBINED_ATOMIC_COUNTER_BUFFERS = 552,
  HOST_FEATURE_CHECK_VERSION = 556,
  SUPPORTED_READBACK_FORMATS = 560,
  SCANOUT = 624,
  CAPABILITY_BITS_V2 = 688,
  MAX_VIDEO_MEMORY = 692,
  RENDERER = 696,  // char[64]
  MAX_ANISOTROPY = 760,
  MAX_SHADER_SAMPLER_VIEWS = 764,
  SUPPORTED_MULTISAMPLE_FORMATS = 768,
  MAX_CONST_BUFFER_SIZE = 832,  // 6 x u32, virgl stage order
  NUM_VIDEO_CAPS = 856,
  MAX_UNIFORM_BLOCK_SIZE = 1372,
};
}
constexpr uint32_t kRendererBytes = 64;

struct CapsOptions {
  // Highest GL version to advertise, x10 (33 = GL 3.3). The blob may yield less when
  // clpipe's caps miss a requirement; it never yields more than 3.3, the highest level
  // whose requirements this server knows (doc 5.3).
  unsigned max_gl_version = 33;
};

CapsBlob build_caps(const Screen& screen, const CapsOptions& options = {});
// The caps v1 reply: the first 308 bytes with max_version 1.
std::array<uint8_t, kCapsV1Bytes> caps_v1(const CapsBlob& blob);

// Little-endian field access for tests and tools.
uint32_t caps_u32(const uint8_t* blob, uint32_t offset);
float caps_f32(const uint8_t* blob, uint32_t offset);
bool caps_has_format(const uint8_t* blob, uint32_t mask_offset, uint32_t virgl_format);

// What Mesa 22.3.6 makes of a caps v2 blob (doc 5.3). Versions x10; core 0 = no core
// profile (below 3.2).
struct GlVersion {
  unsigned compat = 0;
  unsigned core = 0;
  unsigned feature_level = 0;  // highest level whose non-GLSL requirements hold
  // Requirements of the first level above feature_level that the blob misses.
  std::vector<std::string> missing;
};
GlVersion mesa_gl_version(const CapsBlob& blob);

// GLSL level (x100 like the caps field) that belongs to a GL version (x10), and back.
unsigned glsl_level_for_gl(unsigned gl_version);
unsigned gl_version_for_glsl(unsigned glsl_level);

}  // namespace clpipe::frontend::vtest
