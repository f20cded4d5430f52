// The execution harness of the emitter tests: compiles TGSI text (compile_tgsi), builds
// it against the stage's harness template (src/kernels/harness.cl or compute.cl) through
// the test program cache, binds inputs, system values, resources and textures, runs it
// and returns the outputs. Consumers: tests/compiler/emit/*_test.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "compiler/emit/batch.h"
#include "compiler/emit/compile.h"
#include "kernels/sampling_abi.h"
#include "kernels/shader_lib_shared.h"

namespace clpipe::test::emit {

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// A bound sampler view (or image) with its data and, for views, its sampler.
struct TextureBinding {
  ClpTexView view{};
  ClpSamplerState sampler{};
  std::vector<uint8_t> data;
};

struct HarnessInput {
  std::string tgsi;
  compiler::EmitOptions options;  // fragment_lanes: the device's (CLPIPE_LANES)
  // Graphics stages: invocations; compute: the grid and block (count is ignored).
  uint32_t count = 4;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  // in[(i * num_inputs + r) * 4 + c]; shorter vectors read 0 past their end.
  std::vector<uint32_t> in;
  // System values: sv[(i * 64 + semantic) * 4 + c].
  std::vector<uint32_t> sv;
  // Per invocation initial masks: default every lane executes, none is a helper.
  std::vector<int32_t> exec, helper;
  // GS / TCS / TES per-vertex inputs and primitive grouping.
  uint32_t inv_per_prim = 1, verts_per_prim = 0;
  std::vector<uint32_t> vin;
  // Resources by unit.
  std::map<uint32_t, std::vector<uint32_t>> const_buffers, buffers, hw_atomics;
  std::map<uint32_t, TextureBinding> textures, images;
  std::vector<uint32_t> global_memory, input_memory;
  uint32_t shared_size = 0;
  uint64_t clock_base = 0;
  // Put before the generated prelude: library switches a test compares (CLP_TEX_PER_LANE).
  std::string defines;
  // Run the shader through the interpreter (compiler::emit_interpreted) instead of its
  // compiled code; throws CompileError for a shader the interpreter does not run.
  bool interpret = false;
};

struct HarnessResult {
  compiler::CompiledShader compiled;
  std::string source;  // the program as built
  uint32_t num_outputs = 0;
  std::vector<uint32_t> out;
  std::vector<int32_t> exec;
  std::vector<uint32_t> vout, gs_meta, gs_count;
  std::map<uint32_t, std::vector<uint32_t>> buffers, hw_atomics;
  std::map<uint32_t, std::vector<uint8_t>> images;
  std::vector<uint32_t> global_memory;

  uint32_t u(uint32_t inv, uint32_t reg, uint32_t chan) const {
    return out.at((size_t(inv) * num_outputs + reg) * 4 + chan);
  }
  int32_t i(uint32_t inv, uint32_t reg, uint32_t chan) const { return int32_t(u(inv, reg, chan)); }
  float f(uint32_t inv, uint32_t reg, uint32_t chan) const { return bitsf(u(inv, reg, chan)); }
};

// Throws CompileError or runtime::Error (with the build log) on failure.
HarnessResult run_shader(const HarnessInput& input);

// Builds the program of emitted code against its stage's harness (no run).
void build_emitted(const compiler::EmittedShader& code);

// The program text of emitted code with its harness template.
std::string harness_source(const compiler::EmittedShader& code);

// compiler::batch_program_source (compiler/emit/batch.h).
inline std::string batch_source(const std::vector<const compiler::EmittedShader*>& shaders) {
  return compiler::batch_program_source(shaders);
}

}  // namespace clpipe::test::emit
