// Shader objects: TGSI text that arrives in chunks, possibly across SUBMIT_CMDs (doc
// 4.5), stream-output declarations, BIND_SHADER and LINK_SHADER.
//
// Invariant: a PartialShader's text holds exactly the bytes received so far, in order;
// chunks must continue at that byte offset and never pass the announced total, and the
// sum of partial texts of a client is bounded by Limits::max_pending_shader_bytes.
#include <algorithm>

#include "vtest/decoder.h"
#include "vtest/formats.h"
#include "vtest/log.h"
#include "vtest/protocol.h"

namespace clpipe::frontend::vtest {
namespace {

constexpr uint32_t kContinuationBit = 1u << 31;

StreamOutputInfo parse_stream_output(const Payload& p, uint32_t n) {
  StreamOutputInfo so;
  for (uint32_t b = 0; b < kMaxSoBuffers; ++b) {
    if (p[6 + b] > 0xffff) protocol_error("stream-output stride ", p[6 + b]);
    so.stride[b] = uint16_t(p[6 + b]);
  }
  so.output.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t o = p[10 + 2 * i];
    StreamOutput& out = so.output[i];
    const uint32_t reg = bits(o, 0, 8), start = bits(o, 8, 2), num = bits(o, 10, 3),
                   buffer = bits(o, 13, 3);
    if (reg >= kMaxShaderOutputs || num == 0 || start + num > 4 || buffer >= kMaxSoBuffers)
      protocol_error("stream output ", i, ": register ", reg, " components ", start, "+", num,
                     " buffer ", buffer);
    out.register_index = uint8_t(reg);
    out.start_component = uint8_t(start);
    out.num_components = uint8_t(num);
    out.output_buffer = uint8_t(buffer);
    out.dst_offset = uint16_t(bits(o, 16, 16));
    out.stream = uint8_t(bits(p[11 + 2 * i], 0, 2));
  }
  return so;
}

}  // namespace

void Decoder::create_shader(const Payload& p) {
  p.expect_len_at_least(5);
  const uint32_t handle = p[1];
  if (handle == 0) protocol_error("object handle 0 is reserved");
  const uint32_t stage = p[2];
  const ShaderType type = shader_type_from_wire(stage);
  const bool continuation = p[3] & kContinuationBit;
  const uint32_t value = p[3] & ~kContinuationBit;  // total bytes, or this chunk's offset
  uint32_t text_dword = 6;                          // d6: first text dword without SO info
  const uint32_t so_count = type == ShaderType::COMPUTE ? 0 : p[5];
  if (so_count > 0) {
    if (continuation) protocol_error("stream-output info in a continuation chunk");
    if (so_count > kMaxSoOutputs) protocol_error(so_count, " stream outputs (limit 64)");
    text_dword = 10 + 2 * so_count;
    p.span(6, text_dword - 6);  // the SO block must be inside the command
  }
  const uint64_t chunk_bytes =
      text_dword <= p.len() + 1 ? uint64_t(p.len() + 1 - text_dword) * 4 : 0;
  const char* chunk = chunk_bytes ? reinterpret_cast<const char*>(p.span(text_dword, 1)) : nullptr;
  SubContext& s = sub();

  if (!continuation) {
    if (value == 0 || value > limits_.max_shader_bytes)
      protocol_error("shader text of ", value, " bytes (limit ", limits_.max_shader_bytes, ")");
    auto old = s.partial_shaders.find(handle);
    if (old != s.partial_shaders.end()) {
      log_at(LogLevel::kWarning, label_, ": shader ", handle, " restarted before it was complete");
      pending_shader_bytes_ -= old->second.text.size();
      s.partial_shaders.erase(old);
    }
    PartialShader ps;
    ps.virgl_stage = stage;
    ps.total_bytes = value;
    if (so_count > 0) ps.stream_output = parse_stream_output(p, so_count);
    if (type == ShaderType::COMPUTE) ps.req_local_mem = p[5];
    const size_t take = size_t(std::min<uint64_t>(chunk_bytes, value));
    if (take > limits_.max_pending_shader_bytes - pending_shader_bytes_)
      protocol_error("too much pending shader text (limit ", limits_.max_pending_shader_bytes, ")");
    ps.text.assign(chunk, take);
    if (ps.text.size() >= ps.total_bytes) return finish_shader(handle, std::move(ps));
    pending_shader_bytes_ += ps.text.size();
    s.partial_shaders[handle] = std::move(ps);
    return;
  }

  auto it = s.partial_shaders.find(handle);
  if (it == s.partial_shaders.end())
    protocol_error("continuation chunk for shader ", handle, ", which has no first chunk");
  PartialShader& ps = it->second;
  if (ps.virgl_stage != stage)
    protocol_error("continuation chunk of shader ", handle, " changes its stage");
  if (value != ps.text.size())
    protocol_error("shader ", handle, " chunk at byte ", value, ", expected ", ps.text.size());
  const size_t take = size_t(std::min<uint64_t>(chunk_bytes, ps.total_bytes - ps.text.size()));
  if (take > limits_.max_pending_shader_bytes - pending_shader_bytes_)
    protocol_error("too much pending shader text (limit ", limits_.max_pending_shader_bytes, ")");
  ps.text.append(chunk ? chunk : "", take);
  pending_shader_bytes_ += take;
  if (ps.text.size() < ps.total_bytes) return;
  PartialShader done = std::move(ps);
  pending_shader_bytes_ -= done.text.size();
  s.partial_shaders.erase(it);
  finish_shader(handle, std::move(done));
}

