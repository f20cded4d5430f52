// Names of vtest messages, virgl commands and object types, for log messages.
#include "vtest/protocol.h"

namespace clpipe::frontend::vtest {

const char* vtest_cmd_name(uint32_t id) {
  static constexpr const char* kNames[] = {
      "(0)",
      "GET_CAPS",
      "RESOURCE_CREATE",
      "RESOURCE_UNREF",
      "TRANSFER_GET",
      "TRANSFER_PUT",
      "SUBMIT_CMD",
      "RESOURCE_BUSY_WAIT",
      "CREATE_RENDERER",
      "GET_CAPS2",
      "PING_PROTOCOL_VERSION",
      "PROTOCOL_VERSION",
      "RESOURCE_CREATE2",
      "TRANSFER_GET2",
      "TRANSFER_PUT2",
      "GET_PARAM",
      "GET_CAPSET",
      "CONTEXT_INIT",
      "RESOURCE_CREATE_BLOB",
      "SYNC_CREATE",
      "SYNC_UNREF",
      "SYNC_READ",
      "SYNC_WRITE",
      "SYNC_WAIT",
      "SUBMIT_CMD2",
  };
  return id < sizeof(kNames) / sizeof(kNames[0]) ? kNames[id] : "(unknown vtest command)";
}

const char* ccmd_name(uint32_t id) {
  static constexpr const char* kNames[] = {
      "NOP",
      "CREATE_OBJECT",
      "BIND_OBJECT",
      "DESTROY_OBJECT",
      "SET_VIEWPORT_STATE",
      "SET_FRAMEBUFFER_STATE",
      "SET_VERTEX_BUFFERS",
      "CLEAR",
      "DRAW_VBO",
      "RESOURCE_INLINE_WRITE",
      "SET_SAMPLER_VIEWS",
      "SET_INDEX_BUFFER",
      "SET_CONSTANT_BUFFER",
      "SET_STENCIL_REF",
      "SET_BLEND_COLOR",
      "SET_SCISSOR_STATE",
      "BLIT",
      "RESOURCE_COPY_REGION",
      "BIND_SAMPLER_STATES",
      "BEGIN_QUERY",
      "END_QUERY",
      "GET_QUERY_RESULT",
      "SET_POLYGON_STIPPLE",
      "SET_CLIP_STATE",
      "SET_SAMPLE_MASK",
      "SET_STREAMOUT_TARGETS",
      "SET_RENDER_CONDITION",
      "SET_UNIFORM_BUFFER",
      "SET_SUB_CTX",
      "CREATE_SUB_CTX",
      "DESTROY_SUB_CTX",
      "BIND_SHADER",
      "SET_TESS_STATE",
      "SET_MIN_SAMPLES",
      "SET_SHADER_BUFFERS",
      "SET_SHADER_IMAGES",
      "MEMORY_BARRIER",
      "LAUNCH_GRID",
      "SET_FRAMEBUFFER_STATE_NO_ATTACH",
      "TEXTURE_BARRIER",
      "SET_ATOMIC_BUFFERS",
      "SET_DEBUG_FLAGS",
      "GET_QUERY_RESULT_QBO",
      "TRANSFER3D",
      "END_TRANSFERS",
      "COPY_TRANSFER3D",
      "SET_TWEAKS",
      "CLEAR_TEXTURE",
      "PIPE_RESOURCE_CREATE",
      "PIPE_RESOURCE_SET_TYPE",
      "GET_MEMORY_INFO",
      "EMIT_STRING_MARKER",
      "LINK_SHADER",
      "CREATE_VIDEO_CODEC",
      "DESTROY_VIDEO_CODEC",
      "CREATE_VIDEO_BUFFER",
      "DESTROY_VIDEO_BUFFER",
      "BEGIN_FRAME",
      "DECODE_MACROBLOCK",
      "DECODE_BITSTREAM",
      "ENCODE_BITSTREAM",
      "END_FRAME",
  };
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == Ccmd::COUNT, "one name per command");
  return id < Ccmd::COUNT ? kNames[id] : "(unknown virgl command)";
}

const char* obj_type_name(uint32_t type) {
  static constexpr const char* kNames[] = {
      "NULL",         "BLEND",         "RASTERIZER", "DSA",   "SHADER",           "VERTEX_ELEMENTS",
      "SAMPLER_VIEW", "SAMPLER_STATE", "SURFACE",    "QUERY", "STREAMOUT_TARGET", "MSAA_SURFACE",
  };
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == ObjType::COUNT, "one name per type");
  return type < ObjType::COUNT ? kNames[type] : "(unknown object type)";
}

}  // namespace clpipe::frontend::vtest
