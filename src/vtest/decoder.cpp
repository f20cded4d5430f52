// The submit walker, command dispatch, sub-contexts and object tables of the decoder
// (see decoder.h for the division of work between the decode_*.cpp files).
#include "vtest/decoder.h"

#include <limits>

#include "vtest/log.h"
#include "vtest/protocol.h"

namespace clpipe::frontend::vtest {

Screen& LazyScreen::get() {
  if (screen_) return *screen_;
  if (failure_.empty()) {
    Result<std::shared_ptr<Screen>> r =
        factory_ ? factory_()
                 : Result<std::shared_ptr<Screen>>(Status(ErrorCode::kUnsupported, "no factory"));
    if (r && r.value()) {
      screen_ = std::move(r.value());
      return *screen_;
    }
    failure_ = r ? "the screen factory returned no screen" : r.status().to_string();
  }
  protocol_error("no clpipe screen: ", failure_);
}

// One entry per virgl command id, in protocol order.
const Decoder::Handler Decoder::kHandlers[] = {
    &Decoder::cmd_nop,                        // NOP
    &Decoder::cmd_create_object,              // CREATE_OBJECT
    &Decoder::cmd_bind_object,                // BIND_OBJECT
    &Decoder::cmd_destroy_object,             // DESTROY_OBJECT
    &Decoder::cmd_set_viewport,               // SET_VIEWPORT_STATE
    &Decoder::cmd_set_framebuffer,            // SET_FRAMEBUFFER_STATE
    &Decoder::cmd_set_vertex_buffers,         // SET_VERTEX_BUFFERS
    &Decoder::cmd_clear,                      // CLEAR
    &Decoder::cmd_draw_vbo,                   // DRAW_VBO
    &Decoder::cmd_inline_write,               // RESOURCE_INLINE_WRITE
    &Decoder::cmd_set_sampler_views,          // SET_SAMPLER_VIEWS
    &Decoder::cmd_set_index_buffer,           // SET_INDEX_BUFFER
    &Decoder::cmd_set_constant_buffer,        // SET_CONSTANT_BUFFER
    &Decoder::cmd_set_stencil_ref,            // SET_STENCIL_REF
    &Decoder::cmd_set_blend_color,            // SET_BLEND_COLOR
    &Decoder::cmd_set_scissor,                // SET_SCISSOR_STATE
    &Decoder::cmd_blit,                       // BLIT
    &Decoder::cmd_resource_copy_region,       // RESOURCE_COPY_REGION
    &Decoder::cmd_bind_sampler_states,        // BIND_SAMPLER_STATES
    &Decoder::cmd_begin_query,                // BEGIN_QUERY
    &Decoder::cmd_end_query,                  // END_QUERY
    &Decoder::cmd_get_query_result,           // GET_QUERY_RESULT
    &Decoder::cmd_set_polygon_stipple,        // SET_POLYGON_STIPPLE
    &Decoder::cmd_set_clip_state,             // SET_CLIP_STATE
    &Decoder::cmd_set_sample_mask,            // SET_SAMPLE_MASK
    &Decoder::cmd_set_streamout_targets,      // SET_STREAMOUT_TARGETS
    &Decoder::cmd_set_render_condition,       // SET_RENDER_CONDITION
    &Decoder::cmd_set_uniform_buffer,         // SET_UNIFORM_BUFFER
    &Decoder::cmd_set_sub_ctx,                // SET_SUB_CTX
    &Decoder::cmd_create_sub_ctx,             // CREATE_SUB_CTX
    &Decoder::cmd_destroy_sub_ctx,            // DESTROY_SUB_CTX
    &Decoder::cmd_bind_shader,                // BIND_SHADER
    &Decoder::cmd_set_tess_state,             // SET_TESS_STATE
    &Decoder::cmd_set_min_samples,            // SET_MIN_SAMPLES
    &Decoder::cmd_set_shader_buffers,         // SET_SHADER_BUFFERS
    &Decoder::cmd_set_shader_images,          // SET_SHADER_IMAGES
    &Decoder::cmd_memory_barrier,             // MEMORY_BARRIER
    &Decoder::cmd_launch_grid,                // LAUNCH_GRID
    &Decoder::cmd_set_framebuffer_no_attach,  // SET_FRAMEBUFFER_STATE_NO_ATTACH
    &Decoder::cmd_texture_barrier,            // TEXTURE_BARRIER
    &Decoder::cmd_set_atomic_buffers,         // SET_ATOMIC_BUFFERS
    &Decoder::cmd_debug_flags,                // SET_DEBUG_FLAGS
    &Decoder::cmd_get_query_result_qbo,       // GET_QUERY_RESULT_QBO
    &Decoder::cmd_transfer3d,                 // TRANSFER3D
    &Decoder::cmd_nop,                        // END_TRANSFERS: the payload is stale garbage
    &Decoder::cmd_copy_transfer3d,            // COPY_TRANSFER3D
    &Decoder::cmd_set_tweaks,                 // SET_TWEAKS
    &Decoder::cmd_clear_texture,              // CLEAR_TEXTURE
    &Decoder::cmd_unsupported,                // PIPE_RESOURCE_CREATE (DRM blobs only)
    &Decoder::cmd_unsupported,                // PIPE_RESOURCE_SET_TYPE (DRM blobs only)
    &Decoder::cmd_get_memory_info,            // GET_MEMORY_INFO
    &Decoder::cmd_string_marker,              // EMIT_STRING_MARKER
    &Decoder::cmd_link_shader,                // LINK_SHADER
    &Decoder::cmd_unsupported,                // video: CREATE_VIDEO_CODEC
    &Decoder::cmd_unsupported,                // DESTROY_VIDEO_CODEC
    &Decoder::cmd_unsupported,                // CREATE_VIDEO_BUFFER
    &Decoder::cmd_unsupported,                // DESTROY_VIDEO_BUFFER
    &Decoder::cmd_unsupported,                // BEGIN_FRAME
    &Decoder::cmd_unsupported,                // DECODE_MACROBLOCK
    &Decoder::cmd_unsupported,                // DECODE_BITSTREAM
    &Decoder::cmd_unsupported,                // ENCODE_BITSTREAM
    &Decoder::cmd_unsupported,                // END_FRAME
};

Decoder::Decoder(LazyScreen& screen, ResourceTable& resources, const Limits& limits,
                 const DecoderOptions& options, std::string client_label)
    : screen_(screen),
      resources_(resources),
      limits_(limits),
      options_(options),
      label_(std::move(client_label)) {}

Decoder::~Decoder() {
  // Objects (views, surfaces, CSOs) go before their contexts.
  for (auto& [id, s] : subs_)
    s->objects.clear();
}

void Decoder::submit(const uint32_t* dw, size_t count) {
  size_t i = 0;
  while (i < count) {
    const uint32_t hdr = dw[i];
    const uint32_t cmd = bits(hdr, 0, 8), obj = bits(hdr, 8, 8), len = bits(hdr, 16, 16);
    if (len > count - i - 1)
      protocol_error("SUBMIT_CMD dword ", i, ": ", ccmd_name(cmd), " of ", len,
                     " dwords overruns the ", count, "-dword submit");
    current_cmd_ = ccmd_name(cmd);
    try {
      dispatch(cmd, obj, Payload(dw + i + 1, len));
    } catch (const ProtocolError& e) {
      const bool has_obj =
          cmd == Ccmd::CREATE_OBJECT || cmd == Ccmd::BIND_OBJECT || cmd == Ccmd::DESTROY_OBJECT;
      protocol_error("SUBMIT_CMD dword ", i, ": ", ccmd_name(cmd), has_obj ? "/" : "",
                     has_obj ? obj_type_name(obj) : "", ": ", e.what());
    }
    ++commands_;
    i += 1 + size_t(len);
  }
  current_cmd_ = "SUBMIT_CMD";
  flush_all();
  poll_pending_queries(false);
}

void Decoder::dispatch(uint32_t cmd, uint32_t obj_type, const Payload& p) {
  static_assert(sizeof(kHandlers) / sizeof(kHandlers[0]) == Ccmd::COUNT,
                "one handler per virgl command");
  if (cmd >= Ccmd::COUNT) protocol_error("unknown virgl command ", cmd);
  ++command_counts_[cmd];
  const Handler handler = kHandlers[cmd];
  (this->*handler)(p, obj_type);
}

SubContext& Decoder::create_sub(uint32_t id) {
  if (subs_.size() >= limits_.max_sub_contexts)
    protocol_error("too many sub-contexts (limit ", limits_.max_sub_contexts, ")");
  Result<std::unique_ptr<Context>> c = screen().context_create();
  if (!c || !c.value()) protocol_error("clpipe cannot create a context: ", c.status().to_string());
  auto s = std::make_unique<SubContext>();
  s->id = id;
  s->ctx = std::shared_ptr<Context>(std::move(c.value()));
  SubContext& ref = *s;
  subs_[id] = std::move(s);
  return ref;
}

SubContext& Decoder::sub() {
  if (!current_) {
    // Commands before any SET_SUB_CTX go to sub-context 0, as in virglrenderer.
    auto it = subs_.find(0);
    current_ = it != subs_.end() ? it->second.get() : &create_sub(0);
  }
  current_->dirty = true;
  return *current_;
}

void Decoder::cmd_create_sub_ctx(const Payload& p, uint32_t) {
  p.expect_len(1);
  if (subs_.count(p[1])) {
    log_at(LogLevel::kDebug, label_, ": CREATE_SUB_CTX ", p[1], " exists already");
    return;
  }
  create_sub(p[1]);
}

void Decoder::cmd_set_sub_ctx(const Payload& p, uint32_t) {
  p.expect_len(1);
  auto it = subs_.find(p[1]);
  if (it == subs_.end()) protocol_error("unknown sub-context ", p[1]);
  SubContext* next = it->second.get();
  if (current_ && current_ != next && current_->dirty) {
    // Contexts have separate queues: what the previous one queued (e.g. the uploads of a
    // transfer area executed in sub-context 0) must be done before the next one runs.
    current_->dirty = false;
    FenceHandle f;
    report(current_->ctx->flush(&f, 0));
    if (f) report(screen().fence_finish(f, std::numeric_limits<uint64_t>::max()));
  }
  current_ = next;
}

void Decoder::cmd_destroy_sub_ctx(const Payload& p, uint32_t) {
  p.expect_len(1);
  auto it = subs_.find(p[1]);
  if (it == subs_.end()) protocol_error("unknown sub-context ", p[1]);
  if (current_ == it->second.get()) current_ = nullptr;
  it->second->objects.clear();
  subs_.erase(it);
}

void Decoder::report(const Status& s) {
  if (s.is_ok()) return;
  ++api_failures_;
  log_at(LogLevel::kWarning, label_, ": ", current_cmd_, ": clpipe: ", s.to_string());
  if (options_.strict) protocol_error("clpipe refused the command (strict mode): ", s.to_string());
}

void Decoder::report_failure(const char* command, const Status& s) {
  const char* saved = current_cmd_;
  current_cmd_ = command;
  report(s);
  current_cmd_ = saved;
}

void Decoder::insert_object(uint32_t handle, uint32_t type, ObjectValue value) {
  if (handle == 0) protocol_error("object handle 0 is reserved");
  SubContext& s = sub();
  auto it = s.objects.find(handle);
  if (it == s.objects.end() && s.objects.size() >= limits_.max_objects)
    protocol_error("too many objects (limit ", limits_.max_objects, ")");
  if (it != s.objects.end())
    log_at(LogLevel::kDebug, label_, ": object ", handle, " replaced by a new ",
           obj_type_name(type));
  s.objects[handle] = Object{type, std::move(value)};
}

Object& Decoder::object(uint32_t handle, uint32_t type, const char* what) {
  SubContext& s = sub();
  auto it = s.objects.find(handle);
  if (it == s.objects.end()) protocol_error(what, ": unknown object ", handle);
  if (it->second.type != type)
    protocol_error(what, ": object ", handle, " is a ", obj_type_name(it->second.type), ", not a ",
                   obj_type_name(type));
  return it->second;
}

template <typename T>
T Decoder::object_as(uint32_t handle, uint32_t type, const char* what) {
  if (handle == 0) return T{};
  Object& o = object(handle, type, what);
  if (const T* v = std::get_if<T>(&o.value)) return *v;
  return T{};  // created by the client, refused by clpipe: behaves as no object
}

template BlendHandle Decoder::object_as<BlendHandle>(uint32_t, uint32_t, const char*);
template RasterizerHandle Decoder::object_as<RasterizerHandle>(uint32_t, uint32_t, const char*);
template DepthStencilAlphaHandle Decoder::object_as<DepthStencilAlphaHandle>(uint32_t, uint32_t,
                                                                             const char*);
template VertexElementsHandle Decoder::object_as<VertexElementsHandle>(uint32_t, uint32_t,
                                                                       const char*);
template SamplerViewHandle Decoder::object_as<SamplerViewHandle>(uint32_t, uint32_t, const char*);
template SamplerHandle Decoder::object_as<SamplerHandle>(uint32_t, uint32_t, const char*);
template SurfaceHandle Decoder::object_as<SurfaceHandle>(uint32_t, uint32_t, const char*);
template QueryObject Decoder::object_as<QueryObject>(uint32_t, uint32_t, const char*);
template ShaderObject Decoder::object_as<ShaderObject>(uint32_t, uint32_t, const char*);
template StreamOutputTargetHandle Decoder::object_as<StreamOutputTargetHandle>(uint32_t, uint32_t,
                                                                               const char*);

void Decoder::flush_all() {
  for (auto& [id, s] : subs_) {
    if (!s->dirty) continue;
    s->dirty = false;
    FenceHandle f;
    report(s->ctx->flush(&f, 0));
    if (f) s->fence = std::move(f);
  }
}

bool Decoder::wait_idle(bool wait) {
  if (subs_.empty()) return true;  // nothing was ever submitted (e.g. the version probe)
  const char* saved = current_cmd_;
  current_cmd_ = "RESOURCE_BUSY_WAIT";
  flush_all();
  bool idle = true;
  for (auto& [id, s] : subs_) {
    if (!s->fence) continue;
    const Status st =
        screen().fence_finish(s->fence, wait ? std::numeric_limits<uint64_t>::max() : 0);
    if (st.code() == ErrorCode::kTimeout) {
      idle = false;
      continue;
    }
    report(st);
    s->fence.reset();
  }
  poll_pending_queries(wait);
  if (!pending_queries_.empty()) idle = false;
  current_cmd_ = saved;
  return idle;
}

Context& Decoder::transfer_context() {
  return *sub().ctx;
}

void Decoder::sync_for_transfer() {
  if (subs_.size() < 2) return;
  SubContext* mine = &sub();
  for (auto& [id, s] : subs_) {
    if (s.get() == mine) continue;
    if (s->dirty) {
      s->dirty = false;
      FenceHandle f;
      report(s->ctx->flush(&f, 0));
      if (f) s->fence = std::move(f);
    }
    if (s->fence) {
      report(screen().fence_finish(s->fence, std::numeric_limits<uint64_t>::max()));
      s->fence.reset();
    }
  }
}

void Decoder::cmd_nop(const Payload&, uint32_t) {}

void Decoder::cmd_unsupported(const Payload&, uint32_t) {
  protocol_error(
      "not supported by this server (never sent by Mesa's virpipe over vtest with "
      "the advertised caps)");
}

void Decoder::cmd_debug_flags(const Payload& p, uint32_t) {
  // A NUL-terminated flag string for the host's debug log: no effect on rendering.
  log_at(LogLevel::kDebug, label_, ": SET_DEBUG_FLAGS (", p.len(), " dwords) ignored");
}

void Decoder::cmd_string_marker(const Payload& p, uint32_t) {
  // GL_GREMEDY_string_marker: length in bytes, then the bytes. A debugging aid.
  p.expect_len_at_least(1);
  if (uint64_t(p[1]) > uint64_t(p.len() - 1) * 4)
    protocol_error("string of ", p[1], " bytes in ", p.len() - 1, " dwords");
  log_at(LogLevel::kDebug, label_, ": EMIT_STRING_MARKER of ", p[1], " bytes ignored");
}

}  // namespace clpipe::frontend::vtest
