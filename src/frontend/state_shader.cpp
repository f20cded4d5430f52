// Shader CSOs (vertex, fragment, geometry, tessellation, compute): the header check,
// stream-output validation, the compiler front-end (parse, validate, analyse), create
// and bind. The OpenCL C is emitted when a draw or launch first uses the shader.
#include <cctype>

#include "compiler/tgsi/parser.h"
#include "compiler/validate.h"
#include "frontend/api_guard.h"
#include "frontend/compute_grid.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

struct StageName {
  const char* text;
  ShaderType stage;
};
constexpr StageName kStageNames[] = {
    {"VERT", ShaderType::VERTEX},         {"FRAG", ShaderType::FRAGMENT},
    {"GEOM", ShaderType::GEOMETRY},       {"TESS_CTRL", ShaderType::TESS_CTRL},
    {"TESS_EVAL", ShaderType::TESS_EVAL}, {"COMP", ShaderType::COMPUTE},
};

const char* header_of(ShaderType stage) {
  for (const StageName& n : kStageNames) {
    if (n.stage == stage) return n.text;
  }
  return "?";
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

void validate_stream_output(ShaderType stage, const StreamOutputInfo& so) {
  if (so.output.empty()) return;
  if (stage != ShaderType::VERTEX && stage != ShaderType::GEOMETRY &&
      stage != ShaderType::TESS_EVAL) {
    runtime::invalid("stream output needs the last vertex stage (VERT, GEOM or TESS_EVAL), not ",
                     shader_type_name(stage));
  }
  if (so.output.size() > kMaxSoOutputs) {
    runtime::invalid(so.output.size(), " stream outputs exceed the maximum of ", kMaxSoOutputs);
  }
  for (size_t i = 0; i < so.output.size(); ++i) {
    const StreamOutput& o = so.output[i];
    if (o.num_components < 1 || o.num_components > 4 || o.start_component > 3 ||
        o.start_component + o.num_components > 4) {
      runtime::invalid("stream output ", i, ": components ", unsigned(o.start_component), "+",
                       unsigned(o.num_components), " do not fit a vec4");
    }
    if (o.output_buffer >= kMaxSoBuffers) {
      runtime::invalid("stream output ", i, ": buffer ", unsigned(o.output_buffer),
                       " is not below ", kMaxSoBuffers);
    }
    if (o.stream >= kMaxVertexStreams || (o.stream != 0 && stage != ShaderType::GEOMETRY)) {
      runtime::invalid("stream output ", i, ": stream ", unsigned(o.stream),
                       " needs a geometry shader and must be below ", kMaxVertexStreams);
    }
    if (o.register_index >= kMaxShaderOutputs) {
      runtime::invalid("stream output ", i, ": register_index ", unsigned(o.register_index),
                       " is not below ", kMaxShaderOutputs);
    }
    if (uint32_t(o.dst_offset) + o.num_components > so.stride[o.output_buffer]) {
      runtime::invalid("stream output ", i, ": dwords ", o.dst_offset, "..",
                       o.dst_offset + o.num_components, " exceed the stride of buffer ",
                       unsigned(o.output_buffer), " (", so.stride[o.output_buffer], " dwords)");
    }
  }
}

}  // namespace