void Decoder::finish_shader(uint32_t handle, PartialShader&& ps) {
  // The text is NUL-terminated and the NUL is counted in the total; keep what precedes it.
  const size_t nul = ps.text.find('\0');
  if (nul == std::string::npos)
    log_at(LogLevel::kDebug, label_, ": shader ", handle, " text is not NUL-terminated");
  else
    ps.text.resize(nul);
  const ShaderType type = shader_type_from_wire(ps.virgl_stage);
  ShaderObject obj;
  obj.type = type;
  Status status;
  if (type == ShaderType::COMPUTE) {
    ComputeState cs;
    cs.tgsi = std::move(ps.text);
    cs.req_local_mem = ps.req_local_mem;
    Result<ComputeHandle> h = ctx().create_compute_state(cs);
    status = h.status();
    if (h) obj.compute = h.value();
  } else {
    ShaderState st;
    st.tgsi = std::move(ps.text);
    st.stream_output = std::move(ps.stream_output);
    Context& c = ctx();
    Result<ShaderHandle> h = type == ShaderType::VERTEX      ? c.create_vs_state(st)
                             : type == ShaderType::FRAGMENT  ? c.create_fs_state(st)
                             : type == ShaderType::GEOMETRY  ? c.create_gs_state(st)
                             : type == ShaderType::TESS_CTRL ? c.create_tcs_state(st)
                                                             : c.create_tes_state(st);
    status = h.status();
    if (h) obj.shader = h.value();
  }
  report(status);
  insert_object(handle, ObjType::SHADER, status.is_ok() ? ObjectValue(obj) : ObjectValue());
}

void Decoder::cmd_bind_shader(const Payload& p, uint32_t) {
  p.expect_len(2);
  const ShaderType type = shader_type_from_wire(p[2]);
  ShaderObject obj;
  if (p[1] != 0) {
    Object& o = object(p[1], ObjType::SHADER, "bind shader");
    if (const ShaderObject* so = std::get_if<ShaderObject>(&o.value)) {
      if (so->type != type)
        protocol_error("shader ", p[1], " is a ", shader_type_name_for_errors(so->type),
                       " shader, bound as ", shader_type_name_for_errors(type));
      obj = *so;
    }
  }
  Context& c = ctx();
  switch (type) {
    case ShaderType::VERTEX:
      return report(c.bind_vs_state(obj.shader));
    case ShaderType::FRAGMENT:
      return report(c.bind_fs_state(obj.shader));
    case ShaderType::GEOMETRY:
      return report(c.bind_gs_state(obj.shader));
    case ShaderType::TESS_CTRL:
      return report(c.bind_tcs_state(obj.shader));
    case ShaderType::TESS_EVAL:
      return report(c.bind_tes_state(obj.shader));
    case ShaderType::COMPUTE:
      return c.bind_compute_state(obj.compute);
  }
}

void Decoder::cmd_link_shader(const Payload& p, uint32_t) {
  // A hint that these shaders form a GL program; clpipe links at draw time. The handles
  // must still name shaders (complete or still arriving) or be 0.
  p.expect_len(6);
  SubContext& s = sub();
  for (uint32_t i = 1; i <= 6; ++i) {
    const uint32_t h = p[i];
    if (h == 0 || s.partial_shaders.count(h)) continue;
    object(h, ObjType::SHADER, "link shader");
  }
}

}  // namespace clpipe::frontend::vtest
