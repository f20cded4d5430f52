// Enums and flag sets of the clpipe API, with Gallium's values (Mesa 22.3 p_defines.h).
//
// Enumerators keep Gallium's spelling without the PIPE_ prefix (PrimType::TRIANGLES for
// PIPE_PRIM_TRIANGLES) so that anyone who knows Gallium finds them, and so that the
// vtest front-end can convert wire values with a range check and a cast.
#pragma once

#include <cstdint>

namespace clpipe {

// enum pipe_shader_type of Mesa 22.3 (the virgl wire order differs; see vtest/).
enum class ShaderType : uint8_t {
  VERTEX = 0,
  TESS_CTRL = 1,
  TESS_EVAL = 2,
  GEOMETRY = 3,
  FRAGMENT = 4,
  COMPUTE = 5,
};
constexpr unsigned kShaderTypes = 6;

enum class PrimType : uint8_t {
  POINTS = 0,
  LINES = 1,
  LINE_LOOP = 2,
  LINE_STRIP = 3,
  TRIANGLES = 4,
  TRIANGLE_STRIP = 5,
  TRIANGLE_FAN = 6,
  QUADS = 7,
  QUAD_STRIP = 8,
  POLYGON = 9,
  LINES_ADJACENCY = 10,
  LINE_STRIP_ADJACENCY = 11,
  TRIANGLES_ADJACENCY = 12,
  TRIANGLE_STRIP_ADJACENCY = 13,
  PATCHES = 14,
};
constexpr unsigned kPrimTypes = 15;

enum class BlendFunc : uint8_t { ADD = 0, SUBTRACT = 1, REVERSE_SUBTRACT = 2, MIN = 3, MAX = 4 };

// Not contiguous: there is no 0x00, 0x0B..0x10 or 0x16.
enum class BlendFactor : uint8_t {
  ONE = 0x01,
  SRC_COLOR = 0x02,
  SRC_ALPHA = 0x03,
  DST_ALPHA = 0x04,
  DST_COLOR = 0x05,
  SRC_ALPHA_SATURATE = 0x06,
  CONST_COLOR = 0x07,
  CONST_ALPHA = 0x08,
  SRC1_COLOR = 0x09,
  SRC1_ALPHA = 0x0A,
  ZERO = 0x11,
  INV_SRC_COLOR = 0x12,
  INV_SRC_ALPHA = 0x13,
  INV_DST_ALPHA = 0x14,
  INV_DST_COLOR = 0x15,
  INV_CONST_COLOR = 0x17,
  INV_CONST_ALPHA = 0x18,
  INV_SRC1_COLOR = 0x19,
  INV_SRC1_ALPHA = 0x1A,
};
bool is_valid(BlendFactor f);

enum class LogicOp : uint8_t {
  CLEAR = 0,
  NOR = 1,
  AND_INVERTED = 2,
  COPY_INVERTED = 3,
  AND_REVERSE = 4,
  INVERT = 5,
  XOR = 6,
  NAND = 7,
  AND = 8,
  EQUIV = 9,
  NOOP = 10,
  OR_INVERTED = 11,
  COPY = 12,
  OR_REVERSE = 13,
  OR = 14,
  SET = 15,
};

enum class CompareFunc : uint8_t {
  NEVER = 0,
  LESS = 1,
  EQUAL = 2,
  LEQUAL = 3,
  GREATER = 4,
  NOTEQUAL = 5,
  GEQUAL = 6,
  ALWAYS = 7,
};

enum class StencilOp : uint8_t {
  KEEP = 0,
  ZERO = 1,
  REPLACE = 2,
  INCR = 3,
  DECR = 4,
  INCR_WRAP = 5,
  DECR_WRAP = 6,
  INVERT = 7,
};

enum class PolygonMode : uint8_t { FILL = 0, LINE = 1, POINT = 2, FILL_RECTANGLE = 3 };

// PIPE_FACE_*: a mask.
namespace Face {
enum : uint8_t { NONE = 0, FRONT = 1, BACK = 2, FRONT_AND_BACK = 3 };
}

// PIPE_MASK_*.
namespace Mask {
enum : uint8_t { R = 0x1, G = 0x2, B = 0x4, A = 0x8, RGBA = 0xf, Z = 0x10, S = 0x20, ZS = 0x30 };
}

enum class TextureTarget : uint8_t {
  BUFFER = 0,
  TEXTURE_1D = 1,
  TEXTURE_2D = 2,
  TEXTURE_3D = 3,
  TEXTURE_CUBE = 4,
  TEXTURE_RECT = 5,
  TEXTURE_1D_ARRAY = 6,
  TEXTURE_2D_ARRAY = 7,
  TEXTURE_CUBE_ARRAY = 8,
};
constexpr unsigned kTextureTargets = 9;

enum class TexWrap : uint8_t {
  REPEAT = 0,
  CLAMP = 1,
  CLAMP_TO_EDGE = 2,
  CLAMP_TO_BORDER = 3,
  MIRROR_REPEAT = 4,
  MIRROR_CLAMP = 5,
  MIRROR_CLAMP_TO_EDGE = 6,
  MIRROR_CLAMP_TO_BORDER = 7,
};
enum class TexFilter : uint8_t { NEAREST = 0, LINEAR = 1 };
enum class TexMipFilter : uint8_t { NEAREST = 0, LINEAR = 1, NONE = 2 };
enum class TexCompare : uint8_t { NONE = 0, R_TO_TEXTURE = 1 };
enum class TexReductionMode : uint8_t { WEIGHTED_AVERAGE = 0, MIN = 1, MAX = 2 };
enum class Swizzle : uint8_t { X = 0, Y = 1, Z = 2, W = 3, ZERO = 4, ONE = 5, NONE = 6 };

// PIPE_BIND_*.
namespace Bind {
enum : uint32_t {
  DEPTH_STENCIL = 1u << 0,
  RENDER_TARGET = 1u << 1,
  BLENDABLE = 1u << 2,
  SAMPLER_VIEW = 1u << 3,
  VERTEX_BUFFER = 1u << 4,
  INDEX_BUFFER = 1u << 5,
  CONSTANT_BUFFER = 1u << 6,
  DISPLAY_TARGET = 1u << 7,
  VERTEX_STATE = 1u << 8,
  STREAM_OUTPUT = 1u << 10,
  CURSOR = 1u << 11,
  CUSTOM = 1u << 12,
  GLOBAL = 1u << 13,
  SHADER_BUFFER = 1u << 14,
  SHADER_IMAGE = 1u << 15,
  COMPUTE_RESOURCE = 1u << 16,
  COMMAND_ARGS_BUFFER = 1u << 17,
  QUERY_BUFFER = 1u << 18,
  SCANOUT = 1u << 19,
  SHARED = 1u << 20,
  LINEAR = 1u << 21,
  PROTECTED = 1u << 22,
  SAMPLER_REDUCTION_MINMAX = 1u << 23,
  PRIME_BLIT_DST = 1u << 24,
  USE_FRONT_RENDERING = 1u << 25,
};
}

// PIPE_RESOURCE_FLAG_*.
namespace ResourceFlag {
enum : uint32_t {
  MAP_PERSISTENT = 1u << 0,
  MAP_COHERENT = 1u << 1,
  TEXTURING_MORE_LIKELY = 1u << 2,
  SPARSE = 1u << 3,
  SINGLE_THREAD_USE = 1u << 4,
  ENCRYPTED = 1u << 5,
  DONT_OVER_ALLOCATE = 1u << 6,
  DONT_MAP_DIRECTLY = 1u << 7,
  UNMAPPABLE = 1u << 8,
};
}

enum class ResourceUsage : uint8_t {
  DEFAULT = 0,
  IMMUTABLE = 1,
  DYNAMIC = 2,
  STREAM = 3,
  STAGING = 4
};

// PIPE_MAP_* (pipe_map_flags).
namespace Map {
enum : uint32_t {
  READ = 1u << 0,
  WRITE = 1u << 1,
  DIRECTLY = 1u << 2,
  DISCARD_RANGE = 1u << 3,
  DONTBLOCK = 1u << 4,
  UNSYNCHRONIZED = 1u << 5,
  FLUSH_EXPLICIT = 1u << 6,
  DISCARD_WHOLE_RESOURCE = 1u << 7,
  PERSISTENT = 1u << 8,
  COHERENT = 1u << 9,
  THREAD_SAFE = 1u << 10,
  DEPTH_ONLY = 1u << 11,
  STENCIL_ONLY = 1u << 12,
  ONCE = 1u << 13,
};
}

// PIPE_CLEAR_*.
namespace Clear {
enum : uint32_t {
  DEPTH = 1u << 0,
  STENCIL = 1u << 1,
  COLOR0 = 1u << 2,  // COLORi = COLOR0 << i
  COLOR = 0xffu << 2,
  DEPTHSTENCIL = DEPTH | STENCIL,
};
}

// PIPE_FLUSH_*.
namespace Flush {
enum : uint32_t {
  END_OF_FRAME = 1u << 0,
  DEFERRED = 1u << 1,
  FENCE_FD = 1u << 2,
  ASYNC = 1u << 3,
  HINT_FINISH = 1u << 4,
  TOP_OF_PIPE = 1u << 5,
  BOTTOM_OF_PIPE = 1u << 6,
};
}

// PIPE_BARRIER_* for memory_barrier().
namespace Barrier {
enum : uint32_t {
  MAPPED_BUFFER = 1u << 0,
  SHADER_BUFFER = 1u << 1,
  QUERY_BUFFER = 1u << 2,
  VERTEX_BUFFER = 1u << 3,
  INDEX_BUFFER = 1u << 4,
  CONSTANT_BUFFER = 1u << 5,
  INDIRECT_BUFFER = 1u << 6,
  TEXTURE = 1u << 7,
  IMAGE = 1u << 8,
  FRAMEBUFFER = 1u << 9,
  STREAMOUT_BUFFER = 1u << 10,
  GLOBAL_BUFFER = 1u << 11,
  UPDATE_BUFFER = 1u << 12,
  UPDATE_TEXTURE = 1u << 13,
  ALL = (1u << 14) - 1,
};
}

// PIPE_TEXTURE_BARRIER_*.
namespace TextureBarrier {
enum : uint32_t { SAMPLER = 1u << 0, FRAMEBUFFER = 1u << 1 };
}

// PIPE_IMAGE_ACCESS_*.
namespace ImageAccess {
enum : uint16_t { READ = 1u << 0, WRITE = 1u << 1, READ_WRITE = 3 };
}

enum class QueryType : uint16_t {
  OCCLUSION_COUNTER = 0,
  OCCLUSION_PREDICATE = 1,
  OCCLUSION_PREDICATE_CONSERVATIVE = 2,
  TIMESTAMP = 3,
  TIMESTAMP_DISJOINT = 4,
  TIME_ELAPSED = 5,
  PRIMITIVES_GENERATED = 6,
  PRIMITIVES_EMITTED = 7,
  SO_STATISTICS = 8,
  SO_OVERFLOW_PREDICATE = 9,
  SO_OVERFLOW_ANY_PREDICATE = 10,
  GPU_FINISHED = 11,
  PIPELINE_STATISTICS = 12,
  PIPELINE_STATISTICS_SINGLE = 13,
};
constexpr unsigned kQueryTypes = 14;

enum class QueryValueType : uint8_t { I32 = 0, U32 = 1, I64 = 2, U64 = 3 };

namespace QueryFlag {
enum : uint32_t { WAIT = 1u << 0, PARTIAL = 1u << 1 };
}

enum class RenderCondMode : uint8_t {
  WAIT = 0,
  NO_WAIT = 1,
  BY_REGION_WAIT = 2,
  BY_REGION_NO_WAIT = 3
};

enum class SpriteCoordMode : uint8_t { UPPER_LEFT = 0, LOWER_LEFT = 1 };

// The integer caps of screen.rst (enum pipe_cap), in Gallium's order.
enum class Cap : uint16_t {
#define CLPIPE_CAP(name) name,
#include "clpipe/caps.def"
#undef CLPIPE_CAP
  LAST
};

enum class CapF : uint8_t {
#define CLPIPE_CAPF(name) name,
#include "clpipe/capsf.def"
#undef CLPIPE_CAPF
  LAST
};

enum class ShaderCap : uint8_t {
#define CLPIPE_SHADER_CAP(name) name,
#include "clpipe/shader_caps.def"
#undef CLPIPE_SHADER_CAP
  LAST
};

enum class ComputeCap : uint8_t {
#define CLPIPE_COMPUTE_CAP(name) name,
#include "clpipe/compute_caps.def"
#undef CLPIPE_COMPUTE_CAP
  LAST
};

// PIPE_SHADER_IR_* as reported by ShaderCap::PREFERRED_IR / SUPPORTED_IRS.
enum class ShaderIr : uint8_t { TGSI = 0, NATIVE = 1, NIR = 2, NIR_SERIALIZED = 3 };

// Names for tools and messages ("NPOT_TEXTURES").
const char* cap_name(Cap cap);
const char* cap_name(CapF cap);
const char* cap_name(ShaderCap cap);
const char* cap_name(ComputeCap cap);
const char* shader_type_name(ShaderType type);
const char* target_name(TextureTarget target);
const char* prim_name(PrimType prim);

// Limits of the API (p_state.h); the device may report less through the caps.
constexpr unsigned kMaxAttribs = 32;
constexpr unsigned kMaxClipPlanes = 8;
constexpr unsigned kMaxColorBufs = 8;
constexpr unsigned kMaxConstantBuffers = 32;
constexpr unsigned kMaxSamplers = 32;
constexpr unsigned kMaxShaderInputs = 80;
constexpr unsigned kMaxShaderOutputs = 80;
constexpr unsigned kMaxSamplerViews = 128;
constexpr unsigned kMaxShaderBuffers = 32;
constexpr unsigned kMaxShaderImages = 64;
constexpr unsigned kMaxTextureLevels = 16;
constexpr unsigned kMaxSoBuffers = 4;
constexpr unsigned kMaxSoOutputs = 64;
constexpr unsigned kMaxViewports = 16;
constexpr unsigned kMaxVertexStreams = 4;
constexpr unsigned kMaxVertexBuffers = 32;

}  // namespace clpipe
