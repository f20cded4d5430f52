// The emitter tests' execution harness (harness.h).
#include "compiler/emit/harness.h"

#include <algorithm>

#include "frontend/draw/stage_program.h"
#include "runtime/error.h"
#include "runtime/queue.h"
#include "support/test_device.h"

namespace clpipe::test::emit {

static_assert(sizeof(ClpResourceInfo) == 560, "ClpResourceInfo layout");
static_assert(sizeof(ClpTexView) == 72 + 3 * 4 * CLP_TEX_MAX_LEVELS, "ClpTexView layout");
static_assert(sizeof(ClpSamplerState) == 80, "ClpSamplerState layout");

namespace {

using compiler::ParamKind;

runtime::Queue& queue() {
  static runtime::Queue q(test_device());
  return q;
}

// A buffer holding `words` (at least 4 bytes: OpenCL forbids empty buffers).
cl::Buffer words_buffer(const std::vector<uint32_t>& words, size_t min_words = 1) {
  std::vector<uint32_t> w = words;
  if (w.size() < min_words) w.resize(min_words, 0);
  if (w.empty()) w.push_back(0);
  cl::Buffer b = queue().create_buffer(w.size() * 4);
  queue().write(b, 0, w.size() * 4, w.data(), true);
  return b;
}

cl::Buffer bytes_buffer(const std::vector<uint8_t>& bytes) {
  std::vector<uint8_t> b = bytes;
  if (b.size() < 4) b.resize(4, 0);
  cl::Buffer buf = queue().create_buffer(b.size());
  queue().write(buf, 0, b.size(), b.data(), true);
  return buf;
}

template <typename T>
cl::Buffer struct_buffer(const std::vector<T>& items) {
  std::vector<T> v = items;
  if (v.empty()) v.resize(1);
  cl::Buffer b = queue().create_buffer(v.size() * sizeof(T));
  queue().write(b, 0, v.size() * sizeof(T), v.data(), true);
  return b;
}

std::vector<uint32_t> read_words(const cl::Buffer& b, size_t n) {
  std::vector<uint32_t> w(n);
  if (n) queue().read(b, 0, n * 4, w.data());
  return w;
}

// `items` records of `from` registers (4 words each) as records of `to`, cut or padded with
// zeros; words missing from `words` read 0.
std::vector<uint32_t> restride(const std::vector<uint32_t>& words, size_t items, uint32_t from,
                               uint32_t to) {
  std::vector<uint32_t> out(items * to * 4, 0);
  for (size_t i = 0; i < items; ++i) {
    for (size_t w = 0; w < size_t(std::min(from, to)) * 4; ++w) {
      const size_t at = i * from * 4 + w;
      if (at < words.size()) out[i * to * 4 + w] = words[at];
    }
  }
  return out;
}

}  // namespace

std::string harness_source(const compiler::EmittedShader& code) {
  frontend::draw::GeneratedCode g{code.prelude, code.body};
  return frontend::draw::stage_program_source(g, compiler::harness_template_name(code.stage));
}

void build_emitted(const compiler::EmittedShader& code) {
  test_program_cache().get(harness_source(code));
}

HarnessResult run_shader(const HarnessInput& input) {
  HarnessResult res;
  compiler::EmitOptions options = input.options;
  options.fragment_lanes = queue().device().limits().fragment_lanes;
  res.compiled = compiler::compile_tgsi(input.tgsi, options);
  if (input.interpret) {
    res.compiled.code = compiler::emit_interpreted(res.compiled.ir, res.compiled.info, options);
  }
  res.compiled.code.prelude.insert(0, input.defines);
  const compiler::ShaderInfo& info = res.compiled.info;
  const compiler::EmittedShader& code = res.compiled.code;
  res.source = harness_source(code);
  runtime::ProgramRef program = test_program_cache().get(res.source);
  const bool compute = code.stage == ShaderType::COMPUTE;
  cl::Kernel& k = queue().kernel(program, compute ? "compute_main" : "harness_main");

  const uint32_t n = input.count;
  const uint32_t nin = std::max<uint32_t>(info.num_inputs, 1);
  const uint32_t nout = std::max<uint32_t>(info.num_outputs, 1);
  res.num_outputs = nout;
  uint32_t max_vertices = info.props.gs_max_output_vertices;
  const uint32_t tcs_out = info.props.tcs_vertices_out;

  // Per-stage buffers.
  std::vector<int32_t> lane_state(size_t(n) * 2);
  for (uint32_t i = 0; i < n; ++i) {
    lane_state[2 * i] = i < input.exec.size() ? input.exec[i] : -1;
    lane_state[2 * i + 1] = i < input.helper.size() ? input.helper[i] : 0;
  }
  // The caller's inputs have the shader's register count per invocation (and per vertex),
  // the program's (CLP_NUM_INPUTS) may be larger (an interpreted shader's size class).
  const uint32_t kin = std::max<uint32_t>(code.num_inputs, nin);
  const std::vector<uint32_t> in = restride(input.in, n, nin, kin);
  const std::vector<uint32_t> vin =
      restride(input.vin, (input.vin.size() + size_t(nin) * 4 - 1) / (size_t(nin) * 4), nin, kin);
  std::vector<uint32_t> sv = input.sv;
  sv.resize(size_t(n) * 64 * 4, 0);
  // The program's outputs per invocation or vertex (CLP_NUM_OUTPUTS), which may exceed the
  // shader's (an interpreted shader's size class): read back as the shader's.
  const uint32_t kout = std::max<uint32_t>(code.num_outputs, nout);
  size_t vout_verts = 0;
  if (code.stage == ShaderType::GEOMETRY) vout_verts = size_t(n) * max_vertices;
  if (code.stage == ShaderType::TESS_CTRL) {
    const uint32_t patches = tcs_out ? (n + tcs_out - 1) / tcs_out : 0;
    vout_verts = size_t(patches) * tcs_out;
  }
  const size_t vout_words = vout_verts * kout * 4;
  cl::Buffer b_in = words_buffer(in), b_out = words_buffer({}, size_t(n) * kout * 4);
  cl::Buffer b_sv = words_buffer(sv), b_exec = words_buffer({}, n);
  cl::Buffer b_state = words_buffer(std::vector<uint32_t>(lane_state.begin(), lane_state.end()));
  cl::Buffer b_vin = words_buffer(vin), b_vout = words_buffer({}, vout_words);
  cl::Buffer b_meta = words_buffer({}, size_t(n) * max_vertices), b_count = words_buffer({}, n);

  // Resource parameters, in the emitter's order.
  ClpResourceInfo ri{};
  for (const auto& [b, w] : input.const_buffers) {
    if (b < CLP_RI_MAX_CONST_BUFFERS) ri.const_size[b] = uint32_t(w.size() * 4);
  }
  for (const auto& [b, w] : input.buffers) {
    if (b < CLP_RI_MAX_SHADER_BUFFERS) ri.buffer_size[b] = uint32_t(w.size() * 4);
  }
  for (const auto& [b, w] : input.hw_atomics) {
    if (b < CLP_RI_MAX_HW_ATOMIC_BUFFERS) ri.hw_atomic_size[b] = uint32_t(w.size() * 4);
  }
  ri.global_size = uint32_t(input.global_memory.size() * 4);
  ri.input_size = uint32_t(input.input_memory.size() * 4);
  ri.shared_size = input.shared_size;
  ri.clock_base_lo = uint32_t(input.clock_base);
  ri.clock_base_hi = uint32_t(input.clock_base >> 32);

  struct Bound {
    ParamKind kind;
    uint32_t index;
    cl::Buffer buffer;
  };
  std::vector<Bound> bound;
  for (const compiler::ResourceParam& p : code.params) {
    Bound b{p.kind, p.index, {}};
    auto find = [&](const std::map<uint32_t, std::vector<uint32_t>>& m) {
      auto it = m.find(p.index);
      return it == m.end() ? std::vector<uint32_t>{} : it->second;
    };
    switch (p.kind) {
      case ParamKind::kResourceInfo:
        b.buffer = struct_buffer(std::vector<ClpResourceInfo>{ri});
        break;
      case ParamKind::kConstBuffer:
        b.buffer = words_buffer(find(input.const_buffers));
        break;
      case ParamKind::kShaderBuffer:
        b.buffer = words_buffer(find(input.buffers));
        break;
      case ParamKind::kHwAtomicBuffer:
        b.buffer = words_buffer(find(input.hw_atomics));
        break;
      case ParamKind::kSamplerViews:
      case ParamKind::kSamplers:
      case ParamKind::kImageViews: {
        const auto& src = p.kind == ParamKind::kImageViews ? input.images : input.textures;
        std::vector<ClpTexView> views(p.index);
        std::vector<ClpSamplerState> samplers(p.index);
        for (const auto& [u, t] : src) {
          if (u >= p.index) continue;
          views[u] = t.view;
          views[u].data_size = uint32_t(t.data.size());
          samplers[u] = t.sampler;
        }
        b.buffer = p.kind == ParamKind::kSamplers ? struct_buffer(samplers) : struct_buffer(views);
        break;
      }
      case ParamKind::kTexture:
      case ParamKind::kImage: {
        const auto& src = p.kind == ParamKind::kImage ? input.images : input.textures;
        auto it = src.find(p.index);
        b.buffer = bytes_buffer(it == src.end() ? std::vector<uint8_t>{} : it->second.data);
        break;
      }
      case ParamKind::kGlobalMemory:
        b.buffer = words_buffer(input.global_memory);
        break;
      case ParamKind::kInputMemory:
        b.buffer = words_buffer(input.input_memory);
        break;
      case ParamKind::kSharedMemory:
        break;
      case ParamKind::kInterpCode:
        b.buffer = words_buffer(code.interp_code);
        break;
    }
    bound.push_back(b);
  }

  runtime::KernelArgs args(k);
  if (compute) {
    const cl_uint4 grid = {{input.grid[0], input.grid[1], input.grid[2], 0}};
    const cl_uint4 zero = {{0, 0, 0, 0}};
    args << grid << zero << zero << cl_uint(3);
  } else {
    args << cl_uint(n) << cl_uint(input.inv_per_prim) << cl_uint(input.verts_per_prim)
         << cl_uint(max_vertices) << b_in << b_out << b_sv << b_state << b_exec << b_vin << b_vout
         << b_meta << b_count;
  }
  for (const Bound& b : bound) {
    if (b.kind == ParamKind::kSharedMemory) {
      args << cl::Local(std::max<size_t>(input.shared_size, 4));
    } else {
      args << b.buffer;
    }
  }
  if (compute) {
    queue().launch(k,
                   {size_t(input.grid[0]) * input.block[0], size_t(input.grid[1]) * input.block[1],
                    size_t(input.grid[2]) * input.block[2]},
                   {input.block[0], input.block[1], input.block[2]}, "emit-test");
  } else if (code.stage == ShaderType::TESS_CTRL) {
    const uint32_t patches = tcs_out ? (n + tcs_out - 1) / tcs_out : 0;
    const size_t local = (tcs_out + 3) / 4;
    if (patches) queue().launch(k, {patches * local}, {local}, "emit-test");
  } else {
    queue().launch(k, {size_t((n + code.lanes - 1) / code.lanes)}, {}, "emit-test");
  }
  queue().finish();

  if (!compute) {
    res.out = restride(read_words(b_out, size_t(n) * kout * 4), n, kout, nout);
    const std::vector<uint32_t> e = read_words(b_exec, n);
    res.exec.assign(e.begin(), e.end());
    res.vout = restride(read_words(b_vout, vout_words), vout_verts, kout, nout);
    res.gs_meta = read_words(b_meta, size_t(n) * max_vertices);
    res.gs_count = read_words(b_count, n);
  }
  for (const Bound& b : bound) {
    switch (b.kind) {
      case ParamKind::kShaderBuffer: {
        auto it = input.buffers.find(b.index);
        res.buffers[b.index] =
            read_words(b.buffer, it == input.buffers.end() ? 0 : it->second.size());
        break;
      }
      case ParamKind::kHwAtomicBuffer: {
        auto it = input.hw_atomics.find(b.index);
        res.hw_atomics[b.index] =
            read_words(b.buffer, it == input.hw_atomics.end() ? 0 : it->second.size());
        break;
      }
      case ParamKind::kImage: {
        auto it = input.images.find(b.index);
        std::vector<uint8_t> bytes(it == input.images.end() ? 0 : it->second.data.size());
        if (!bytes.empty()) queue().read(b.buffer, 0, bytes.size(), bytes.data());
        res.images[b.index] = bytes;
        break;
      }
      case ParamKind::kGlobalMemory:
        res.global_memory = read_words(b.buffer, input.global_memory.size());
        break;
      default:
        break;
    }
  }
  return res;
}

}  // namespace clpipe::test::emit
