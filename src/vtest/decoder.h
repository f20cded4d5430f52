// The virgl command-stream decoder: walks the payload of each SUBMIT_CMD, range-checks
// every field and maps each command onto the public clpipe API (Context / Screen).
//
// One Decoder per client connection. It owns the sub-contexts (one clpipe Context each,
// created on CREATE_SUB_CTX) with their object tables, and borrows the connection's
// resource table. Handlers are member functions grouped by theme in decode_*.cpp:
//   decode_objects.cpp  CREATE/BIND/DESTROY_OBJECT of state objects, views, surfaces
//   decode_shader.cpp   shader objects (TGSI text in chunks, across submits), BIND_SHADER
//   decode_state.cpp    SET_* parameter state and bindings
//   decode_draw.cpp     draws, clears, blits, copies, compute, barriers
//   decode_query.cpp    queries, render conditions, query-result write-back
//   decode_transfer.cpp TRANSFER3D, COPY_TRANSFER3D, RESOURCE_INLINE_WRITE
// Two kinds of failure: a malformed stream (bad length, handle, enum, box ...) throws
// ProtocolError and the connection closes; a well-formed request that clpipe refuses (a
// shader that does not compile, an unsupported feature) is logged with the client and
// command, counted, and skipped — like a GL error, the client goes on (unless `strict`).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "clpipe/context.h"
#include "clpipe/screen.h"
#include "vtest/protocol.h"
#include "vtest/resources.h"
#include "vtest/screen_factory.h"
#include "vtest/wire.h"

namespace clpipe::frontend::vtest {

struct ShaderObject {
  ShaderType type = ShaderType::VERTEX;
  ShaderHandle shader;    // graphics stages
  ComputeHandle compute;  // COMPUTE
};

struct QueryObject {
  QueryHandle query;
  uint32_t virgl_type = 0;
  VtestResourceRef buffer;  // receives virgl_host_query_state (doc 3.6)
  uint32_t offset = 0;
};

// An object of a sub-context's table. std::monostate marks an object the client created
// but clpipe refused: its handle stays valid (later commands naming it are well formed)
// and it behaves as "no object".
using ObjectValue =
    std::variant<std::monostate, BlendHandle, RasterizerHandle, DepthStencilAlphaHandle,
                 ShaderObject, VertexElementsHandle, SamplerViewHandle, SamplerHandle,
                 SurfaceHandle, QueryObject, StreamOutputTargetHandle>;

struct Object {
  uint32_t type = 0;  // ObjType::*
  ObjectValue value;
};

// A shader whose TGSI text is still arriving (doc 4.5).
struct PartialShader {
  uint32_t virgl_stage = 0;
  uint32_t total_bytes = 0;  // text length including the NUL
  std::string text;          // bytes received so far, in order
  StreamOutputInfo stream_output;
  uint32_t req_local_mem = 0;
};

struct SubContext {
  uint32_t id = 0;
  std::shared_ptr<Context> ctx;
  std::unordered_map<uint32_t, Object> objects;
  std::unordered_map<uint32_t, PartialShader> partial_shaders;
  // Bindings the decoder needs to translate later commands.
  VtestResourceRef index_buffer;
  uint32_t index_size = 0;
  uint32_t index_offset = 0;
  uint32_t vertex_buffer_count = 0;
  FramebufferState framebuffer;
  uint16_t no_attach_width = 0, no_attach_height = 0;
  std::vector<StreamOutputTargetHandle> so_targets;  // last non-empty binding
  bool dirty = false;                                // work queued since the last flush
  FenceHandle fence;                                 // signals when flushed work is done
};

struct DecoderOptions {
  bool strict = false;  // a clpipe failure closes the connection like a protocol error
};

class Decoder {
 public:
  Decoder(LazyScreen& screen, ResourceTable& resources, const Limits& limits,
          const DecoderOptions& options, std::string client_label);
  ~Decoder();

  // Decodes and executes one SUBMIT_CMD payload (count dwords). Throws ProtocolError,
  // whose message names the command and its dword offset.
  void submit(const uint32_t* dwords, size_t count);

  // RESOURCE_BUSY_WAIT: flushes every sub-context and reports whether all work is done
  // (wait = block until it is). Query results that became available are written back.
  bool wait_idle(bool wait);

  // The context for vtest-level transfers (TRANSFER_GET2/PUT2, v0 transfers): that of the
  // current sub-context, else sub-context 0 (created on demand, like virglrenderer's).
  Context& transfer_context();
  // Flushes other sub-contexts first so that a transfer sees their rendering.
  void sync_for_transfer();

  // Logs and counts a clpipe failure of a vtest-level command (TRANSFER_GET2 ...); throws
  // ProtocolError in strict mode.
  void report_failure(const char* command, const Status& s);
  void set_label(std::string label) { label_ = std::move(label); }

  // Counts clpipe failures reported so far (see the file comment).
  size_t api_failures() const { return api_failures_; }
  size_t commands_executed() const { return commands_; }
  // Commands decoded so far, by virgl command id.
  const std::array<uint32_t, Ccmd::COUNT>& command_counts() const { return command_counts_; }
  size_t sub_context_count() const { return subs_.size(); }

 private:
  using Handler = void (Decoder::*)(const Payload& p, uint32_t obj_type);

