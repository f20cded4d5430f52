// Numbers of the vtest transport and of the virgl command stream, as spoken by Mesa
// 22.3.6's virpipe and virglrenderer 0.10.4 (docs/virgl-vtest.md sections 2, 4 and 5).
//
// Pure constants: the connection (vtest level), the decoders (virgl level) and the caps
// builder read them; nothing here depends on clpipe.
#pragma once

#include <cstdint>

namespace clpipe::frontend::vtest {

// --- vtest messages (doc 2.2) ------------------------------------------------------
namespace VtestCmd {
enum : uint32_t {
  GET_CAPS = 1,
  RESOURCE_CREATE = 2,
  RESOURCE_UNREF = 3,
  TRANSFER_GET = 4,
  TRANSFER_PUT = 5,
  SUBMIT_CMD = 6,
  RESOURCE_BUSY_WAIT = 7,
  CREATE_RENDERER = 8,
  GET_CAPS2 = 9,
  PING_PROTOCOL_VERSION = 10,
  PROTOCOL_VERSION = 11,
  RESOURCE_CREATE2 = 12,
  TRANSFER_GET2 = 13,
  TRANSFER_PUT2 = 14,
  GET_PARAM = 15,
  GET_CAPSET = 16,
  CONTEXT_INIT = 17,
  RESOURCE_CREATE_BLOB = 18,
  SYNC_CREATE = 19,
  SYNC_UNREF = 20,
  SYNC_READ = 21,
  SYNC_WRITE = 22,
  SYNC_WAIT = 23,
  SUBMIT_CMD2 = 24,
};
}
const char* vtest_cmd_name(uint32_t id);

constexpr uint32_t kVtestHeaderDwords = 2;
// The highest protocol version this server speaks: 2 (memfd resources). Version 1 is
// deprecated and both sides treat it as 0; version 3 is Venus-only.
constexpr uint32_t kProtocolVersionMax = 2;
// RESOURCE_BUSY_WAIT flag.
constexpr uint32_t kBusyWaitFlagWait = 1;

// Payload sizes in dwords of the fixed-size vtest messages.
constexpr uint32_t kResourceCreateDwords = 10;
constexpr uint32_t kResourceCreate2Dwords = 11;
constexpr uint32_t kTransfer2Dwords = 10;  // TRANSFER_GET2 / TRANSFER_PUT2 fields
constexpr uint32_t kTransferDwords = 11;   // TRANSFER_GET / TRANSFER_PUT (v0) fields

// --- caps blob (doc 5.1) -----------------------------------------------------------
constexpr uint32_t kCapsV1Bytes = 308;
constexpr uint32_t kCapsV2Bytes = 1376;

// --- virgl command stream (doc 4.2) ------------------------------------------------
namespace Ccmd {
enum : uint32_t {
  NOP = 0,
  CREATE_OBJECT = 1,
  BIND_OBJECT = 2,
  DESTROY_OBJECT = 3,
  SET_VIEWPORT_STATE = 4,
  SET_FRAMEBUFFER_STATE = 5,
  SET_VERTEX_BUFFERS = 6,
  CLEAR = 7,
  DRAW_VBO = 8,
  RESOURCE_INLINE_WRITE = 9,
  SET_SAMPLER_VIEWS = 10,
  SET_INDEX_BUFFER = 11,
  SET_CONSTANT_BUFFER = 12,
  SET_STENCIL_REF = 13,
  SET_BLEND_COLOR = 14,
  SET_SCISSOR_STATE = 15,
  BLIT = 16,
  RESOURCE_COPY_REGION = 17,
  BIND_SAMPLER_STATES = 18,
  BEGIN_QUERY = 19,
  END_QUERY = 20,
  GET_QUERY_RESULT = 21,
  SET_POLYGON_STIPPLE = 22,
  SET_CLIP_STATE = 23,
  SET_SAMPLE_MASK = 24,
  SET_STREAMOUT_TARGETS = 25,
  SET_RENDER_CONDITION = 26,
  SET_UNIFORM_BUFFER = 27,
  SET_SUB_CTX = 28,
  CREATE_SUB_CTX = 29,
  DESTROY_SUB_CTX = 30,
  BIND_SHADER = 31,
  SET_TESS_STATE = 32,
  SET_MIN_SAMPLES = 33,
  SET_SHADER_BUFFERS = 34,
  SET_SHADER_IMAGES = 35,
  MEMORY_BARRIER = 36,
  LAUNCH_GRID = 37,
  SET_FRAMEBUFFER_STATE_NO_ATTACH = 38,
  TEXTURE_BARRIER = 39,
  SET_ATOMIC_BUFFERS = 40,
  SET_DEBUG_FLAGS = 41,
  GET_QUERY_RESULT_QBO = 42,
  TRANSFER3D = 43,
  END_TRANSFERS = 44,
  COPY_TRANSFER3D = 45,
  SET_TWEAKS = 46,
  CLEAR_TEXTURE = 47,
  PIPE_RESOURCE_CREATE = 48,
  PIPE_RESOURCE_SET_TYPE = 49,
  GET_MEMORY_INFO = 50,
  EMIT_STRING_MARKER = 51,
  LINK_SHADER = 52,
  // 53..61: video codec commands (CREATE_VIDEO_CODEC .. END_FRAME).
  FIRST_VIDEO = 53,
  LAST_VIDEO = 61,
  COUNT = 62,
};
}
const char* ccmd_name(uint32_t id);

// Object types of CREATE/BIND/DESTROY_OBJECT (header bits 8..15).
namespace ObjType {
enum : uint32_t {
  NONE = 0,
  BLEND = 1,
  RASTERIZER = 2,
  DSA = 3,
  SHADER = 4,
  VERTEX_ELEMENTS = 5,
  SAMPLER_VIEW = 6,
  SAMPLER_STATE = 7,
  SURFACE = 8,
  QUERY = 9,
  STREAMOUT_TARGET = 10,
  MSAA_SURFACE = 11,
  COUNT = 12,
};
}
const char* obj_type_name(uint32_t type);

// Command header: bits 0-7 command, 8-15 object type, 16-31 payload dwords.
inline uint32_t ccmd_header(uint32_t cmd, uint32_t obj, uint32_t len) {
  return cmd | (obj << 8) | (len << 16);
}

// virgl shader stages (wire order, not gallium's).
namespace VirglStage {
enum : uint32_t {
  VERTEX = 0,
  FRAGMENT = 1,
  GEOMETRY = 2,
  TESS_CTRL = 3,
  TESS_EVAL = 4,
  COMPUTE = 5
};
}
constexpr uint32_t kVirglStages = 6;

// virgl query types (doc 4.3; differ from gallium's).
namespace VirglQuery {
enum : uint32_t {
  OCCLUSION_COUNTER = 0,
  OCCLUSION_PREDICATE = 1,
  TIMESTAMP = 2,
  TIMESTAMP_DISJOINT = 3,
  TIME_ELAPSED = 4,
  PRIMITIVES_GENERATED = 5,
  PRIMITIVES_EMITTED = 6,
  SO_STATISTICS = 7,
  SO_OVERFLOW_PREDICATE = 8,
  GPU_FINISHED = 9,
  PIPELINE_STATISTICS = 10,
  OCCLUSION_PREDICATE_CONSERVATIVE = 11,
  SO_OVERFLOW_ANY_PREDICATE = 12,
  COUNT = 13,
};
}

// Query buffer contents written by the server (doc 3.6): struct virgl_host_query_state.
constexpr uint32_t kQueryStateBytes = 16;
constexpr uint32_t kQueryStateDone = 1;

// virgl bind flags (doc 6.2; differ from gallium's above bit 7).
namespace VirglBind {
enum : uint32_t {
  DEPTH_STENCIL = 1u << 0,
  RENDER_TARGET = 1u << 1,
  SAMPLER_VIEW = 1u << 3,
  VERTEX_BUFFER = 1u << 4,
  INDEX_BUFFER = 1u << 5,
  CONSTANT_BUFFER = 1u << 6,
  DISPLAY_TARGET = 1u << 7,
  COMMAND_ARGS = 1u << 8,
  STREAM_OUTPUT = 1u << 11,
  SHADER_BUFFER = 1u << 14,
  QUERY_BUFFER = 1u << 15,
  CURSOR = 1u << 16,
  CUSTOM = 1u << 17,
  SCANOUT = 1u << 18,
  STAGING = 1u << 19,
  SHARED = 1u << 20,
  PREFER_EMULATED_BGRA = 1u << 21,
  LINEAR = 1u << 22,
};
}

// TRANSFER3D direction.
constexpr uint32_t kTransferToHost = 1;
constexpr uint32_t kTransferFromHost = 2;

// Caps bit sets (doc 5.2).
namespace Bset {
enum : uint32_t {
  INDEP_BLEND_ENABLE = 1u << 0,
  INDEP_BLEND_FUNC = 1u << 1,
  CUBE_MAP_ARRAY = 1u << 2,
  SHADER_STENCIL_EXPORT = 1u << 3,
  CONDITIONAL_RENDER = 1u << 4,
  START_INSTANCE = 1u << 5,
  PRIMITIVE_RESTART = 1u << 6,
  BLEND_EQ_SEP = 1u << 7,
  INSTANCEID = 1u << 8,
  VERTEX_ELEMENT_INSTANCE_DIVISOR = 1u << 9,
  SEAMLESS_CUBE_MAP = 1u << 10,
  OCCLUSION_QUERY = 1u << 11,
  TIMER_QUERY = 1u << 12,
  STREAMOUT_PAUSE_RESUME = 1u << 13,
  TEXTURE_MULTISAMPLE = 1u << 14,
  FRAGMENT_COORD_CONVENTIONS = 1u << 15,
  DEPTH_CLIP_DISABLE = 1u << 16,
  SEAMLESS_CUBE_MAP_PER_TEXTURE = 1u << 17,
  UBO = 1u << 18,
  COLOR_CLAMPING = 1u << 19,
  POLY_STIPPLE = 1u << 20,
  MIRROR_CLAMP = 1u << 21,
  TEXTURE_QUERY_LOD = 1u << 22,
  HAS_FP64 = 1u << 23,
  HAS_TESSELLATION_SHADERS = 1u << 24,
  HAS_INDIRECT_DRAW = 1u << 25,
  HAS_SAMPLE_SHADING = 1u << 26,
  HAS_CULL = 1u << 27,
  CONDITIONAL_RENDER_INVERTED = 1u << 28,
  DERIVATIVE_CONTROL = 1u << 29,
  POLYGON_OFFSET_CLAMP = 1u << 30,
  TRANSFORM_FEEDBACK_OVERFLOW_QUERY = 1u << 31,
};
}

namespace VirglCap {
enum : uint32_t {
  TGSI_INVARIANT = 1u << 0,
  TEXTURE_VIEW = 1u << 1,
  SET_MIN_SAMPLES = 1u << 2,
  COPY_IMAGE = 1u << 3,
  TGSI_PRECISE = 1u << 4,
  TXQS = 1u << 5,
  MEMORY_BARRIER = 1u << 6,
  COMPUTE_SHADER = 1u << 7,
  FB_NO_ATTACH = 1u << 8,
  ROBUST_BUFFER_ACCESS = 1u << 9,
  TGSI_FBFETCH = 1u << 10,
  SHADER_CLOCK = 1u << 11,
  TEXTURE_BARRIER = 1u << 12,
  TGSI_COMPONENTS = 1u << 13,
  GUEST_MAY_INIT_LOG = 1u << 14,
  SRGB_WRITE_CONTROL = 1u << 15,
  QBO = 1u << 16,
  TRANSFER = 1u << 17,
  FBO_MIXED_COLOR_FORMATS = 1u << 18,
  HOST_IS_GLES = 1u << 19,
  BIND_COMMAND_ARGS = 1u << 20,
  MULTI_DRAW_INDIRECT = 1u << 21,
  INDIRECT_PARAMS = 1u << 22,
  TRANSFORM_FEEDBACK3 = 1u << 23,
  ASTC_3D = 1u << 24,
  INDIRECT_INPUT_ADDR = 1u << 25,
  COPY_TRANSFER = 1u << 26,
  CLIP_HALFZ = 1u << 27,
  APP_TWEAK_SUPPORT = 1u << 28,
  BGRA_SRGB_IS_EMULATED = 1u << 29,
  CLEAR_TEXTURE = 1u << 30,
  ARB_BUFFER_STORAGE = 1u << 31,
};
}

namespace VirglCapV2 {
enum : uint32_t {
  BLEND_EQUATION = 1u << 0,
  UNTYPED_RESOURCE = 1u << 1,
  VIDEO_MEMORY = 1u << 2,
  MEMINFO = 1u << 3,
  STRING_MARKER = 1u << 4,
  DIFFERENT_GPU = 1u << 5,
  IMPLICIT_MSAA = 1u << 6,
  COPY_TRANSFER_BOTH_DIRECTIONS = 1u << 7,
  SCANOUT_USES_GBM = 1u << 8,
  SSO = 1u << 9,
  TEXTURE_SHADOW_LOD = 1u << 10,
};
}

}  // namespace clpipe::frontend::vtest