ShaderType tgsi_header_stage(const std::string& tgsi) {
  // TGSI whitespace is space, tab and newline (tgsi.md §2); line:column for the message.
  size_t pos = 0;
  unsigned line = 1, column = 1;
  while (pos < tgsi.size() && (tgsi[pos] == ' ' || tgsi[pos] == '\t' || tgsi[pos] == '\n')) {
    if (tgsi[pos] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++pos;
  }
  size_t end = pos;
  while (end < tgsi.size() && is_word_char(tgsi[end]))
    ++end;
  std::string word = tgsi.substr(pos, end - pos);
  for (char& c : word)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  for (const StageName& n : kStageNames) {
    if (word == n.text) return n.stage;
  }
  runtime::fail(ErrorCode::kCompileError, line, ":", column,
                ": expected a TGSI header (VERT, "
                "FRAG, GEOM, TESS_CTRL, TESS_EVAL or COMP), found \"",
                word.empty() ? tgsi.substr(pos, 16) : word, "\"");
}

void validate_shader(ShaderType stage, const ShaderState& s) {
  const ShaderType found = tgsi_header_stage(s.tgsi);
  if (found != stage) {
    runtime::invalid("the TGSI text is a ", header_of(found), " shader, expected ",
                     header_of(stage));
  }
  validate_stream_output(stage, s.stream_output);
}

void validate_compute(const ComputeState& s, uint64_t max_local_mem) {
  const ShaderType found = tgsi_header_stage(s.tgsi);
  if (found != ShaderType::COMPUTE) {
    runtime::invalid("the TGSI text is a ", header_of(found), " shader, expected COMP");
  }
  if (s.req_local_mem > max_local_mem) {
    runtime::unsupported("req_local_mem ", s.req_local_mem, " bytes exceeds the device's ",
                         max_local_mem, " bytes of local memory");
  }
}

std::shared_ptr<const CompiledTgsi> compile_tgsi_front(const std::string& tgsi) {
  auto c = std::make_shared<CompiledTgsi>();
  c->ir = compiler::parse_tgsi(tgsi);
  compiler::validate(c->ir);
  c->info = compiler::analyze(c->ir);
  return c;
}

Result<ShaderHandle> ContextImpl::create_shader(ShaderType stage, const ShaderState& state,
                                                const char* call) {
  return guard_result<ShaderHandle>(call, [&] {
    validate_shader(stage, state);
    return std::make_shared<Shader>(stage, state, compile_tgsi_front(state.tgsi));
  });
}

Result<ShaderHandle> ContextImpl::create_vs_state(const ShaderState& state) {
  return create_shader(ShaderType::VERTEX, state, "create_vs_state");
}
Result<ShaderHandle> ContextImpl::create_fs_state(const ShaderState& state) {
  return create_shader(ShaderType::FRAGMENT, state, "create_fs_state");
}
Result<ShaderHandle> ContextImpl::create_gs_state(const ShaderState& state) {
  return create_shader(ShaderType::GEOMETRY, state, "create_gs_state");
}
Result<ShaderHandle> ContextImpl::create_tcs_state(const ShaderState& state) {
  return create_shader(ShaderType::TESS_CTRL, state, "create_tcs_state");
}
Result<ShaderHandle> ContextImpl::create_tes_state(const ShaderState& state) {
  return create_shader(ShaderType::TESS_EVAL, state, "create_tes_state");
}

Status ContextImpl::bind_shader(ShaderType stage, const ShaderHandle& shader, const char* call) {
  return guard(call, [&] {
    if (shader && shader->stage != stage) {
      runtime::invalid("a ", shader_type_name(shader->stage), " shader cannot be bound as ",
                       shader_type_name(stage));
    }
    state_.shaders[unsigned(stage)] = shader;
    state_.dirty |= kDirtyShaders;
  });
}

Status ContextImpl::bind_vs_state(const ShaderHandle& shader) {
  return bind_shader(ShaderType::VERTEX, shader, "bind_vs_state");
}
Status ContextImpl::bind_fs_state(const ShaderHandle& shader) {
  return bind_shader(ShaderType::FRAGMENT, shader, "bind_fs_state");
}
Status ContextImpl::bind_gs_state(const ShaderHandle& shader) {
  return bind_shader(ShaderType::GEOMETRY, shader, "bind_gs_state");
}
Status ContextImpl::bind_tcs_state(const ShaderHandle& shader) {
  return bind_shader(ShaderType::TESS_CTRL, shader, "bind_tcs_state");
}
Status ContextImpl::bind_tes_state(const ShaderHandle& shader) {
  return bind_shader(ShaderType::TESS_EVAL, shader, "bind_tes_state");
}

Result<ComputeHandle> ContextImpl::create_compute_state(const ComputeState& state) {
  return guard_result<ComputeHandle>("create_compute_state", [&] {
    validate_compute(state, screen_->cl_device().limits().local_mem_size);
    std::shared_ptr<const CompiledTgsi> compiled = compile_tgsi_front(state.tgsi);
    // A fixed block the device cannot run could never be launched: refuse it here.
    check_fixed_block(compiled->info.props.cs_block, compute_limits(screen_->cl_device().limits()));
    return std::make_shared<ComputeShader>(state, std::move(compiled));
  });
}

void ContextImpl::bind_compute_state(const ComputeHandle& shader) {
  state_.compute = shader;
  state_.dirty |= kDirtyCompute;
}

}  // namespace clpipe::frontend