  // decoder.cpp: dispatch, sub-contexts, object tables, helpers.
  void dispatch(uint32_t cmd, uint32_t obj_type, const Payload& p);
  SubContext& sub();
  SubContext& create_sub(uint32_t id);
  void report(const Status& s);
  Screen& screen() { return screen_.get(); }
  Context& ctx() { return *sub().ctx; }
  void insert_object(uint32_t handle, uint32_t type, ObjectValue value);
  Object& object(uint32_t handle, uint32_t type, const char* what);
  template <typename T>
  T object_as(uint32_t handle, uint32_t type, const char* what);
  void flush_all();
  void cmd_nop(const Payload& p, uint32_t obj_type);
  void cmd_set_sub_ctx(const Payload& p, uint32_t obj_type);
  void cmd_create_sub_ctx(const Payload& p, uint32_t obj_type);
  void cmd_destroy_sub_ctx(const Payload& p, uint32_t obj_type);
  void cmd_unsupported(const Payload& p, uint32_t obj_type);
  void cmd_debug_flags(const Payload& p, uint32_t obj_type);
  void cmd_string_marker(const Payload& p, uint32_t obj_type);

  // decode_objects.cpp
  void cmd_create_object(const Payload& p, uint32_t obj_type);
  void cmd_bind_object(const Payload& p, uint32_t obj_type);
  void cmd_destroy_object(const Payload& p, uint32_t obj_type);
  void create_blend(const Payload& p);
  void create_rasterizer(const Payload& p);
  void create_dsa(const Payload& p);
  void create_vertex_elements(const Payload& p);
  void create_sampler_view(const Payload& p);
  void create_sampler_state(const Payload& p);
  void create_surface(const Payload& p, bool msaa);
  void create_query(const Payload& p);
  void create_so_target(const Payload& p);

  // decode_shader.cpp
  void create_shader(const Payload& p);
  void finish_shader(uint32_t handle, PartialShader&& shader);
  void cmd_bind_shader(const Payload& p, uint32_t obj_type);
  void cmd_link_shader(const Payload& p, uint32_t obj_type);

  // decode_state.cpp
  void cmd_set_viewport(const Payload& p, uint32_t obj_type);
  void cmd_set_framebuffer(const Payload& p, uint32_t obj_type);
  void cmd_set_framebuffer_no_attach(const Payload& p, uint32_t obj_type);
  void apply_framebuffer();
  void cmd_set_vertex_buffers(const Payload& p, uint32_t obj_type);
  void cmd_set_sampler_views(const Payload& p, uint32_t obj_type);
  void cmd_set_index_buffer(const Payload& p, uint32_t obj_type);
  void cmd_set_constant_buffer(const Payload& p, uint32_t obj_type);
  void cmd_set_uniform_buffer(const Payload& p, uint32_t obj_type);
  void cmd_set_stencil_ref(const Payload& p, uint32_t obj_type);
  void cmd_set_blend_color(const Payload& p, uint32_t obj_type);
  void cmd_set_scissor(const Payload& p, uint32_t obj_type);
  void cmd_bind_sampler_states(const Payload& p, uint32_t obj_type);
  void cmd_set_polygon_stipple(const Payload& p, uint32_t obj_type);
  void cmd_set_clip_state(const Payload& p, uint32_t obj_type);
  void cmd_set_sample_mask(const Payload& p, uint32_t obj_type);
  void cmd_set_min_samples(const Payload& p, uint32_t obj_type);
  void cmd_set_streamout_targets(const Payload& p, uint32_t obj_type);
  void cmd_set_tess_state(const Payload& p, uint32_t obj_type);
  void cmd_set_shader_buffers(const Payload& p, uint32_t obj_type);
  void cmd_set_shader_images(const Payload& p, uint32_t obj_type);
  void cmd_set_atomic_buffers(const Payload& p, uint32_t obj_type);
  void cmd_set_tweaks(const Payload& p, uint32_t obj_type);

  // decode_draw.cpp
  void cmd_clear(const Payload& p, uint32_t obj_type);
  void cmd_clear_texture(const Payload& p, uint32_t obj_type);
  void cmd_draw_vbo(const Payload& p, uint32_t obj_type);
  void cmd_blit(const Payload& p, uint32_t obj_type);
  void cmd_resource_copy_region(const Payload& p, uint32_t obj_type);
  void cmd_launch_grid(const Payload& p, uint32_t obj_type);
  void cmd_memory_barrier(const Payload& p, uint32_t obj_type);
  void cmd_texture_barrier(const Payload& p, uint32_t obj_type);

  // decode_query.cpp
  void cmd_begin_query(const Payload& p, uint32_t obj_type);
  void cmd_end_query(const Payload& p, uint32_t obj_type);
  void cmd_get_query_result(const Payload& p, uint32_t obj_type);
  void cmd_get_query_result_qbo(const Payload& p, uint32_t obj_type);
  void cmd_set_render_condition(const Payload& p, uint32_t obj_type);
  void cmd_get_memory_info(const Payload& p, uint32_t obj_type);
  bool resolve_query(const QueryObject& q, Context& ctx, bool wait);
  void poll_pending_queries(bool wait);

  // decode_transfer.cpp
  void cmd_transfer3d(const Payload& p, uint32_t obj_type);
  void cmd_copy_transfer3d(const Payload& p, uint32_t obj_type);
  void cmd_inline_write(const Payload& p, uint32_t obj_type);

  static const Handler kHandlers[];

  LazyScreen& screen_;
  ResourceTable& resources_;
  Limits limits_;
  DecoderOptions options_;
  std::string label_;
  std::map<uint32_t, std::unique_ptr<SubContext>> subs_;
  SubContext* current_ = nullptr;
  uint64_t pending_shader_bytes_ = 0;
  struct PendingQuery {
    QueryObject query;
    std::weak_ptr<Context> ctx;
  };
  std::vector<PendingQuery> pending_queries_;
  const char* current_cmd_ = "";
  size_t api_failures_ = 0;
  size_t commands_ = 0;
  std::array<uint32_t, Ccmd::COUNT> command_counts_{};
};

}  // namespace clpipe::frontend::vtest
